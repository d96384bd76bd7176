package logging

import (
	"bytes"
	"encoding/json"
	"io"
)

// uniqueKeys writes JSON log lines with each top-level key once. zerolog
// appends fields as they come, so a field set both on a logger handed
// down and by the code it is handed to appears twice ("unit" did: once
// from the render stage, once from the site's unit render); a log store
// then keeps one of them, or rejects the line. The last value is kept —
// the one JSON readers (jq, encoding/json) already took — in the place of
// the first. A line that is not a JSON object passes unchanged.
type uniqueKeys struct{ w io.Writer }

func (u uniqueKeys) Write(p []byte) (int, error) {
	if fixed, ok := dedupe(p); ok {
		if _, err := u.w.Write(fixed); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return u.w.Write(p)
}

// dedupe returns the line rewritten when it repeats a top-level key.
func dedupe(line []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var keys []string
	values := map[string]json.RawMessage{}
	repeated := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		if _, seen := values[key]; seen {
			repeated = true
		} else {
			keys = append(keys, key)
		}
		values[key] = v
	}
	if !repeated {
		return nil, false
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteByte(':')
		b.Write(values[k])
	}
	b.WriteString("}\n")
	return b.Bytes(), true
}
