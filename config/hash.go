package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"time"
)

// hashVersion is written first into the hash input; bump it when the input
// layout changes so that old saved hashes stop matching.
const hashVersion = "docweave-config-hash/v1"

// Hash returns a SHA-256 hex digest of the configuration that affects the
// built site: repositories (including auth type), build, versioning,
// generator and output. Skip-if-unchanged compares it with the hash saved
// after the last build. Secrets (tokens, passwords, credentials embedded in
// URLs) enter only as their own digests, so rotating one changes the hash
// while neither the hash nor its input reveals it. Map order does not
// matter. Daemon ports, link verification and ingress do not affect the
// site and are left out.
func (c *Config) Hash() string {
	sum := sha256.Sum256(c.hashInput())
	return hex.EncodeToString(sum[:])
}

// AcquisitionHash is Hash of what decides the documentation trees alone:
// repositories, build and versioning, without the site settings
// (generator, output). While it stays the same, a build may reuse the
// trees of repositories still at their saved commits, even when the site
// settings changed — every unit is then rendered again from them.
func (c *Config) AcquisitionHash() string {
	sum := sha256.Sum256(c.hashInputOf(false))
	return hex.EncodeToString(sum[:])
}

// hashInput is the canonical text Hash digests; tests inspect it to prove
// that no secret appears in it.
func (c *Config) hashInput() []byte { return c.hashInputOf(true) }

func (c *Config) hashInputOf(withSite bool) []byte {
	repos := make([]any, len(c.Repositories))
	for i, r := range c.Repositories {
		repos[i] = repositoryHashView(r)
	}
	view := map[string]any{
		"repositories": repos,
		"forges":       forgesHashView(c.Forges),
		"build":        structView(reflect.ValueOf(c.Build)),
		"versioning":   structView(reflect.ValueOf(c.Versioning)),
	}
	if withSite {
		view["generator"] = structView(reflect.ValueOf(c.Generator))
		view["output"] = structView(reflect.ValueOf(c.Output))
	}
	var b bytes.Buffer
	b.WriteString(hashVersion)
	b.WriteByte('\n')
	writeCanonical(&b, view)
	return b.Bytes()
}

// repositoryHashView is a repository with every secret replaced by its
// digest.
func repositoryHashView(r Repository) map[string]any {
	view := structView(reflect.ValueOf(r))
	view["url"] = redactUserInfo(r.URL)
	if view["url"] != r.URL {
		view["url_credentials"] = secretDigest(r.URL)
	}
	if !r.OriginalSite.IsSet() {
		delete(view, "original_site") // a configuration without it hashes as before the key existed
	}
	auth := view["auth"].(map[string]any)
	auth["token"] = secretDigest(r.Auth.Token)
	auth["password"] = secretDigest(r.Auth.Password)
	return view
}

// secretDigest stands in for a secret in the hash input: it changes when
// the secret changes and is empty when the secret is.
func secretDigest(secret string) string {
	if secret == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("docweave-config-secret\x00" + secret))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// structView turns a configuration struct into a map keyed by its
// configuration keys, so new fields join the hash without code changes.
func structView(v reflect.Value) map[string]any {
	out := map[string]any{}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name := keyName(t.Field(i))
		if name == "" {
			continue
		}
		out[name] = plainValue(v.Field(i))
	}
	return out
}

// plainValue converts a field value into the types writeCanonical knows.
func plainValue(v reflect.Value) any {
	if v.Type() == durationType {
		return time.Duration(v.Int()).String()
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Struct:
		if len(structFields(v.Type())) == 0 {
			return v.Interface() // not a configuration struct (time.Time in params)
		}
		return structView(v)
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return plainValue(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = plainValue(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := map[string]any{}
		iter := v.MapRange()
		for iter.Next() {
			out[fmt.Sprint(iter.Key().Interface())] = plainValue(iter.Value())
		}
		return out
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plainValue(v.Elem())
	}
	return v.Interface()
}

// writeCanonical writes a JSON-like encoding with sorted map keys and typed
// scalars, so equal configurations always produce equal bytes.
func writeCanonical(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(strconv.Quote(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeCanonical(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, item)
		}
		b.WriteByte(']')
	default:
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Interface, reflect.String:
			writeCanonical(b, plainValue(rv))
		default:
			fmt.Fprintf(b, "%T(%v)", v, v)
		}
	}
}
