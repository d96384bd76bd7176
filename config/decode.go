package config

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// aliasesByParent lists, per key path of a section, the alias names that
// may be written instead of a canonical key in that section.
var aliasesByParent = map[string]map[string]string{
	"":                         {"hugo": "generator"},
	"daemon.link_verification": {"nats_url": "broker_url"},
}

var durationType = reflect.TypeOf(time.Duration(0))

// decoder copies a parsed YAML tree onto a Config that already holds the
// defaults. It does the work mapstructure would do, but reports every
// unknown key and wrong type as a Problem with its key path instead of
// stopping at the first, and it expands ${VAR} references in every string
// on the way. A value with a problem is left at its default.
type decoder struct {
	lookup   envLookup
	problems problemList
	// present records the key paths the file set to a non-null value,
	// after aliases are resolved to their canonical names.
	present map[string]bool
}

func newDecoder(lookup envLookup) *decoder {
	return &decoder{lookup: lookup, present: map[string]bool{}}
}

// value decodes raw into v according to v's type and reports whether it
// stored anything.
func (d *decoder) value(path string, raw any, v reflect.Value) bool {
	t := v.Type()
	switch {
	case t == durationType:
		return d.duration(path, raw, v)
	case t.Kind() == reflect.String:
		return d.str(path, raw, v)
	case t.Kind() == reflect.Bool:
		return d.boolean(path, raw, v)
	case t.Kind() == reflect.Int:
		return d.integer(path, raw, v)
	case t.Kind() == reflect.Pointer:
		elem := reflect.New(t.Elem())
		if !d.value(path, raw, elem.Elem()) {
			return false
		}
		v.Set(elem)
		return true
	case t.Kind() == reflect.Slice:
		return d.list(path, raw, v)
	case t.Kind() == reflect.Map && t.Elem().Kind() == reflect.String:
		return d.stringMap(path, raw, v)
	case t.Kind() == reflect.Map:
		return d.anyMap(path, raw, v)
	case t.Kind() == reflect.Struct:
		return d.structure(path, raw, v)
	}
	d.problems.add(path, "cannot be set from a configuration file (internal type %s)", t)
	return false
}

// structure decodes a mapping onto a struct, field by mapstructure tag.
func (d *decoder) structure(path string, raw any, v reflect.Value) bool {
	m, ok := raw.(map[string]any)
	if !ok {
		d.wrongType(path, raw, "a mapping of keys")
		return false
	}
	m = d.resolveAliases(path, m)
	fields := structFields(v.Type())
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	for alias := range aliasesByParent[path] {
		names = append(names, alias)
	}
	sort.Strings(names)
	for _, key := range sortedKeys(m) {
		child := joinKey(path, key)
		index, known := fields[key]
		if !known {
			d.unknownKey(child, key, names)
			continue
		}
		if m[key] == nil {
			continue
		}
		d.present[child] = true
		d.value(child, m[key], v.Field(index))
	}
	return true
}

// resolveAliases returns m with alias keys renamed to their canonical key,
// reporting a problem when both spellings are set.
func (d *decoder) resolveAliases(path string, m map[string]any) map[string]any {
	aliases := aliasesByParent[path]
	if len(aliases) == 0 {
		return m
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	for alias, canonical := range aliases {
		value, hasAlias := out[alias]
		if !hasAlias {
			continue
		}
		delete(out, alias)
		if value == nil {
			continue
		}
		if out[canonical] != nil {
			d.problems.add(joinKey(path, alias), "is an alias of %s, which is also set; set only one of %s and %s",
				joinKey(path, canonical), alias, canonical)
			continue
		}
		out[canonical] = value
	}
	return out
}

func (d *decoder) unknownKey(path, key string, known []string) {
	if sections := sectionsWithKey(path, key); len(sections) > 0 && len(sections) <= 3 {
		d.problems.add(path, "%s", misplacedMessage(key, sections))
		return
	}
	if s := suggest(key, known); s != "" {
		d.problems.add(path, "unknown key; did you mean %q?", s)
		return
	}
	d.problems.add(path, "unknown key; expected one of: %s", strings.Join(known, ", "))
}

// list decodes a YAML sequence into a slice, replacing any default.
func (d *decoder) list(path string, raw any, v reflect.Value) bool {
	items, ok := raw.([]any)
	if !ok {
		d.wrongType(path, raw, expectedName(v.Type()))
		return false
	}
	out := reflect.MakeSlice(v.Type(), 0, len(items))
	for i, item := range items {
		elem := reflect.New(v.Type().Elem()).Elem()
		itemPath := fmt.Sprintf("%s[%d]", path, i)
		if item == nil {
			d.wrongType(itemPath, item, expectedName(elem.Type()))
		} else {
			d.value(itemPath, item, elem)
		}
		out = reflect.Append(out, elem)
	}
	v.Set(out)
	return true
}

// stringMap merges a mapping into a map of strings (generator.taxonomies):
// pairs are added to the defaults, and an empty or null value removes one.
func (d *decoder) stringMap(path string, raw any, v reflect.Value) bool {
	m, ok := raw.(map[string]any)
	if !ok {
		d.wrongType(path, raw, "a mapping of names to strings")
		return false
	}
	out := map[string]string{}
	for k, val := range v.Interface().(map[string]string) {
		out[k] = val
	}
	for _, key := range sortedKeys(m) {
		child := joinKey(path, key)
		var s string
		if m[key] != nil && !d.str(child, m[key], reflect.ValueOf(&s).Elem()) {
			continue
		}
		if s == "" {
			delete(out, key)
			continue
		}
		out[key] = s
	}
	v.Set(reflect.ValueOf(out))
	return true
}

// anyMap merges a free-form mapping (generator.params), expanding ${VAR}
// references in every string inside it.
func (d *decoder) anyMap(path string, raw any, v reflect.Value) bool {
	m, ok := raw.(map[string]any)
	if !ok {
		d.wrongType(path, raw, "a mapping")
		return false
	}
	out := map[string]any{}
	if !v.IsNil() {
		for k, val := range v.Interface().(map[string]any) {
			out[k] = val
		}
	}
	for _, key := range sortedKeys(m) {
		out[key] = d.freeForm(joinKey(path, key), m[key])
	}
	v.Set(reflect.ValueOf(out))
	return true
}

// freeForm copies an untyped value, expanding strings and normalising maps.
func (d *decoder) freeForm(path string, raw any) any {
	switch x := raw.(type) {
	case string:
		s, err := expandEnv(x, d.lookup)
		if err != nil {
			d.problems.add(path, "%s", err)
			return x
		}
		return s
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = d.freeForm(fmt.Sprintf("%s[%d]", path, i), item)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range sortedKeys(x) {
			out[k] = d.freeForm(joinKey(path, k), x[k])
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			ks := fmt.Sprint(k)
			out[ks] = d.freeForm(joinKey(path, ks), val)
		}
		return out
	}
	return raw
}

func (d *decoder) str(path string, raw any, v reflect.Value) bool {
	s, ok := raw.(string)
	if !ok {
		d.wrongType(path, raw, "a string (quote the value if it looks like a number or boolean)")
		return false
	}
	expanded, ok := d.expand(path, s)
	if !ok {
		return false
	}
	v.SetString(expanded)
	return true
}

func (d *decoder) boolean(path string, raw any, v reflect.Value) bool {
	switch x := raw.(type) {
	case bool:
		v.SetBool(x)
		return true
	case string:
		s, ok := d.expand(path, x)
		if !ok {
			return false
		}
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			d.wrongType(path, s, "a boolean (true or false)")
			return false
		}
		v.SetBool(b)
		return true
	}
	d.wrongType(path, raw, "a boolean (true or false)")
	return false
}

func (d *decoder) integer(path string, raw any, v reflect.Value) bool {
	const expected = "an integer"
	var n int64
	switch x := raw.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case uint64:
		if x > math.MaxInt64 {
			d.wrongType(path, raw, expected+" within range")
			return false
		}
		n = int64(x)
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			d.wrongType(path, raw, expected)
			return false
		}
		n = int64(x)
	case string:
		s, ok := d.expand(path, x)
		if !ok {
			return false
		}
		parsed, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			d.wrongType(path, s, expected)
			return false
		}
		n = parsed
	default:
		d.wrongType(path, raw, expected)
		return false
	}
	if v.OverflowInt(n) {
		d.wrongType(path, raw, expected+" within range")
		return false
	}
	v.SetInt(n)
	return true
}

// durationExpected is how every duration problem describes a valid value.
const durationExpected = "a duration such as 100ms, 15s, 30m or 24h"

func (d *decoder) duration(path string, raw any, v reflect.Value) bool {
	switch x := raw.(type) {
	case string:
		s, ok := d.expand(path, x)
		if !ok {
			return false
		}
		parsed, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil {
			d.problems.add(path, "malformed duration %q; expected %s", s, durationExpected)
			return false
		}
		v.SetInt(int64(parsed))
		return true
	case int:
		if x == 0 {
			v.SetInt(0)
			return true
		}
	}
	d.wrongType(path, raw, durationExpected+" (a number needs a unit)")
	return false
}

// expand applies ${VAR} expansion to one string, reporting failures.
func (d *decoder) expand(path, s string) (string, bool) {
	out, err := expandEnv(s, d.lookup)
	if err != nil {
		d.problems.add(path, "%s", err)
		return "", false
	}
	return out, true
}

func (d *decoder) wrongType(path string, raw any, expected string) {
	d.problems.add(path, "wrong type: got %s; expected %s", describeValue(raw, isSecretKey(path)), expected)
}

// describeValue names a value's YAML type, and shows the value itself only
// when the key does not hold a secret.
func describeValue(raw any, secret bool) string {
	switch x := raw.(type) {
	case nil:
		return "null"
	case string:
		if secret {
			return "a string"
		}
		if len(x) > 60 {
			x = x[:57] + "..."
		}
		return fmt.Sprintf("string %q", x)
	case bool:
		if secret {
			return "a boolean"
		}
		return fmt.Sprintf("boolean %v", x)
	case int, int64, uint64, float64:
		if secret {
			return "a number"
		}
		return fmt.Sprintf("number %v", x)
	case []any:
		return "a list"
	case map[string]any, map[any]any:
		return "a mapping"
	}
	return fmt.Sprintf("a value of type %T", raw)
}

// isSecretKey reports whether a key path holds a credential whose value
// must never appear in a message.
func isSecretKey(path string) bool {
	if strings.HasPrefix(path, "ingress.api_keys[") {
		return true
	}
	last := path[strings.LastIndexByte(path, '.')+1:]
	return last == "token" || last == "password"
}

// expectedName describes a Go type in configuration words.
func expectedName(t reflect.Type) string {
	switch {
	case t == durationType:
		return durationExpected
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Bool:
		return "a boolean (true or false)"
	case t.Kind() == reflect.Int:
		return "an integer"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return "a list of strings"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		return "a list of mappings"
	case t.Kind() == reflect.Struct:
		return "a mapping of keys"
	case t.Kind() == reflect.Map:
		return "a mapping"
	}
	return t.String()
}

// structFields maps each configuration key of a struct to its field index.
func structFields(t reflect.Type) map[string]int {
	fields := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		name := keyName(t.Field(i))
		if name != "" {
			fields[name] = i
		}
	}
	return fields
}

// keyName is a field's configuration key, or "" when it has none.
func keyName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag, _, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
	if tag == "-" || tag == "" {
		return ""
	}
	return tag
}

func joinKey(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
