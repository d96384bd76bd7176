package all

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/pipeline"
)

var update = flag.Bool("update", false, "rewrite the flow in docs/events.md from the stages' declarations")

const (
	flowBegin = "<!-- flow: drawn from the stages' declarations by stages/all's test; go test ./stages/all -update -->\n```\n"
	flowEnd   = "```\n<!-- end of flow -->"
)

// TestEventsCatalogueDrawsTheDeclaredFlow: the flow in docs/events.md is
// the one every registered stage declares (what it consumes and
// publishes; the runner refuses anything else).
func TestEventsCatalogueDrawsTheDeclaredFlow(t *testing.T) {
	cfg := config.Default()
	stages, err := pipeline.NewStages(pipeline.Registered(), pipeline.Deps{Config: &cfg, Workspace: t.TempDir(), Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stages {
		if len(st.Publishes) == 0 {
			t.Errorf("stage %s declares nothing it publishes", st.Name)
		}
	}
	flow := pipeline.DrawFlow(stages)
	const doc = "../../docs/events.md"
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, flowBegin), strings.Index(text, flowEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/events.md lacks the flow markers %q … %q", flowBegin, flowEnd)
	}
	current := text[i+len(flowBegin) : j]
	if current == flow {
		return
	}
	if *update {
		if err := os.WriteFile(doc, []byte(text[:i+len(flowBegin)]+flow+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the flow in docs/events.md is not the declared one (go test ./stages/all -update rewrites it):\n--- declared ---\n%s--- documented ---\n%s", flow, current)
}
