package ingress

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
)

// Key is one API key with where it came from, so an error can say which
// key is wrong ("ingress.api_keys[1]", "keys.txt line 3") without ever
// printing the key.
type Key struct {
	Origin string
	Value  string
}

// String names the key without revealing it, so a Key that ends up in a
// log line or an error leaks nothing.
func (k Key) String() string { return k.Origin + " (redacted)" }

func (k Key) validate() error {
	switch {
	case k.Value == "":
		return fmt.Errorf("%s: API key is empty (is the variable it references set?)", k.Origin)
	case !isToken68(k.Value):
		return fmt.Errorf("%s: API key must consist of letters, digits and - . _ ~ + / (optionally ending in =), as sent after \"Bearer \"", k.Origin)
	}
	return nil
}

// KeysFromList labels keys from a configuration list; origin is the key's
// configuration name, e.g. "ingress.api_keys".
func KeysFromList(origin string, values []string) []Key {
	keys := make([]Key, len(values))
	for i, v := range values {
		keys[i] = Key{Origin: fmt.Sprintf("%s[%d]", origin, i), Value: v}
	}
	return keys
}

// ReadKeyFile reads API keys from a file, one per line; blank lines and
// lines starting with # are ignored and surrounding whitespace is trimmed,
// so a Kubernetes Secret or a hand-edited file both work.
func ReadKeyFile(path string) ([]Key, error) {
	lines, err := config.ReadAPIKeysFile(path)
	if err != nil {
		return nil, fmt.Errorf("ingress api_keys_file: %w", err)
	}
	keys := make([]Key, 0, len(lines))
	for _, l := range lines {
		keys = append(keys, Key{Origin: fmt.Sprintf("ingress api_keys_file %s line %d", path, l.Line), Value: l.Value})
	}
	return keys, nil
}

// KeySource is where the active keys come from: a fixed list from the
// configuration and, optionally, a file that is re-read when it changes,
// so keys can be rotated without a restart.
type KeySource struct {
	Static []Key
	File   string
}

// Load reads the keys once. At least one key is required: a service that
// starts with none would refuse every request, which is always a mistake.
func (s KeySource) Load() ([]Key, error) {
	keys := append([]Key(nil), s.Static...)
	if s.File != "" {
		fromFile, err := ReadKeyFile(s.File)
		if err != nil {
			return nil, err
		}
		keys = append(keys, fromFile...)
	}
	if len(keys) == 0 {
		return nil, errors.New("ingress: no API key configured; set ingress.api_keys or ingress.api_keys_file")
	}
	for _, k := range keys {
		if err := k.validate(); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// Watch re-reads the key file every interval while ctx lasts and replaces
// the keys in ks when its content changes. A file that cannot be read or
// holds an invalid key leaves the active keys as they are and is logged;
// a file emptied on purpose revokes its keys, even if none remain.
func (s KeySource) Watch(ctx context.Context, ks *KeySet, interval time.Duration, logger zerolog.Logger) {
	if s.File == "" {
		return
	}
	// No baseline: the first poll always applies the file, so a change made
	// between Load and Watch is not missed.
	var last []byte
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	var lastErr string
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		data, err := os.ReadFile(s.File)
		if err == nil && last != nil && bytes.Equal(data, last) {
			continue
		}
		keys, err := s.reload()
		if err != nil {
			if err.Error() != lastErr {
				logger.Error().Err(err).Msg("API keys not reloaded; the previous keys stay active")
				lastErr = err.Error()
			}
			continue
		}
		lastErr = ""
		if err := ks.Replace(keys); err != nil { // validated already; kept for safety
			logger.Error().Err(err).Msg("API keys not reloaded; the previous keys stay active")
			continue
		}
		last = data
		ev := logger.Info()
		if len(keys) == 0 {
			ev = logger.Error()
		}
		ev.Int("active_keys", len(keys)).Str("path", s.File).Msg("API keys reloaded")
	}
}

// reload reads the keys like Load but accepts an empty result, because
// emptying the file is how its keys are revoked.
func (s KeySource) reload() ([]Key, error) {
	fromFile, err := ReadKeyFile(s.File)
	if err != nil {
		return nil, err
	}
	keys := append(append([]Key(nil), s.Static...), fromFile...)
	for _, k := range keys {
		if err := k.validate(); err != nil {
			return nil, err
		}
	}
	return keys, nil
}
