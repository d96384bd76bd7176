package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// TestTheStartUpBuildIsAskedAgainWhenTheBrokerRefusesIt: the broker
// really refuses the daemon's first start-up build request — the pipeline
// stream takes no message of that size for a moment, as a stream still
// electing its leader takes none — and the daemon asks again by itself:
// with no trigger from the test, the site is built and served. Without
// the retry, the daemon serves nothing until the next trigger.
func TestTheStartUpBuildIsAskedAgainWhenTheBrokerRefusesIt(t *testing.T) {
	cluster := natstest.StartCluster(t, 1)
	repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "# Guide\n\nBuilt at start-up.\n"})
	cfg := daemonConfig(t, repo.FileURL())
	cfg.Broker.URL = cluster.URLs()
	cfg.Site.Name = "startup"
	cfg.Build.WorkspaceDir = t.TempDir()

	// Once the control plane is built and before it leads, the stream
	// refuses every message longer than 16 bytes.
	ctx := context.Background()
	var stream func(size int32)
	controlStarted = func(c *controlPlane) {
		stream = func(size int32) {
			s, err := c.broker.JS.Stream(ctx, natsbroker.StreamName)
			if err != nil {
				t.Error(err)
				return
			}
			info, err := s.Info(ctx)
			if err != nil {
				t.Error(err)
				return
			}
			info.Config.MaxMsgSize = size
			if _, err := c.broker.JS.CreateOrUpdateStream(ctx, info.Config); err != nil {
				t.Error(err)
			}
		}
		stream(16)
	}
	t.Cleanup(func() { controlStarted = nil })

	var logs syncBuffer
	runCtx, cancel := context.WithCancel(ctx)
	ready := make(chan Addresses, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(runCtx, cfg, Options{Log: zerolog.New(&logs).Level(zerolog.WarnLevel), Ready: func(a Addresses) { ready <- a }})
	}()
	defer func() { cancel(); <-done }()
	var a Addresses
	select {
	case a = <-ready:
	case err := <-done:
		t.Fatalf("daemon did not start: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("daemon did not start")
	}
	eventually(t, "the broker to refuse the start-up build", func() bool {
		return strings.Contains(logs.String(), "start-up build not requested yet; retrying")
	})
	if !strings.Contains(logs.String(), "maximum") {
		t.Fatalf("the start-up build was refused for another reason:\n%s", logs.String())
	}
	t.Logf("refused: %s", firstLine(logs.String(), "start-up build not requested yet"))
	stream(-1) // the broker takes messages again
	eventually(t, "the start-up build to be served", func() bool {
		code, body := get(t, "http://"+a.Docs+"/docs/handbook/guide/")
		return code == 200 && strings.Contains(body, "Built at start-up.")
	})
}

// firstLine returns the first line of s that holds part.
func firstLine(s, part string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, part) {
			return line
		}
	}
	return ""
}
