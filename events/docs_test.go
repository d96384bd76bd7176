package events

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestCatalogueDocumentsEverySubjectAndField keeps docs/events.md true: every
// subject and every JSON field of every message type must appear in it.
func TestCatalogueDocumentsEverySubjectAndField(t *testing.T) {
	data, err := os.ReadFile("../docs/events.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for subject, k := range kinds {
		if !strings.Contains(doc, "`"+subject+"`") {
			t.Errorf("docs/events.md lacks subject %s", subject)
		}
		typ := reflect.TypeOf(k.make()).Elem()
		for _, name := range jsonFields(typ) {
			if !strings.Contains(doc, "`"+name+"`") && !strings.Contains(doc, "`outcome."+name+"`") {
				t.Errorf("docs/events.md lacks field %s of %s", name, subject)
			}
		}
	}
}

// jsonFields lists the JSON names of a struct's fields, descending into
// embedded structs (the header) and the outcome struct.
func jsonFields(typ reflect.Type) []string {
	var out []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if f.Anonymous {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		out = append(out, name)
		if f.Type == reflect.TypeOf(RepoOutcome{}) {
			out = append(out, jsonFields(f.Type)...)
		}
	}
	return out
}
