package config

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	goyaml "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	yaml "go.yaml.in/yaml/v3"
)

// Position is where something sits in the configuration file: 1-based
// line and column.
type Position struct {
	Line, Column int
}

// String renders the position as line:column.
func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// Known reports whether the position was found.
func (p Position) Known() bool { return p.Line > 0 }

// SyntaxError is a configuration file that is not valid YAML, with the
// place the parser stopped at.
type SyntaxError struct {
	// File is the configuration file ("" for text given in code).
	File string
	Position
	Message string
	// Source is the offending line, and the one before it, for context.
	Source string
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File + ":")
	}
	if e.Known() {
		b.WriteString(e.Position.String() + ": ")
	} else if e.File != "" {
		b.WriteString(" ")
	}
	b.WriteString("invalid YAML: " + e.Message)
	if e.Source != "" {
		b.WriteString("\n" + e.Source)
	}
	return b.String()
}

// readYAML parses the configuration text: values exactly as YAML 1.2
// reads them (go.yaml.in/yaml/v3), keys lower-cased at every level
// (configuration keys are case-insensitive), null values kept so that an
// unknown key with no value is still reported, and the position of every
// key, by key path, so problems can point at the line.
func readYAML(data []byte, file string) (map[string]any, map[string]Position, error) {
	raw := map[string]any{}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, nil, syntaxError(data, file, err)
	}
	for k, v := range raw {
		delete(raw, k)
		raw[strings.ToLower(k)] = insensitive(v)
	}
	return raw, keyPositions(data), nil
}

// insensitive lower-cases the keys of every mapping inside v.
func insensitive(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[strings.ToLower(k)] = insensitive(val)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[strings.ToLower(fmt.Sprint(k))] = insensitive(val)
		}
		return out
	case []any:
		for i, item := range x {
			x[i] = insensitive(item)
		}
	}
	return v
}

var yamlV3Line = regexp.MustCompile(`^yaml: line (\d+): `)

// syntaxError locates a parse failure. go.yaml.in/yaml/v3 often reports
// the line where a block began rather than the one at fault (a key
// indented wrongly on line 4 is "line 1"), so the text is parsed again
// with goccy/go-yaml, whose errors carry the exact token.
func syntaxError(data []byte, file string, cause error) error {
	e := &SyntaxError{File: file, Message: strings.TrimPrefix(cause.Error(), "yaml: ")}
	_, perr := parser.ParseBytes(data, 0)
	var located goyaml.Error
	if perr != nil && errors.As(perr, &located) && located.GetToken() != nil {
		tk := located.GetToken()
		e.Line, e.Column = tk.Position.Line, tk.Position.Column
		e.Message = located.GetMessage()
	} else if m := yamlV3Line.FindStringSubmatch(cause.Error()); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Message = strings.TrimPrefix(cause.Error(), m[0])
	}
	aboutTab := strings.Contains(e.Message, "\t") || strings.Contains(strings.ToLower(e.Message), "tab")
	if line, col := tabIndent(data); line > 0 && (line == e.Line || (aboutTab && (e.Line == 0 || line <= e.Line))) {
		// The parsers' words for it ("found character '\t' that cannot
		// start any token", with the tab itself) do not say what to do.
		e.Line, e.Column = line, col
		e.Message = "this line is indented with a tab; YAML indents with spaces only: replace the tab with spaces"
	}
	if e.Line > 0 {
		e.Source = sourceLines(data, e.Line, e.Column)
		if strings.Contains(e.Message, "not allowed in this context") || strings.Contains(e.Message, "did not find expected") {
			e.Message += " (is this line indented like the keys it belongs with?)"
		}
	}
	return e
}

// tabIndent finds the first line whose indentation holds a tab, and the
// tab's column; 0, 0 when none does.
func tabIndent(data []byte) (line, column int) {
	for i, l := range strings.Split(string(data), "\n") {
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if c := strings.IndexByte(indent, '\t'); c >= 0 {
			return i + 1, c + 1
		}
	}
	return 0, 0
}

// sourceLines shows the line before and the line at fault, with a caret
// under the column.
func sourceLines(data []byte, line, column int) string {
	lines := strings.Split(string(data), "\n")
	if line > len(lines) {
		return ""
	}
	var b strings.Builder
	width := len(strconv.Itoa(line))
	if line > 1 {
		fmt.Fprintf(&b, "  %*d | %s\n", width, line-1, lines[line-2])
	}
	fmt.Fprintf(&b, "  %*d | %s", width, line, lines[line-1])
	if column > 0 {
		fmt.Fprintf(&b, "\n  %*s | %s^", width, "", strings.Repeat(" ", column-1))
	}
	return b.String()
}

// keyPositions maps every key path of the file (lower-cased, list items
// as [i]) to the position of its key, and every list item to its own
// position. A file the second parser cannot read has no positions; its
// problems are then reported without them.
func keyPositions(data []byte) map[string]Position {
	out := map[string]Position{}
	f, err := parser.ParseBytes(data, 0)
	if err != nil || len(f.Docs) == 0 {
		return out
	}
	walkPositions(f.Docs[0].Body, "", out)
	return out
}

func walkPositions(n ast.Node, path string, out map[string]Position) {
	switch x := n.(type) {
	case *ast.MappingNode:
		for _, v := range x.Values {
			walkPositions(v, path, out)
		}
	case *ast.MappingValueNode:
		if x.Key == nil || x.Key.IsMergeKey() {
			return
		}
		tk := x.Key.GetToken()
		if tk == nil {
			return
		}
		child := joinKey(path, strings.ToLower(tk.Value))
		if _, seen := out[child]; !seen {
			out[child] = Position{Line: tk.Position.Line, Column: tk.Position.Column}
		}
		walkPositions(x.Value, child, out)
	case *ast.SequenceNode:
		for i, item := range x.Values {
			itemPath := fmt.Sprintf("%s[%d]", path, i)
			if tk := item.GetToken(); tk != nil {
				out[itemPath] = Position{Line: tk.Position.Line, Column: tk.Position.Column}
			}
			walkPositions(item, itemPath, out)
		}
	case *ast.AnchorNode:
		walkPositions(x.Value, path, out)
	case *ast.TagNode:
		walkPositions(x.Value, path, out)
	}
}

// positionOf finds where a problem's key path sits in the file: the key
// itself, else the nearest enclosing key the file writes (a missing
// required key is reported at its section). Aliases are looked up under
// the spelling the file used.
func positionOf(key string, positions map[string]Position) (Position, bool) {
	for k := strings.ToLower(key); k != ""; k = parentKey(k) {
		for _, spelling := range spellings(k) {
			if p, ok := positions[spelling]; ok {
				return p, true
			}
		}
	}
	return Position{}, false
}

// spellings are the ways a canonical key path may be written in a file.
func spellings(key string) []string {
	out := []string{key}
	if rest, ok := strings.CutPrefix(key, "generator"); ok {
		out = append(out, "hugo"+rest)
	}
	if strings.HasPrefix(key, "daemon.link_verification.broker_url") {
		out = append(out, strings.Replace(key, "broker_url", "nats_url", 1))
	}
	return out
}

// parentKey drops the last element of a key path: a.b[2].c → a.b[2] →
// a.b → a.
func parentKey(key string) string {
	if strings.HasSuffix(key, "]") {
		if i := strings.LastIndexByte(key, '['); i > 0 {
			return key[:i]
		}
	}
	if i := strings.LastIndexByte(key, '.'); i > 0 {
		return key[:i]
	}
	return ""
}
