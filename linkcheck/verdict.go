package linkcheck

import "time"

// Status is the kind of a verdict. Only Broken links are reported as
// broken; the others say why a link could not be confirmed either way.
type Status string

// Verdict statuses.
const (
	// StatusOK: the target exists (2xx, or a redirect when redirects are
	// not followed; for internal links, the file and fragment exist).
	StatusOK Status = "ok"
	// StatusBroken: the target does not exist (404, 410, other 4xx, an
	// unknown host, a redirect loop, too many redirects, a bad TLS
	// certificate, a missing file or fragment).
	StatusBroken Status = "broken"
	// StatusNeedsAuth: the server wants credentials (401, 403). The link
	// may well be fine for its readers, so it is not reported as broken.
	StatusNeedsAuth Status = "needs_auth"
	// StatusRateLimited: the server kept answering 429, or asked for a
	// wait longer than this run will make; it is rechecked next time.
	StatusRateLimited Status = "rate_limited"
	// StatusTransient: a timeout, a reset or refused connection or a 5xx
	// answer, still there after a retry; it is rechecked next time.
	StatusTransient Status = "transient"
	// StatusUnverifiable: the page answered, but whether it has the
	// link's #fragment cannot be told from its HTML (check_fragments): its
	// headings are made by scripts, it is no HTML page, or the fragment is
	// not in the part of a very large page read. Not broken.
	StatusUnverifiable Status = "unverifiable"
	// StatusSkipped: not checked (mailto: and other schemes, edit links
	// with skip_edit_links, internal links with verify_external_only).
	StatusSkipped Status = "skipped"
)

// Stable reason codes of verdicts, used in events and the report.
const (
	ReasonNotFound         = "not_found"
	ReasonGone             = "gone"
	ReasonClientError      = "client_error"
	ReasonDNS              = "dns"
	ReasonRedirectLoop     = "redirect_loop"
	ReasonTooManyRedirects = "too_many_redirects"
	ReasonTLS              = "tls"
	ReasonInvalidURL       = "invalid_url"
	ReasonMissingFile      = "missing_file"
	ReasonMissingFragment  = "missing_fragment"
	ReasonAuth             = "auth"
	ReasonRateLimited      = "rate_limited"
	ReasonTimeout          = "timeout"
	ReasonConnection       = "connection"
	ReasonServerError      = "server_error"
	ReasonScheme           = "scheme"
	ReasonEditLink         = "edit_link"
	ReasonInternalOff      = "internal_not_verified"
	// Reasons of unverifiable fragments of external pages.
	ReasonScriptedPage = "scripted_page"
	ReasonNotHTML      = "not_html"
	ReasonPageTooLarge = "page_too_large"
)

// Verdict is the outcome of checking one target.
type Verdict struct {
	Status Status `json:"status"`
	// Code is the HTTP status of the final answer (0 when there was none).
	Code   int    `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Error says what went wrong in words; empty when OK.
	Error string `json:"error,omitempty"`
	// FinalURL is where redirects led, when they led somewhere else.
	FinalURL string `json:"final_url,omitempty"`
}

// Cacheable reports whether the verdict may be reused by later runs, and
// for how long: successes and unverifiable fragments (whose pages will not
// change their making soon) for the success TTL, broken links and links that
// need authentication for the failure TTL. Transient and rate-limited
// verdicts are never reused — they say nothing about the next run.
func (v Verdict) Cacheable(success, failure time.Duration) (time.Duration, bool) {
	switch v.Status {
	case StatusOK, StatusUnverifiable:
		return success, success > 0
	case StatusBroken, StatusNeedsAuth:
		return failure, failure > 0
	default:
		return 0, false
	}
}

// verdictForStatus maps an HTTP status code that is not a redirect to a
// verdict.
func verdictForStatus(code int, status string) Verdict {
	v := Verdict{Code: code}
	switch {
	case code >= 200 && code < 300:
		v.Status = StatusOK
		return v
	case code == 401 || code == 403:
		v.Status, v.Reason = StatusNeedsAuth, ReasonAuth
	case code == 429:
		v.Status, v.Reason = StatusRateLimited, ReasonRateLimited
	case code == 404:
		v.Status, v.Reason = StatusBroken, ReasonNotFound
	case code == 410:
		v.Status, v.Reason = StatusBroken, ReasonGone
	case code >= 400 && code < 500:
		v.Status, v.Reason = StatusBroken, ReasonClientError
	default: // 5xx and anything unexpected (1xx, a 3xx without Location)
		v.Status, v.Reason = StatusTransient, ReasonServerError
	}
	v.Error = "HTTP " + status
	return v
}
