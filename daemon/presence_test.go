package daemon

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/stages"
)

// A stage process whose lists, with the others', leave a needed stage
// uncovered warns, naming each such stage; link verification counts only
// where it is on.
func TestAStageProcessWarnsOfUncoveredStages(t *testing.T) {
	cfg := config.Default()
	cfg.Daemon.LinkVerification.Enabled = false
	var out bytes.Buffer
	own := []string{stages.Discover, stages.Clone, stages.Join, stages.Render, stages.Finish, stages.PublishReload}
	warnUncovered(context.Background(), &cfg, presence{own: own}, zerolog.New(&out))
	text := out.String()
	if !strings.Contains(text, `"stage":"assemble"`) || !strings.Contains(text, "docweave stage assemble") {
		t.Fatalf("no warning names assemble:\n%s", text)
	}
	if n := strings.Count(text, `"level":"warn"`); n != 1 {
		t.Fatalf("%d warnings, want 1 (assemble; verifylinks is off):\n%s", n, text)
	}
}
