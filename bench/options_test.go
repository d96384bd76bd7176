package bench

import (
	"strings"
	"testing"
)

func TestParseSizes(t *testing.T) {
	sizes, err := ParseSizes("20x50, 50X100")
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 2 || sizes[0] != (Size{20, 50}) || sizes[1] != (Size{50, 100}) || sizes[1].String() != "50x100" {
		t.Fatalf("%v", sizes)
	}
	for _, bad := range []string{"", "20", "0x5", "ax5", "20x-1"} {
		if _, err := ParseSizes(bad); err == nil || !strings.Contains(err.Error(), "REPOSxPAGES") {
			t.Errorf("ParseSizes(%q) = %v, want an error naming the format", bad, err)
		}
	}
}

func TestValidateNamesTheOption(t *testing.T) {
	o := QuickOptions()
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "binary") {
		t.Fatalf("no binary: %v", err)
	}
	o.Binary, o.FloorBinary = "/bin/true", "/bin/true"
	if err := o.Validate(); err != nil {
		t.Fatalf("quick options: %v", err)
	}
	o.Repeat = 0
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "repeat") {
		t.Fatalf("repeat 0: %v", err)
	}
	o = DefaultOptions()
	o.Binary, o.FloorBinary = "/bin/true", "/bin/true"
	if o.Repeat < 5 || len(o.Sizes) != 2 || o.DaemonBuilds != 20 {
		t.Fatalf("default options do not match the issue: %+v", o)
	}
	o.Sizes = []Size{{Repos: 0, Pages: 3}}
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "size 0x3") {
		t.Fatalf("bad size: %v", err)
	}
}
