package ingress

import (
	"reflect"
	"strings"
	"testing"
)

type color string

func (color) EnumValues() []string        { return []string{"red", "green"} }
func (color) SchemaDescription() string   { return "A color." }
func (sample) SchemaDescription() string  { return "A sample." }
func (inner) SchemaDescription() string   { return "" }
func (badEnum) EnumValues() []string      { return nil }
func (withMap) SchemaDescription() string { return "" }

type inner struct {
	N int32 `json:"n"`
}

type sample struct {
	Name     string  `json:"name" doc:"The name."`
	Optional string  `json:"optional,omitempty"`
	Flag     bool    `json:"flag"`
	Count    int64   `json:"count,omitempty"`
	Color    color   `json:"color" doc:"Its color."`
	Inner    inner   `json:"inner"`
	Many     []inner `json:"many"`
	Tags     []string
	Skipped  string `json:"-"`
	private  string //nolint:unused // proves unexported fields are skipped
}

type badEnum int

type withMap struct {
	M map[string]string `json:"m"`
}

func TestSchemaGenerator(t *testing.T) {
	g := newSchemaGenerator()
	ref, err := g.ref(reflect.TypeFor[sample]())
	if err != nil {
		t.Fatal(err)
	}
	if ref.Ref != "#/components/schemas/sample" {
		t.Fatalf("ref = %q", ref.Ref)
	}
	s := g.components["sample"]
	if s.Type != "object" || s.Description != "A sample." {
		t.Fatalf("sample schema = %+v", s)
	}
	wantRequired := []string{"name", "flag", "color", "inner", "many", "Tags"}
	if !reflect.DeepEqual(s.Required, wantRequired) {
		t.Fatalf("required = %v, want %v", s.Required, wantRequired)
	}
	if _, ok := s.Properties["Skipped"]; ok {
		t.Fatal(`json:"-" field in schema`)
	}
	if _, ok := s.Properties["private"]; ok {
		t.Fatal("unexported field in schema")
	}
	if p := s.Properties["name"]; p.Type != "string" || p.Description != "The name." {
		t.Fatalf("name = %+v", p)
	}
	if p := s.Properties["color"]; p.Ref != "#/components/schemas/color" || p.Description != "Its color." {
		t.Fatalf("color property = %+v", p)
	}
	if c := g.components["color"]; c.Type != "string" || !reflect.DeepEqual(c.Enum, []string{"red", "green"}) || c.Description != "A color." {
		t.Fatalf("color component = %+v", c)
	}
	if p := s.Properties["many"]; p.Type != "array" || p.Items.Ref != "#/components/schemas/inner" {
		t.Fatalf("many = %+v", p)
	}
	if p := s.Properties["count"]; p.Type != "integer" || p.Format != "int64" {
		t.Fatalf("count = %+v", p)
	}
	if p := s.Properties["Tags"]; p.Type != "array" || p.Items.Type != "string" {
		t.Fatalf("Tags = %+v", p)
	}
}

func TestSchemaGeneratorRefusesWhatItCannotDescribe(t *testing.T) {
	for name, typ := range map[string]reflect.Type{
		"map field":          reflect.TypeFor[withMap](),
		"non-string enum":    reflect.TypeFor[badEnum](),
		"plain string":       reflect.TypeFor[string](),
		"anonymous struct":   reflect.TypeFor[struct{ A string }](),
		"pointer to struct ": reflect.TypeFor[*sample](),
	} {
		if _, err := newSchemaGenerator().ref(typ); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.Contains(err.Error(), "openapi") {
			t.Errorf("%s: error %q does not say where it comes from", name, err)
		}
	}
}
