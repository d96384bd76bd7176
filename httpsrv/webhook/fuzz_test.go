package webhook

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

// signedRequest builds a correctly signed push request of one forge (the
// selector picks it), so the fuzzer reaches the payload parsers behind the
// signature checks.
func signedRequest(forge byte, body []byte) *http.Request {
	path := PathGeneric
	header := map[string]string{HeaderGenericSignature: "sha256=" + hexHMAC(testGenericSecret, body), HeaderGenericDelivery: "d-1"}
	switch forge % 4 {
	case 0:
		path, header = PathGitHub, githubHeaders("push", body)
	case 1:
		path = PathGitLab
		header = map[string]string{HeaderGitLabToken: testGitLabToken, HeaderGitLabEvent: "Push Hook", HeaderGitLabEventUUID: "u-1"}
	case 2:
		path = PathForgejo
		header = map[string]string{HeaderForgejoSignature: hexHMAC(testForgejoSecret, body), HeaderForgejoEvent: "push", HeaderForgejoDelivery: "d-1"}
	}
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return req
}

// FuzzWebhookPayload: any signed body, for any forge, gets a JSON answer
// that is not a server error, and a trigger names only configured
// repositories. The seed corpus (testdata/fuzz/FuzzWebhookPayload) holds
// the forges' own example payloads.
func FuzzWebhookPayload(f *testing.F) {
	for forge, dir := range map[byte]string{0: "github", 1: "gitlab", 2: "forgejo"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			var examples []json.RawMessage
			if json.Unmarshal(data, &examples) == nil && strings.HasPrefix(strings.TrimSpace(string(data)), "[") {
				for _, ex := range examples {
					f.Add(forge, []byte(ex))
				}
				continue
			}
			f.Add(forge, data)
		}
	}
	f.Add(byte(3), []byte(`{"repositories":["hello"],"reason":"x"}`))
	rec := &triggerRecorder{result: TriggerResult{BuildID: "build-0001"}}
	h := New(Options{
		Secrets: config.Webhooks{GitHubSecret: testGitHubSecret, GitLabToken: testGitLabToken,
			ForgejoSecret: testForgejoSecret, GenericSecret: testGenericSecret, MaxBodyBytes: 1 << 20},
		Repositories: testRepositories(), Trigger: rec.trigger, Log: zerolog.Nop(),
	})
	known := map[string]bool{}
	for _, r := range testRepositories() {
		known[r.Name] = true
	}
	f.Fuzz(func(t *testing.T, forge byte, body []byte) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, signedRequest(forge, body))
		if w.Code >= 500 {
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body)
		}
		var answer map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &answer); err != nil {
			t.Fatalf("answer %q is not a JSON object: %v", w.Body, err)
		}
		for _, call := range rec.Calls() {
			for _, name := range call.Repositories {
				if !known[name] {
					t.Fatalf("trigger for an unknown repository %q", name)
				}
			}
		}
	})
}

// scheme is a URL scheme: only then does "://" start an authority whose
// user info is credentials ("0/://0@0" is a relative path).
var scheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// FuzzRepoKey: the key a repository URL is matched under is stable (a key
// is its own key), lower-case, without empty path segments, and never
// depends on credentials.
func FuzzRepoKey(f *testing.F) {
	for _, s := range []string{
		"https://github.com/Org/Repo.git", "git@github.com:org/repo", "ssh://git@github.com:22/org/repo/",
		"https://user:secret@host/a//b.git?x=1#f", "/srv/git/local", `C:\docs\repo`, "file:///srv/x.git", "::", "@:",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		key := repoKey(raw)
		if key == "" {
			return
		}
		if key != strings.ToLower(key) || strings.Contains(key, "//") {
			t.Fatalf("repoKey(%q) = %q: not lower-case or has an empty segment", raw, key)
		}
		if strings.Contains(raw, "://") && strings.Contains(raw, "@") {
			if u, p, ok := strings.Cut(raw, "://"); ok && scheme.MatchString(u) {
				if at := strings.LastIndexByte(p, '@'); at > 0 && !strings.ContainsAny(p[:at], "/?#") {
					if again := repoKey(u + "://" + p[at+1:]); again != key {
						t.Fatalf("credentials change the key: %q vs %q", key, again)
					}
				}
			}
		}
	})
}
