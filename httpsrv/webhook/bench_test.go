package webhook

import (
	"bytes"
	"io"
	"net/http"
	"testing"
)

// BenchmarkGitHubPush measures a signed GitHub push from the client's
// request to the 202, over loopback: body read, HMAC check, parse, match
// and the (recording) trigger.
func BenchmarkGitHubPush(b *testing.B) {
	h := newHarness(b, nil)
	var push []byte
	for _, ex := range githubExamples(b, "push") {
		if bytes.Contains(ex, []byte(`"ref":"refs/heads/master"`)) {
			push = ex
			break
		}
	}
	header := githubHeaders("push", push)
	b.SetBytes(int64(len(push)))
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, h.url+PathGitHub, bytes.NewReader(push))
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

// BenchmarkRepoKey measures URL normalisation, done for every payload URL.
func BenchmarkRepoKey(b *testing.B) {
	for b.Loop() {
		repoKey("ssh://git@GitLab.example.org:2222/group/sub/project.git")
	}
}
