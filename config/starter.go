package config

import _ "embed"

// StarterYAML is the commented starter configuration `docweave init`
// writes: every section with its defaults and a comment on every key. A
// test loads it, so it always validates and matches Default().
//
//go:embed starter.yaml
var StarterYAML []byte
