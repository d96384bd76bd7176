package livereload

import (
	"encoding/json"
	"testing"
)

func TestEncodeFrameFormat(t *testing.T) {
	got, err := encodeFrame(EventReload, 7, map[string]string{"build_id": "b1"})
	if err != nil {
		t.Fatal(err)
	}
	want := "event: reload\nid: 7\ndata: {\"build_id\":\"b1\"}\n\n"
	if string(got) != want {
		t.Fatalf("frame %q, want %q", got, want)
	}
}

func TestFrameOfSplitsMultiLineData(t *testing.T) {
	got := string(frameOf("e", 1, []byte("{\n\"a\":1\r\n}")))
	want := "event: e\nid: 1\ndata: {\ndata: \"a\":1\ndata: }\n\n"
	if got != want {
		t.Fatalf("frame %q, want %q", got, want)
	}
}

func TestEncodeDataRejectsBadNamesAndData(t *testing.T) {
	for _, name := range []string{"", "a\nb", "a\rb"} {
		if _, err := encodeData(name, 1); err == nil {
			t.Errorf("encodeData(%q) accepted", name)
		}
	}
	if _, err := encodeData("ok", func() {}); err == nil {
		t.Error("encodeData accepted a function as data")
	}
}

func TestBuildIDOf(t *testing.T) {
	r := Reload{BuildID: "s"}
	cases := []struct {
		data any
		want string
	}{
		{r, "s"},
		{&r, "s"},
		{(*Reload)(nil), ""},
		{map[string]any{"build_id": "m", "pages": 3}, "m"},
		{json.RawMessage(`{"build_id":"raw"}`), "raw"},
		{"a string", ""},
		{nil, ""},
	}
	for _, c := range cases {
		if got := buildIDOf(c.data); got != c.want {
			t.Errorf("buildIDOf(%#v) = %q, want %q", c.data, got, c.want)
		}
	}
}
