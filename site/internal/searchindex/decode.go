package searchindex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
)

// Decode reads the search index of a published site back into
// its entries, book after book, the way the theme's template wrote them:
// what the compact form holds, for tests and for checking a site.
func Decode(read func(rel string) ([]byte, error)) ([]json.RawMessage, error) {
	data, err := read(ManifestFile)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("search manifest: %w", err)
	}
	if m.Format != Format {
		return nil, fmt.Errorf("search manifest: format %d, want %d", m.Format, Format)
	}
	var out []json.RawMessage
	for _, ref := range m.Books {
		data, err := read(path.Join("search", ref.File))
		if err != nil {
			return nil, err
		}
		var book struct {
			Base     string              `json:"base"`
			Sections []string            `json:"sections"`
			Texts    []string            `json:"texts"`
			Pages    [][]json.RawMessage `json:"pages"`
		}
		if err := json.Unmarshal(data, &book); err != nil {
			return nil, fmt.Errorf("search book %s: %w", ref.File, err)
		}
		texts := make([][]string, len(book.Texts))
		for i, f := range book.Texts {
			data, err := read(path.Join("search", f))
			if err != nil {
				return nil, err
			}
			if err := json.Unmarshal(data, &texts[i]); err != nil {
				return nil, fmt.Errorf("search texts %s: %w", f, err)
			}
		}
		for _, p := range book.Pages {
			var title, rel string
			var sec int
			var tags []json.RawMessage
			var textRef []int
			if len(p) != 5 {
				return nil, fmt.Errorf("search book %s: a page of %d fields", ref.File, len(p))
			}
			for i, dst := range []any{&title, &rel, &sec, &tags, &textRef} {
				if err := json.Unmarshal(p[i], dst); err != nil {
					return nil, fmt.Errorf("search book %s: %w", ref.File, err)
				}
			}
			text := ""
			if textRef != nil {
				if len(textRef) != 2 || textRef[0] < 0 || textRef[0] >= len(texts) || textRef[1] < 0 || textRef[1] >= len(texts[textRef[0]]) {
					return nil, fmt.Errorf("search book %s: text %v out of range", ref.File, textRef)
				}
				text = texts[textRef[0]][textRef[1]]
			}
			if sec < 0 || sec >= len(book.Sections) {
				return nil, fmt.Errorf("search book %s: section %d of %d", ref.File, sec, len(book.Sections))
			}
			e := map[string]any{"title": title, "url": book.Base + rel, "repository": ref.Repository,
				"section": book.Sections[sec], "tags": tags, "text": text}
			if ref.Version != "" {
				e["version"], e["versionIsDefault"], e["versionRank"] = ref.Version, ref.VersionIsDefault, ref.VersionRank
			}
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(e); err != nil {
				return nil, err
			}
			out = append(out, bytes.TrimSpace(b.Bytes()))
		}
	}
	return out, nil
}
