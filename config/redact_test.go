package config

import "testing"

func TestRedactedURL(t *testing.T) {
	cases := map[string]string{
		"https://git.example.com/org/repo.git":                "https://git.example.com/org/repo.git",
		"https://user:tok3n@git.example.com/org/repo.git":     "https://***@git.example.com/org/repo.git",
		"https://x-access-token@git.example.com/org/repo.git": "https://***@git.example.com/org/repo.git",
		"https://u:p/a?s#s@git.example.com/org/repo.git":      "https://***@git.example.com/org/repo.git",
		"https://u:p@ss@git.example.com/org/repo.git":         "https://***@git.example.com/org/repo.git",
		"ssh://git@git.example.com:2222/org/repo.git":         "ssh://***@git.example.com:2222/org/repo.git",
		"git@git.example.com:org/repo.git":                    "***@git.example.com:org/repo.git",
		"user:secret@git.example.com:org/repo.git":            "***@git.example.com:org/repo.git",
		"/srv/git/repo.git":                                   "/srv/git/repo.git",
		"./relative/repo@v1":                                  "./relative/repo@v1",
		"file:///srv/git/repo.git":                            "file:///srv/git/repo.git",
		"":                                                    "",
	}
	for in, want := range cases {
		if got := (Repository{URL: in}).RedactedURL(); got != want {
			t.Errorf("RedactedURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactedBrokerURL(t *testing.T) {
	lv := LinkVerification{BrokerURL: "nats://a:pw@h1:4222, tls://h2:4222,nats://tok@h3:4222"}
	want := "nats://***@h1:4222,tls://h2:4222,nats://***@h3:4222"
	if got := lv.RedactedBrokerURL(); got != want {
		t.Fatalf("RedactedBrokerURL() = %q, want %q", got, want)
	}
}
