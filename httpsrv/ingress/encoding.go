package ingress

import (
	"strconv"
	"strings"
)

// acceptsGzip reports whether Accept-Encoding (RFC 9110 §12.5.3) allows a
// gzip response: "gzip" (or the obsolete alias "x-gzip"), or "*", listed
// with a non-zero weight. An explicit gzip;q=0 wins over "*". A missing
// field means no preference, and we then send identity, which every client
// understands.
func acceptsGzip(fieldLines []string) bool {
	gzipQ, starQ := -1.0, -1.0
	for _, line := range fieldLines {
		for elem := range strings.SplitSeq(line, ",") {
			coding, params, _ := strings.Cut(elem, ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			q := qValue(params)
			switch coding {
			case "gzip", "x-gzip":
				gzipQ = max(gzipQ, q)
			case "*":
				starQ = max(starQ, q)
			}
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}

// qValue reads the weight from the parameters of a list element; no weight
// means 1 and an unreadable one means 0 (not acceptable).
func qValue(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || q < 0 || q > 1 {
			return 0
		}
		return q
	}
	return 1
}
