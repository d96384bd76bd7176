package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// axeScript is axe-core's browser build, installed by npm from
// package.json.
const axeScript = "node_modules/axe-core/axe.min.js"

var installAxe sync.Once

// loadAxe returns axe-core's source, running npm ci first when it is not
// installed yet.
func loadAxe(t *testing.T) string {
	t.Helper()
	var installErr error
	installAxe.Do(func() {
		if _, err := os.Stat(axeScript); err == nil {
			return
		}
		npm, err := exec.LookPath("npm")
		if err != nil {
			installErr = fmt.Errorf("the accessibility check needs npm to install axe-core (Debian packages \"nodejs\" and \"npm\"): %w", err)
			return
		}
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		if out, err := cmd.CombinedOutput(); err != nil {
			installErr = fmt.Errorf("npm ci in site/browsertest: %w\n%s", err, out)
		}
	})
	if installErr != nil {
		t.Fatal(installErr)
	}
	src, err := os.ReadFile(filepath.FromSlash(axeScript))
	if err != nil {
		t.Fatalf("read axe-core: %v", err)
	}
	return string(src)
}

// axeViolation is the part of an axe-core violation a failure shows.
type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

// checkAccessibility runs axe-core on the page open in ctx and fails the
// test for every serious or critical violation.
func checkAccessibility(ctx context.Context, t *testing.T, axe, what string) {
	t.Helper()
	run := `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => ({id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(n => n.target.join(" "))})))`
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](axe+";\ntypeof axe === \"object\""))
	if err != nil || !loaded {
		t.Fatalf("load axe-core into %s: loaded %v: %v", what, loaded, err)
	}
	violations, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](run, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe-core on %s: %v", what, err)
	}
	for _, v := range violations {
		t.Errorf("%s: %s accessibility violation %s (%s) at %s", what, v.Impact, v.ID, v.Help, strings.Join(v.Targets, "; "))
	}
}
