package ingress

import (
	"reflect"
	"strings"

	"github.com/swaggest/jsonschema-go"
)

// The response types document themselves without knowing the generator:
// string types with a closed set of values implement enumerated, types
// with a description implement described, and fields carry their
// description in a `doc` tag. schemaConventions teaches swaggest's
// reflector these conventions and encoding/json's: a field without
// omitempty is always sent, so it is required, and a slice is sent as an
// array (the handlers never send null).

// enumerated is implemented by string types with a closed set of values.
type enumerated interface{ EnumValues() []string }

// described is implemented by types that document themselves.
type described interface{ SchemaDescription() string }

// schemaConventions are the reflector options that apply them.
func schemaConventions() []func(*jsonschema.ReflectContext) {
	return []func(*jsonschema.ReflectContext){
		// A component is named after its Go type alone (HostsList, not
		// IngressHostsList).
		jsonschema.InterceptDefName(func(t reflect.Type, defaultName string) string {
			if t.Name() != "" {
				return t.Name()
			}
			return defaultName
		}),
		jsonschema.InterceptSchema(func(p jsonschema.InterceptSchemaParams) (bool, error) {
			if !p.Processed || !p.Value.IsValid() {
				return false, nil
			}
			v := p.Value.Interface()
			if d, ok := v.(described); ok && d.SchemaDescription() != "" {
				p.Schema.WithDescription(d.SchemaDescription())
			}
			if e, ok := v.(enumerated); ok {
				values := make([]any, 0, len(e.EnumValues()))
				for _, s := range e.EnumValues() {
					values = append(values, s)
				}
				p.Schema.WithEnum(values...)
			}
			return false, nil
		}),
		jsonschema.InterceptProp(func(p jsonschema.InterceptPropParams) error {
			if !p.Processed {
				return nil
			}
			if doc := p.Field.Tag.Get("doc"); doc != "" {
				p.PropertySchema.WithDescription(doc)
			}
			if !omitsEmpty(p.Field) {
				p.ParentSchema.Required = append(p.ParentSchema.Required, p.Name)
			}
			return nil
		}),
		jsonschema.InterceptNullability(func(p jsonschema.InterceptNullabilityParams) {
			if p.NullAdded {
				p.Schema.RemoveType(jsonschema.Null)
			}
		}),
	}
}

// omitsEmpty reports whether encoding/json leaves the field out when empty.
func omitsEmpty(f reflect.StructField) bool {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	for _, o := range strings.Split(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			return true
		}
	}
	return false
}
