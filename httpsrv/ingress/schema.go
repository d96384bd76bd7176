package ingress

import (
	"fmt"
	"reflect"
	"strings"
)

// Schema is the subset of JSON Schema 2020-12 (the dialect of OpenAPI 3.1)
// that the generator emits.
type Schema struct {
	Ref         string             `json:"$ref,omitempty"`
	Type        string             `json:"type,omitempty"`
	Format      string             `json:"format,omitempty"`
	Description string             `json:"description,omitempty"`
	Enum        []string           `json:"enum,omitempty"`
	Properties  map[string]*Schema `json:"properties,omitempty"`
	Required    []string           `json:"required,omitempty"`
	Items       *Schema            `json:"items,omitempty"`
	Minimum     *int64             `json:"minimum,omitempty"`
	Maximum     *int64             `json:"maximum,omitempty"`
}

// enumerated is implemented by string types with a closed set of values.
type enumerated interface{ EnumValues() []string }

// described is implemented by types that document themselves.
type described interface{ SchemaDescription() string }

var (
	enumeratedType = reflect.TypeFor[enumerated]()
	describedType  = reflect.TypeFor[described]()
)

// schemaGenerator turns Go types into JSON Schemas by reflection: one
// component per named struct or enumerated type, referenced with $ref.
// Property names and required-ness come from `json` tags (a field without
// omitempty is always sent, so it is required), descriptions from `doc`
// tags and SchemaDescription methods, enums from EnumValues methods. Because
// encoding/json reads the same tags, the schema describes exactly what the
// handlers send.
type schemaGenerator struct {
	components map[string]*Schema
	types      map[string]reflect.Type // component name → type, to catch clashes
}

func newSchemaGenerator() *schemaGenerator {
	return &schemaGenerator{components: map[string]*Schema{}, types: map[string]reflect.Type{}}
}

// ref returns a reference to the component for t, generating it (and the
// components it uses) on first use.
func (g *schemaGenerator) ref(t reflect.Type) (*Schema, error) {
	if t.Kind() != reflect.Struct && !t.Implements(enumeratedType) {
		return nil, fmt.Errorf("openapi: %s is neither a struct nor an enumerated type", t)
	}
	name := t.Name()
	if name == "" {
		return nil, fmt.Errorf("openapi: anonymous type %s cannot be a component", t)
	}
	if prev, ok := g.types[name]; ok {
		if prev != t {
			return nil, fmt.Errorf("openapi: component %s is both %s and %s", name, prev, t)
		}
		return &Schema{Ref: "#/components/schemas/" + name}, nil
	}
	g.types[name] = t
	s := &Schema{}
	g.components[name] = s // registered before filling, so recursive types terminate
	if err := g.fill(s, t); err != nil {
		return nil, err
	}
	if t.Implements(describedType) {
		s.Description = reflect.Zero(t).Interface().(described).SchemaDescription()
	}
	return &Schema{Ref: "#/components/schemas/" + name}, nil
}

// fill writes the schema of t into s.
func (g *schemaGenerator) fill(s *Schema, t reflect.Type) error {
	if t.Implements(enumeratedType) {
		if t.Kind() != reflect.String {
			return fmt.Errorf("openapi: enumerated type %s must be a string type", t)
		}
		s.Type = "string"
		s.Enum = reflect.Zero(t).Interface().(enumerated).EnumValues()
		return nil
	}
	s.Type = "object"
	s.Properties = map[string]*Schema{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, omitEmpty, skip := jsonName(f)
		if skip {
			continue
		}
		fs, err := g.field(f.Type)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
		}
		if doc := f.Tag.Get("doc"); doc != "" {
			fs.Description = doc // JSON Schema 2020-12 allows keywords beside $ref
		}
		s.Properties[name] = fs
		if !omitEmpty {
			s.Required = append(s.Required, name)
		}
	}
	return nil
}

// field returns the inline schema of a field type, or a reference for
// structs and enumerated types.
func (g *schemaGenerator) field(t reflect.Type) (*Schema, error) {
	if t.Kind() == reflect.Struct || t.Implements(enumeratedType) {
		return g.ref(t)
	}
	switch t.Kind() {
	case reflect.String:
		return &Schema{Type: "string"}, nil
	case reflect.Bool:
		return &Schema{Type: "boolean"}, nil
	case reflect.Int32:
		return &Schema{Type: "integer", Format: "int32"}, nil
	case reflect.Int64, reflect.Int:
		return &Schema{Type: "integer", Format: "int64"}, nil
	case reflect.Slice:
		items, err := g.field(t.Elem())
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "array", Items: items}, nil
	default:
		// Pointers, maps, interfaces and the rest are not used by the
		// response types; refusing them keeps the schema honest.
		return nil, fmt.Errorf("openapi: field type %s is not supported by the schema generator", t)
	}
}

// jsonName reads a field's `json` tag the way encoding/json does.
func jsonName(f reflect.StructField) (name string, omitEmpty, skip bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, true
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	for _, o := range strings.Split(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			omitEmpty = true
		}
	}
	return name, omitEmpty, false
}
