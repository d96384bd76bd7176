package all

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/docweave/docweave/"

// importsOfModule maps each package of the module (by its path in the
// module) to the module packages its non-test files import.
func importsOfModule(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string]map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := filepath.ToSlash(rel)
		if out[pkg] == nil {
			out[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(ip, module) {
				out[pkg][strings.TrimPrefix(ip, module)] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	flat := map[string][]string{}
	for pkg, imps := range out {
		for ip := range imps {
			flat[pkg] = append(flat[pkg], ip)
		}
		sort.Strings(flat[pkg])
	}
	return flat
}

func under(pkg string, prefixes ...string) bool {
	for _, p := range prefixes {
		if pkg == p || strings.HasPrefix(pkg, p+"/") {
			return true
		}
	}
	return false
}

// TestImportsPointDown keeps the layering: commands on top, then the
// servers and the daemon, then the stages, then the pipeline runner,
// events and the libraries they use. Stages meet only through events and
// the artifact store, so no stage imports another; nothing below the
// stages imports them or anything above them.
func TestImportsPointDown(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	above := []string{"cmd", "daemon", "direct", "httpsrv", "bench", "stages"}
	checked := 0
	for pkg, imps := range importsOfModule(t, root) {
		for _, ip := range imps {
			checked++
			switch {
			case under(ip, "cmd"):
				t.Errorf("%s imports %s: nothing imports a command", pkg, ip)
			case strings.HasPrefix(pkg, "stages/") && pkg != "stages/all" && strings.HasPrefix(ip, "stages/") && path.Dir(ip) == "stages" && ip != pkg:
				t.Errorf("%s imports %s: stages meet only through events and the artifact store", pkg, ip)
			case !under(pkg, above...) && under(ip, above...):
				t.Errorf("%s imports %s, a layer above it", pkg, ip)
			case pkg == "daemon" && ip == "direct":
				t.Errorf("the daemon imports direct, the one-shot build")
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d imports checked: the walk missed the module", checked)
	}
}
