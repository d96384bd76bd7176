package pages

import (
	"bytes"
	"encoding/json"

	"github.com/gohugoio/hugo/parser/metadecoders"
)

// frontMatterHead reads the front matter at the start of src without
// Hugo's page lexer, for the pass over every page's id and slug before
// the pages are prepared (the lexer reads the whole page, shortcodes and
// all, and each page is lexed once, when it is prepared): YAML between
// "---" lines, TOML between "+++" lines, or a JSON object. ok is false
// when src opens with none, or with one that cannot be decoded.
func frontMatterHead(src []byte) (map[string]any, bool) {
	s := bytes.TrimLeft(src, "\ufeff\t\n\v\f\r ")
	if len(s) == 0 {
		return nil, false
	}
	if s[0] == '{' {
		var fm map[string]any
		if err := json.NewDecoder(bytes.NewReader(s)).Decode(&fm); err != nil {
			return nil, false
		}
		return fm, true
	}
	var delim []byte
	format := metadecoders.YAML
	switch {
	case bytes.HasPrefix(s, []byte("---")):
		delim = []byte("---")
	case bytes.HasPrefix(s, []byte("+++")):
		delim, format = []byte("+++"), metadecoders.TOML
	default:
		return nil, false
	}
	first, rest, ok := bytes.Cut(s, []byte("\n"))
	if !ok || len(bytes.TrimRight(first, " \t\r")) != len(delim) {
		return nil, false
	}
	for off := 0; off < len(rest); {
		line, _, _ := bytes.Cut(rest[off:], []byte("\n"))
		if bytes.Equal(bytes.TrimRight(line, " \t\r"), delim) {
			fm, err := metadecoders.Default.UnmarshalToMap(rest[:off], format)
			return fm, err == nil
		}
		off += len(line) + 1
	}
	return nil, false
}
