package verifylinks

import (
	"encoding/json"
	"testing"

	"github.com/docweave/docweave/config"
)

// With check_fragments, an external link whose page lacks its fragment is
// a broken-link event of its own, its URL with the fragment, its reason
// missing_fragment and the page's status 200 — told apart from the page
// that answers 404 — and valid against the published schema; the
// fragment the page has is no event, and the page is read once for both.
func TestExternalFragmentEventsCarryTheReason(t *testing.T) {
	h := newHarness(t, func(c *config.Config) { c.Daemon.LinkVerification.CheckFragments = true })
	writeFiles(t, h.cfg.Output.Directory, map[string]string{
		"public/docs/handbook/index.html": `<a href="` + h.server.URL + `/manual#present">here</a> <a href="` + h.server.URL + `/manual#absent">not here</a>
<a href="` + h.server.URL + `/missing#intro">missing page</a>`,
	})
	before := h.requests.get()
	h.writeReport("b1")
	h.publish(h.rendered("b1"))

	byURL := map[string]string{}
	schema := compileSchema(t)
	for _, ev := range h.brokenEvents() {
		byURL[ev.URL] = ev.Reason
		data, _ := json.Marshal(ev)
		var doc any
		_ = json.Unmarshal(data, &doc)
		if err := schema.Validate(doc); err != nil {
			t.Errorf("event does not match the schema: %v\n%s", err, data)
		}
		if ev.URL == h.server.URL+"/manual#absent" && (ev.StatusCode != 200 || ev.Internal || ev.SourcePage != "/docs/handbook/") {
			t.Errorf("the missing fragment's event: %+v", ev)
		}
	}
	if byURL[h.server.URL+"/manual#absent"] != "missing_fragment" || byURL[h.server.URL+"/missing#intro"] != "not_found" {
		t.Errorf("events by URL and reason: %v", byURL)
	}
	if _, ok := byURL[h.server.URL+"/manual#present"]; ok {
		t.Errorf("an event for the fragment the page has: %v", byURL)
	}
	if v := h.verified("b1"); v == nil || v.Broken < 2 {
		t.Errorf("links.verified: %+v", v)
	}
	// /manual once (GET) for its two fragments, /missing once (GET) for
	// its fragment and the guide's plain link, /gone by HEAD then GET.
	if n := h.requests.get() - before; n != 4 {
		t.Errorf("%d requests, want the page read once for both fragments", n)
	}
}
