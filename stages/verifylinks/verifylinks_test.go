package verifylinks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/linkcheck"
	"github.com/docweave/docweave/pipeline"
	"github.com/docweave/docweave/report"
)

// TestOneEventPerBrokenLinkPerBuild runs a daemon build's verification,
// replays the broken-link stream as a late subscriber would, checks every
// documented field against the JSON Schema, and then redelivers the same
// build: no event is duplicated.
func TestOneEventPerBrokenLinkPerBuild(t *testing.T) {
	h := newHarness(t, nil)
	h.writeReport("b1")
	h.publish(h.rendered("b1"))

	got := h.brokenEvents()
	var summary []string
	for _, ev := range got {
		summary = append(summary, ev.SourcePage+" → "+strings.TrimPrefix(ev.URL, h.server.URL))
	}
	sort.Strings(summary)
	want := []string{
		"/docs/handbook/ → /missing",
		"/docs/handbook/guide/ → /docs/handbook/#no-such-id",
		"/docs/handbook/guide/ → /gone",
		"/docs/handbook/guide/ → /missing",
	}
	if strings.Join(summary, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant\n%s", strings.Join(summary, "\n"), strings.Join(want, "\n"))
	}
	schema := compileSchema(t)
	for _, ev := range got {
		if ev.Type != testSubject || ev.SchemaVersion != events.BrokenLinkVersion || ev.BuildID != "b1" || ev.Site != "sha256:b1" {
			t.Errorf("header: %+v", ev.Header)
		}
		if ev.Repository != "handbook" || ev.Forge != "forgejo" || ev.FailureCount != 1 || ev.FirstSeen.IsZero() || !ev.LastSeen.Equal(ev.FirstSeen) {
			t.Errorf("%s: %+v", ev.URL, ev)
		}
		wantFile := "docs/guide.md"
		if ev.SourcePage == "/docs/handbook/" {
			wantFile = "docs/_index.md"
		}
		if ev.SourceFile != wantFile || ev.Element != "a[href]" {
			t.Errorf("%s on %s: source %q element %q", ev.URL, ev.SourcePage, ev.SourceFile, ev.Element)
		}
		switch {
		case strings.HasSuffix(ev.URL, "/gone"):
			if ev.StatusCode != 410 || ev.Reason != "gone" || ev.Internal {
				t.Errorf("gone: %+v", ev)
			}
		case strings.HasSuffix(ev.URL, "/missing"):
			if ev.StatusCode != 404 || ev.Reason != "not_found" || ev.Internal {
				t.Errorf("missing: %+v", ev)
			}
		default:
			if ev.StatusCode != 0 || ev.Reason != "missing_fragment" || !ev.Internal {
				t.Errorf("fragment: %+v", ev)
			}
		}
		data, _ := json.Marshal(ev)
		var doc any
		_ = json.Unmarshal(data, &doc)
		if err := schema.Validate(doc); err != nil {
			t.Errorf("event does not match docs/schemas/broken-link.v1.schema.json: %v\n%s", err, data)
		}
	}

	v := h.verified("b1")
	if v == nil {
		t.Fatal("no links.verified for b1")
	}
	if v.Broken != 3 || v.BrokenEvents != 4 || v.Checked != 7 || v.Status != report.LinksComplete || v.Site != "sha256:b1" {
		t.Fatalf("figures: %+v", v.LinkVerification)
	}
	// The figures travel on links.verified; the report is fingerprint's
	// alone to write (it adds them when links.verified reaches it).
	if rep := readReportFile(t, h.cfg.Output.Directory); rep.Links != nil || rep.BuildID != "b1" {
		t.Fatalf("verifylinks wrote into fingerprint's report: %+v", rep.Links)
	}

	// A redelivery of the same build (new message ID, same content) makes
	// the same events, which JetStream drops.
	requestsBefore := h.requests.get()
	again := h.rendered("b1")
	again.ID = "site.rendered:b1:redelivered"
	h.publish(again)
	if n := len(h.brokenEvents()); n != 4 {
		t.Fatalf("after a redelivery the stream holds %d events, want still 4", n)
	}
	if n := h.requests.get() - requestsBefore; n != 0 {
		t.Fatalf("the redelivery made %d requests; every verdict was cached", n)
	}

	// The next build counts the failure again.
	h.writeReport("b2")
	h.publish(h.rendered("b2"))
	all := h.brokenEvents()
	if len(all) != 8 {
		t.Fatalf("%d events after two builds, want 8", len(all))
	}
	for _, ev := range all[4:] {
		if ev.BuildID != "b2" || ev.FailureCount != 2 {
			t.Errorf("second build: %s failure_count %d", ev.URL, ev.FailureCount)
		}
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs("../../docs/schemas/broken-link.v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	s, err := c.Compile(path)
	if err != nil {
		t.Fatalf("compile schema: %v", err)
	}
	return s
}

func readReportFile(t *testing.T, dir string) *report.Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "build-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

func TestDisabledStageDoesNothing(t *testing.T) {
	h := newHarness(t, func(c *config.Config) { c.Daemon.LinkVerification.Enabled = false })
	h.writeReport("b1")
	h.publish(h.rendered("b1"))
	if n := len(h.brokenEvents()); n != 0 {
		t.Fatalf("%d events with verification disabled", n)
	}
	if h.verified("b1") != nil || h.requests.get() != 0 {
		t.Fatal("verification ran although daemon.link_verification.enabled is false")
	}
	if rep := readReportFile(t, h.cfg.Output.Directory); rep.Links != nil {
		t.Fatal("links section written although verification is off")
	}
}

func TestFailedRenderIsNotVerified(t *testing.T) {
	h := newHarness(t, nil)
	ev := h.rendered("b1")
	ev.OK = false
	h.publish(ev)
	if h.verified("b1") != nil || h.requests.get() != 0 {
		t.Fatal("a build without a new site was verified")
	}
}

// TestDirectBuildsVerifyOnlyWhenAsked: a direct build is verified only with
// --verify-links (VerifyLinks, carried on site.rendered), even with enabled
// true; and asking works with enabled false.
func TestDirectBuildsVerifyOnlyWhenAsked(t *testing.T) {
	for _, enabled := range []bool{false, true} {
		h := newHarness(t, func(c *config.Config) { c.Daemon.LinkVerification.Enabled = enabled })
		for _, c := range []struct {
			build  string
			verify bool
		}{{"d1", false}, {"d2", true}} {
			h.writeReport(c.build)
			ev := h.rendered(c.build)
			ev.Direct, ev.VerifyLinks = true, c.verify
			h.publish(ev)
			if got := h.verified(c.build) != nil; got != c.verify {
				t.Errorf("enabled %v, %s (verify_links %v): verified %v", enabled, c.build, c.verify, got)
			}
		}
	}
}

func TestSubjectInsidePipelineStreamIsRefused(t *testing.T) {
	cfg := config.Default()
	cfg.Daemon.LinkVerification.Subject = "docweave.links.broken"
	_, err := New(pipeline.Deps{Config: &cfg})
	if err == nil || !strings.Contains(err.Error(), "daemon.link_verification.subject") {
		t.Fatalf("want an error naming the key, got %v", err)
	}
}

func TestSchemaRejectsIncompleteEvents(t *testing.T) {
	s := compileSchema(t)
	if err := s.Validate(map[string]any{"id": "links.broken:b:0123456789abcdef01234567"}); err == nil {
		t.Fatal("the schema accepts an event without its required fields")
	}
}

// TestSetupProvisionsStreamAndBucket: the runner's provisioning of the
// stage creates the broken-link stream on the configured subject and a
// cache bucket that allows per-entry expiry.
func TestSetupProvisionsStreamAndBucket(t *testing.T) {
	h := newHarness(t, nil)
	h.writeReport("b1")
	h.publish(h.rendered("b1")) // handled: the stage was set up
	ctx := context.Background()
	s, err := h.broker.JS.Stream(ctx, linkcheck.LinksStreamName)
	if err != nil {
		t.Fatal(err)
	}
	c := s.CachedInfo().Config
	if len(c.Subjects) != 1 || c.Subjects[0] != testSubject || c.Duplicates != 2*time.Hour || c.MaxAge != linkcheck.LinksStreamMaxAge {
		t.Fatalf("stream config: subjects %v duplicates %v max age %v", c.Subjects, c.Duplicates, c.MaxAge)
	}
	kv, err := h.broker.JS.KeyValue(ctx, "test-link-cache")
	if err != nil {
		t.Fatal(err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.LimitMarkerTTL() <= 0 {
		t.Fatal("the cache bucket does not allow per-entry expiry")
	}
}
