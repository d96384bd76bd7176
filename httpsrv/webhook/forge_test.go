package webhook

import (
	"net/http"
	"testing"
)

func TestFirstHeader(t *testing.T) {
	h := http.Header{}
	h.Set(HeaderGiteaEvent, "push")
	if name, v := firstHeader(h, []string{HeaderForgejoEvent, HeaderGiteaEvent}); name != HeaderGiteaEvent || v != "push" {
		t.Errorf("firstHeader = %s %s", name, v)
	}
	h.Set(HeaderForgejoEvent, "issues")
	if _, v := firstHeader(h, []string{HeaderForgejoEvent, HeaderGiteaEvent}); v != "issues" {
		t.Errorf("the first header does not win: %s", v)
	}
	if name, v := firstHeader(http.Header{}, []string{HeaderForgejoEvent}); name != "" || v != "" {
		t.Errorf("empty header gave %s %s", name, v)
	}
}

func TestPushReason(t *testing.T) {
	cases := map[string]string{
		pushReason("github", "o/r", pushDecision{branch: "main"}): "github push to branch main of o/r",
		pushReason("gitlab", "", pushDecision{tag: "v1"}):         "gitlab push to tag v1",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("pushReason = %q, want %q", got, want)
		}
	}
}

func TestEventClassification(t *testing.T) {
	gh, gl, fj := githubForge("s"), gitlabForge("t"), forgejoForge("s")
	cases := []struct {
		f       forge
		event   string
		payload string
		want    eventKind
	}{
		{gh, "push", "", kindPush}, {gh, "ping", "", kindPing}, {gh, "pull_request", "", kindPullRequest},
		{gl, "Push Hook", "", kindPush}, {gl, "Tag Push Hook", "", kindPush}, {gl, "Note Hook", "", kindOther}, {gl, "Merge Request Hook", "", kindPullRequest},
		{gl, "System Hook", `{"object_kind":"push"}`, kindPush},
		{gl, "System Hook", `{"event_name":"tag_push"}`, kindPush},
		{gl, "System Hook", `{"event_name":"user_create"}`, kindOther},
		{fj, "push", "", kindPush}, {fj, "create", "", kindOther}, {fj, "pull_request", "", kindPullRequest},
	}
	for _, c := range cases {
		if got := c.f.classify(c.event, []byte(c.payload)); got != c.want {
			t.Errorf("%s %q: kind %d, want %d", c.f.source, c.event, got, c.want)
		}
	}
}
