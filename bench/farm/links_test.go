package farm

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestLinkServersAnswerOnDistinctHosts(t *testing.T) {
	ls, err := StartLinkServers(3, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	bases := ls.Bases()
	if len(bases) != 3 || bases[0] == bases[1] || bases[1] == bases[2] {
		t.Fatalf("bases %v", bases)
	}
	for _, b := range bases {
		resp, err := http.Get(b + "/specs/guide/1")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), "/specs/guide/1") {
			t.Fatalf("%s answered %d %q", b, resp.StatusCode, body)
		}
	}
	if ls.Requests() != 3 {
		t.Fatalf("%d requests counted, want 3", ls.Requests())
	}
}

func TestStartLinkServersRejectsZero(t *testing.T) {
	if _, err := StartLinkServers(0, 0); err == nil || !strings.Contains(err.Error(), "at least 1") {
		t.Fatalf("got %v", err)
	}
}
