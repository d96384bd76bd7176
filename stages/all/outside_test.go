package all

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const (
	outsideBegin = "<!-- outside: every subscriber outside the stages; stages/all's test checks it names each one -->\n```\n"
	outsideEnd   = "```\n<!-- end of outside -->"
)

// outsideSubscribers are the places outside the stages that subscribe to
// the broker, by file: the name docs/events.md draws them under and the
// subjects it draws them under. A subject the code names by a constant is
// checked against the code; the others (a variable, a map's keys) are
// read from here.
var outsideSubscribers = map[string]struct {
	name     string
	subjects []string
}{
	"daemon/coordinator.go": {"coordinator", []string{"docweave.>"}},
	"daemon/control.go":     {"control plane", []string{"docweave.build.finished", "docweave.links.verified"}},
	"daemon/forward.go":     {"control plane (leader)", []string{"docweavectl.trigger", "docweavectl.build", "docweavectl.recent"}},
	"daemon/servers.go":     {"livereload server", []string{"docweave.site.published"}},
	"daemon/split.go":       {"docs server (split)", []string{"docweave.site.published"}},
	"direct/direct.go":      {"direct", []string{"docweave.>"}},
	"cmd/docweave/links.go": {"docweave links tail", []string{"builder.links.broken"}},
}

// subscribeCalls are the calls that subscribe to the broker.
var subscribeCalls = []string{"Subscribe", "QueueSubscribe", "ChanSubscribe", "SubscribeSync", "OrderedConsumer"}

// TestEventsCatalogueDrawsEverySubscriberOutsideTheStages: every call
// outside the pipeline package and the stages that subscribes to the
// broker is drawn in docs/events.md, under the subjects it subscribes to.
// A new subscriber fails this test until the drawing and the table above
// name it.
func TestEventsCatalogueDrawsEverySubscriberOutsideTheStages(t *testing.T) {
	const root = "../.."
	subjects := eventSubjects(t, root)
	drawn := drawnSubscribers(t, root+"/docs/events.md")
	found := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "pipeline" || rel == "stages" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		for _, subject := range subscriptions(t, p, subjects) {
			found[rel] = true
			sub, ok := outsideSubscribers[rel]
			if !ok {
				t.Errorf("%s subscribes to the broker outside the stages: draw it in docs/events.md (outside the stages) and name it in outsideSubscribers", rel)
				continue
			}
			if subject != "" && !slices.Contains(sub.subjects, subject) {
				t.Errorf("%s subscribes to %s, which outsideSubscribers does not list for it", rel, subject)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for file, sub := range outsideSubscribers {
		if !found[file] {
			t.Errorf("%s no longer subscribes to the broker: take %q out of the drawing and of outsideSubscribers", file, sub.name)
		}
		for _, subject := range sub.subjects {
			if !slices.Contains(drawn[subject], sub.name) {
				t.Errorf("docs/events.md does not draw %q under %s (it draws %q there)", sub.name, subject, drawn[subject])
			}
		}
	}
}

// drawnSubscribers reads the drawing of the subscribers outside the
// stages: under each line of subjects, the names of "  ─name─► …" lines.
func drawnSubscribers(t *testing.T, doc string) map[string][]string {
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, outsideBegin), strings.Index(text, outsideEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/events.md lacks the markers %q … %q", outsideBegin, outsideEnd)
	}
	drawn := map[string][]string{}
	var current []string
	for _, line := range strings.Split(text[i+len(outsideBegin):j], "\n") {
		if name, ok := strings.CutPrefix(line, "  ─"); ok {
			name, _, _ = strings.Cut(name, "─►")
			for _, s := range current {
				drawn[s] = append(drawn[s], name)
			}
			continue
		}
		head, _, _ := strings.Cut(line, " (")
		current = strings.Split(head, ", ")
	}
	return drawn
}

// eventSubjects maps the events package's string constants to their
// values (SubjectBuildFinished → docweave.build.finished), Prefix joined.
func eventSubjects(t *testing.T, root string) map[string]string {
	pkgs, err := parser.ParseDir(token.NewFileSet(), root+"/events", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{}
	var value func(ast.Expr) (string, bool)
	value = func(e ast.Expr) (string, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		case *ast.Ident:
			s, ok := consts[e.Name]
			return s, ok
		case *ast.BinaryExpr:
			a, ok1 := value(e.X)
			b, ok2 := value(e.Y)
			return a + b, ok1 && ok2
		}
		return "", false
	}
	for range 2 { // twice: a constant may use one declared after it
		for _, pkg := range pkgs {
			for _, f := range pkg.Files {
				for _, decl := range f.Decls {
					g, ok := decl.(*ast.GenDecl)
					if !ok || g.Tok != token.CONST {
						continue
					}
					for _, spec := range g.Specs {
						vs := spec.(*ast.ValueSpec)
						for k, name := range vs.Names {
							if k < len(vs.Values) {
								if s, ok := value(vs.Values[k]); ok {
									consts[name.Name] = s
								}
							}
						}
					}
				}
			}
		}
	}
	return consts
}

// subscriptions lists the subjects the file's subscribe calls name: the
// value of an events constant given as the subject (or, for an ordered
// consumer, in FilterSubjects), "" where the code names it otherwise.
func subscriptions(t *testing.T, file string, subjects map[string]string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !slices.Contains(subscribeCalls, sel.Sel.Name) || len(call.Args) < 2 {
			return true
		}
		arg := call.Args[0]
		if sel.Sel.Name == "OrderedConsumer" {
			arg = filterSubject(call.Args[len(call.Args)-1])
		}
		subject := ""
		if s, ok := arg.(*ast.SelectorExpr); ok {
			if pkg, ok := s.X.(*ast.Ident); ok && pkg.Name == "events" {
				subject = subjects[s.Sel.Name]
			}
		}
		out = append(out, subject)
		return true
	})
	return out
}

// filterSubject is the first of FilterSubjects in an ordered consumer's
// configuration literal, or nil.
func filterSubject(cfg ast.Expr) ast.Expr {
	lit, ok := cfg.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if key, isIdent := kv.Key.(*ast.Ident); ok && isIdent && key.Name == "FilterSubjects" {
			if list, ok := kv.Value.(*ast.CompositeLit); ok && len(list.Elts) > 0 {
				return list.Elts[0]
			}
		}
	}
	return nil
}
