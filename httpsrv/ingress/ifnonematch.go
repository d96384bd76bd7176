package ingress

// ifNoneMatch evaluates the If-None-Match field (RFC 9110 §13.1.2) against
// the entity-tag of the selected representation. fieldLines are the raw
// header lines; several lines form one comma-separated list.
//
// It reports whether the condition is false — "*" or any listed tag
// matches by weak comparison (W/ prefixes ignored), so the server answers
// 304 — and whether the field was well formed. A malformed field is
// ignored, as the RFC allows, which means a full response: sending the body
// is always safe, claiming "not modified" on a guess is not.
//
// The scan allocates nothing, because revalidation is the hot path.
func ifNoneMatch(fieldLines []string, currentETag string) (match, valid bool) {
	if len(fieldLines) == 0 {
		return false, true
	}
	current := opaqueTag(currentETag)
	sawStar, sawTag := false, false
	for _, line := range fieldLines {
		i := 0
		for {
			// Skip OWS and empty list elements.
			for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == ',') {
				i++
			}
			if i == len(line) {
				break
			}
			var (
				tag string
				ok  bool
			)
			if line[i] == '*' {
				sawStar = true
				i++
			} else {
				tag, i, ok = scanEntityTag(line, i)
				if !ok {
					return false, false
				}
				sawTag = true
				if tag == current {
					match = true
				}
			}
			// After an element: OWS, then a comma or the end of the line.
			for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
				i++
			}
			if i < len(line) && line[i] != ',' {
				return false, false
			}
		}
	}
	if sawStar {
		// "*" must stand alone; with a current representation it matches.
		if sawTag {
			return false, false
		}
		return true, true
	}
	return match, true
}

// scanEntityTag reads one entity-tag ([W/] DQUOTE *etagc DQUOTE) at s[i:]
// and returns its opaque-tag (with quotes), the index after it, and whether
// it was well formed.
func scanEntityTag(s string, i int) (string, int, bool) {
	if i+1 < len(s) && s[i] == 'W' && s[i+1] == '/' {
		i += 2
	}
	if i >= len(s) || s[i] != '"' {
		return "", i, false
	}
	start := i
	i++
	for i < len(s) && s[i] != '"' {
		if !isETagChar(s[i]) {
			return "", i, false
		}
		i++
	}
	if i >= len(s) {
		return "", i, false // unterminated
	}
	i++
	return s[start:i], i, true
}

// isETagChar is etagc: %x21 / %x23-7E / obs-text (%x80-FF).
func isETagChar(c byte) bool {
	return c == 0x21 || (c >= 0x23 && c <= 0x7e) || c >= 0x80
}

// opaqueTag strips a weak prefix, for weak comparison.
func opaqueTag(etag string) string {
	if len(etag) >= 2 && etag[0] == 'W' && etag[1] == '/' {
		return etag[2:]
	}
	return etag
}
