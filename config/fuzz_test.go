package config

import (
	"errors"
	"testing"
)

// FuzzLoad: any configuration text either loads — and then validates, so
// nothing it holds can crash or exhaust a process later — or fails with
// problems that name keys. It never panics. The seed corpus is in
// testdata/fuzz/FuzzLoad; the starter configuration is a seed too.
func FuzzLoad(f *testing.F) {
	f.Add(StarterYAML)
	f.Add([]byte(oneRepo + "build:\n  clone_concurrency: 2000000000\n  max_retries: 1e12\n"))
	f.Add([]byte(oneRepo + "daemon:\n  admin:\n    token: \"a b c\"\n  http: {limits: {max_connections: 0}}\n"))
	f.Add([]byte("repositories:\n  - {url: \"not a url\", name: x, paths: [\"../..\", \".git\"]}\n"))
	f.Add([]byte("hugo: {params: {themeVariant: 3, docweave: x}}\ngenerator: {title: y}\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, mode := range []Mode{ModeDirect, ModeDaemon, ModeIngress} {
			c, err := LoadBytes(data, dir, mode)
			if err != nil {
				var verr *ValidationError
				if errors.As(err, &verr) {
					for _, p := range verr.Problems {
						if p.Message == "" {
							t.Fatalf("problem without a message at %q", p.Key)
						}
					}
				}
				continue
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("loaded but does not validate: %v", err)
			}
			_ = c.Hash()
		}
	})
}
