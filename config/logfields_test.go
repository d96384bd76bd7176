package config

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

func TestLogFieldsCarryNoSecrets(t *testing.T) {
	c := Default()
	c.Path = "/etc/docweave.yaml"
	c.Mode = ModeDaemon
	c.Broker.URL = "nats://svc:BROKERSECRET@nats.example:4222"
	c.Broker.Password = "BROKERSECRET"
	c.Site.Name = "handbook"
	repo := Repository{URL: "https://u:URLSECRET@git.example.com/r.git", Name: "r", Paths: []string{"docs"},
		Auth: Auth{Type: AuthToken, Token: "TOKENSECRET"}}
	c.Repositories = []Repository{repo}

	var buf bytes.Buffer
	log := zerolog.New(&buf)
	log.Info().Object("config", &c).Object("repository", repo).Msg("loaded")
	out := buf.String()
	if strings.Contains(out, "SECRET") {
		t.Fatalf("log line leaks a secret: %s", out)
	}
	for _, want := range []string{`"mode":"daemon"`, `"repositories":1`, `"broker_url":"nats://***@nats.example:4222"`,
		`"url":"https://***@git.example.com/r.git"`, `"auth":"token (credentials redacted)"`, `"path":"/etc/docweave.yaml"`, `"site":"handbook"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log line lacks %s: %s", want, out)
		}
	}
}
