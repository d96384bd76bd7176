package ingress

import "testing"

func TestAcceptsGzip(t *testing.T) {
	cases := map[string]bool{
		"":                      false,
		"gzip":                  true,
		"GZIP":                  true,
		"x-gzip":                true,
		"deflate, gzip;q=0.5":   true,
		"gzip;q=0":              false,
		"gzip; q=0.000":         false,
		"*":                     true,
		"*;q=0":                 false,
		"gzip;q=0, *":           false,
		"br, *;q=0.1":           true,
		"identity":              false,
		"gzip;q=bogus":          false,
		"gzip;level=1":          true,
		"deflate , gzip ;q=1.0": true,
	}
	for header, want := range cases {
		var lines []string
		if header != "" {
			lines = []string{header}
		}
		if got := acceptsGzip(lines); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
	if !acceptsGzip([]string{"br", "gzip"}) {
		t.Error("gzip on a second Accept-Encoding line not seen")
	}
}
