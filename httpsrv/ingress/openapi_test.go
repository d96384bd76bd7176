package ingress

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/docweave/docweave/ingress"
)

func loadSpec(t *testing.T) *openapi3.T {
	t.Helper()
	raw, err := BuildOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		t.Fatalf("kin-openapi cannot load the document: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("kin-openapi finds the document invalid: %v", err)
	}
	return doc
}

func TestOpenAPIDocument(t *testing.T) {
	doc := loadSpec(t)
	if !doc.IsOpenAPI31OrLater() || doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	op := doc.Paths.Find(PathIngresses).Get
	if op == nil {
		t.Fatal("GET /v1/ingresses missing")
	}
	if op.Security == nil || len(*op.Security) != 1 || (*op.Security)[0]["bearerAuth"] == nil {
		t.Fatalf("listing security = %v, want bearerAuth", op.Security)
	}
	scheme := doc.Components.SecuritySchemes["bearerAuth"].Value
	if scheme.Type != "http" || scheme.Scheme != "bearer" {
		t.Fatalf("security scheme = %+v", scheme)
	}
	for status, want := range map[int]struct {
		schema  string
		headers []string
	}{
		200: {"HostsList", []string{"ETag", "Cache-Control"}},
		304: {"", []string{"ETag", "Cache-Control"}},
		401: {"Error", []string{"WWW-Authenticate"}},
		500: {"Error", nil},
		503: {"Error", []string{"Retry-After"}},
	} {
		r := op.Responses.Status(status)
		if r == nil {
			t.Fatalf("status %d not documented", status)
		}
		mt := r.Value.Content.Get("application/json")
		switch {
		case want.schema == "" && mt != nil:
			t.Errorf("%d documents a body", status)
		case want.schema != "" && (mt == nil || mt.Schema.Ref != "#/components/schemas/"+want.schema):
			t.Errorf("%d body is not %s", status, want.schema)
		}
		for _, h := range want.headers {
			if r.Value.Headers[h] == nil {
				t.Errorf("%d lacks header %s", status, h)
			}
		}
	}
	spec := doc.Paths.Find(PathOpenAPI).Get
	// No requirement on the operation and none for the whole document:
	// the description needs no key.
	if spec == nil || (spec.Security != nil && len(*spec.Security) != 0) || len(doc.Security) != 0 {
		t.Fatal("GET /openapi.json must be documented without a security requirement (no auth)")
	}
}

// The schemas are generated from the Go types; this guards the generator
// against skipping a field of any response type.
func TestOpenAPISchemasCoverEveryField(t *testing.T) {
	doc := loadSpec(t)
	for _, typ := range []reflect.Type{
		reflect.TypeFor[ingress.HostsList](), reflect.TypeFor[ingress.Host](), reflect.TypeFor[ingress.Path](),
		reflect.TypeFor[ingress.Backend](), reflect.TypeFor[ingress.ObjectRef](), reflect.TypeFor[Error](),
	} {
		s := doc.Components.Schemas[typ.Name()]
		if s == nil {
			t.Fatalf("no schema %s", typ.Name())
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			prop := s.Value.Properties[name]
			if prop == nil {
				t.Errorf("%s.%s (%s) missing from the schema", typ.Name(), f.Name, name)
				continue
			}
			if required := slices.Contains(s.Value.Required, name); required == omitsEmpty(f) {
				t.Errorf("%s.%s: required = %v, but encoding/json omits it when empty = %v", typ.Name(), f.Name, required, omitsEmpty(f))
			}
			if doc := f.Tag.Get("doc"); doc != "" && prop.Value.Description != doc && prop.Value.Description == "" {
				t.Errorf("%s.%s: the doc tag is not the property's description", typ.Name(), f.Name)
			}
		}
		if s.Value.Description == "" {
			t.Errorf("schema %s has no description", typ.Name())
		}
	}
	reach := doc.Components.Schemas["Reachability"].Value
	if len(reach.Enum) != 3 {
		t.Fatalf("Reachability enum = %v", reach.Enum)
	}
}

func TestHostsListSchemaAcceptsRealBodiesAndRejectsWrongOnes(t *testing.T) {
	doc := loadSpec(t)
	schema := doc.Components.Schemas["HostsList"].Value
	check := func(body string) error {
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		return schema.VisitJSON(v, openapi3.EnableJSONSchema2020())
	}
	snap := snapshotOf(t, "a.example.com")
	if err := check(string(snap.Body)); err != nil {
		t.Fatalf("a real body does not match: %v", err)
	}
	for name, body := range map[string]string{
		"unknown reachability": `{"hosts":[{"host":"h","paths":[{"path":"/","pathType":"Prefix","backend":{},"ingress":{"namespace":"n","name":"i"},"reachability":"maybe"}]}]}`,
		"missing paths":        `{"hosts":[{"host":"h"}]}`,
		"hosts not an array":   `{"hosts":{}}`,
		"port as a string":     `{"hosts":[{"host":"h","paths":[{"path":"/","pathType":"Prefix","backend":{"portNumber":"80"},"ingress":{"namespace":"n","name":"i"},"reachability":"unknown"}]}]}`,
	} {
		if err := check(body); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestOpenAPIDocumentIsByteStable: the document's strong ETag is derived
// from its bytes, so generating it again must give the same bytes (map
// order, reflection order).
func TestOpenAPIDocumentIsByteStable(t *testing.T) {
	first, err := BuildOpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, err := BuildOpenAPI()
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(first) {
			t.Fatal("two generations of the OpenAPI document differ")
		}
	}
}
