package linkcheck

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// maxDrainBytes is how much of a GET body is read so that the connection
// can be reused; a larger body is cut off instead.
const maxDrainBytes = 64 << 10

// httpChecker checks external URLs. It never follows redirects through the
// http.Client: it follows them itself, so that it can count them, detect a
// loop, and space each hop through the host limiter.
type httpChecker struct {
	opts     Options
	client   *http.Client
	limiter  *hostLimiter
	requests atomic.Int64
}

func newHTTPChecker(opts Options) *httpChecker {
	dialer := &net.Dialer{Timeout: opts.RequestTimeout, KeepAlive: 30 * time.Second, Resolver: opts.Resolver}
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4 * opts.MaxConcurrent,
		MaxIdleConnsPerHost:   opts.MaxConcurrent,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   opts.RequestTimeout,
		ExpectContinueTimeout: time.Second,
	}
	return &httpChecker{
		opts: opts,
		client: &http.Client{
			Transport:     transport,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		limiter: newHostLimiter(opts.RateLimitDelay, opts.Now),
	}
}

// close releases idle connections.
func (c *httpChecker) close() { c.client.CloseIdleConnections() }

// check gives one URL its verdict: HEAD first, and GET when the server
// answers HEAD with an error other than 429 (many refuse HEAD with 405 or
// 501, some with 403 or 404). With body (the site links to fragments of
// the page) it asks GET at once and reads the HTML's ids, which it
// returns with the verdict. For a 429 it also returns the wait the server
// asked for. An error means ctx was cancelled.
func (c *httpChecker) check(ctx context.Context, target string, body bool) (Verdict, *pageAnchors, time.Duration, error) {
	if body {
		return c.fetch(ctx, http.MethodGet, target, true)
	}
	v, _, wait, err := c.fetch(ctx, http.MethodHead, target, false)
	if err != nil || v.Code < 400 || v.Code == http.StatusTooManyRequests {
		return v, nil, wait, err
	}
	return c.fetch(ctx, http.MethodGet, target, false)
}

// fetch runs one method against target, following redirects when allowed.
func (c *httpChecker) fetch(ctx context.Context, method, target string, body bool) (Verdict, *pageAnchors, time.Duration, error) {
	current, err := url.Parse(target)
	if err != nil {
		return Verdict{Status: StatusBroken, Reason: ReasonInvalidURL, Error: err.Error()}, nil, 0, nil
	}
	visited := map[string]bool{current.String(): true}
	for hop := 0; ; hop++ {
		ans, err := c.request(ctx, method, current, body)
		if err != nil {
			if ctx.Err() != nil {
				return Verdict{}, nil, 0, ctx.Err()
			}
			return classifyError(err), nil, 0, nil
		}
		code := ans.code
		if code >= 300 && code < 400 && ans.location != "" {
			next, perr := current.Parse(ans.location)
			if perr != nil {
				return Verdict{Status: StatusBroken, Code: code, Reason: ReasonInvalidURL,
					Error: fmt.Sprintf("redirect to an invalid location %q", ans.location)}, nil, 0, nil
			}
			next.Fragment = ""
			if !c.opts.FollowRedirects {
				return Verdict{Status: StatusOK, Code: code, FinalURL: next.String()}, nil, 0, nil
			}
			if visited[next.String()] {
				return Verdict{Status: StatusBroken, Code: code, Reason: ReasonRedirectLoop, FinalURL: next.String(),
					Error: fmt.Sprintf("redirect loop: %s leads back to %s", current, next)}, nil, 0, nil
			}
			if hop >= c.opts.MaxRedirects {
				return Verdict{Status: StatusBroken, Code: code, Reason: ReasonTooManyRedirects, FinalURL: next.String(),
					Error: fmt.Sprintf("more than %d redirects (max_redirects)", c.opts.MaxRedirects)}, nil, 0, nil
			}
			visited[next.String()] = true
			current = next
			continue
		}
		v := verdictForStatus(code, ans.status)
		if hop > 0 {
			v.FinalURL = current.String()
		}
		var wait time.Duration
		if code == http.StatusTooManyRequests {
			wait = retryAfter(ans.header.Get("Retry-After"), c.opts.Now())
		}
		return v, ans.anchors, wait, nil
	}
}

// answer is what a verdict needs from one HTTP answer.
type answer struct {
	code             int
	status, location string
	header           http.Header
	// anchors are the ids of an HTML page read for its fragments.
	anchors *pageAnchors
}

// request sends one request, after the host's turn in the limiter, and
// returns what the verdict needs from the answer. With body, a successful
// HTML answer to GET is read, up to MaxPageBytes, for its ids; any other
// body is read no further than maxDrainBytes.
func (c *httpChecker) request(ctx context.Context, method string, u *url.URL, body bool) (answer, error) {
	if err := c.limiter.wait(ctx, u.Host); err != nil {
		return answer{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, method, u.String(), nil)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	c.requests.Add(1)
	resp, err := c.client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	ans := answer{code: resp.StatusCode, status: resp.Status, location: resp.Header.Get("Location"), header: resp.Header}
	switch {
	case method != http.MethodGet:
	case body && resp.StatusCode >= 200 && resp.StatusCode < 300 && isHTML(resp.Header.Get("Content-Type")):
		ans.anchors, err = scanAnchors(resp.Body, c.opts.MaxPageBytes)
		if err != nil {
			return answer{}, err
		}
	default:
		_, _ = io.CopyN(io.Discard, resp.Body, maxDrainBytes)
	}
	return ans, nil
}

// isHTML reports whether a Content-Type is an HTML page's (or is missing,
// as some servers leave it out).
func isHTML(contentType string) bool {
	mt, _, _ := strings.Cut(strings.ToLower(contentType), ";")
	mt = strings.TrimSpace(mt)
	return mt == "" || mt == "text/html" || mt == "application/xhtml+xml"
}

// classifyError turns a failed request into a verdict: an unknown host and
// a bad certificate are broken links; timeouts, resets, refused connections
// and temporary DNS failures are transient.
func classifyError(err error) Verdict {
	var dnsErr *net.DNSError
	var certInvalid x509.CertificateInvalidError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var verify *tls.CertificateVerificationError
	switch {
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return Verdict{Status: StatusBroken, Reason: ReasonDNS, Error: "no such host: " + dnsErr.Name}
	case errors.As(err, &dnsErr):
		return Verdict{Status: StatusTransient, Reason: ReasonDNS, Error: "DNS lookup failed: " + dnsErr.Err}
	case errors.As(err, &verify), errors.As(err, &certInvalid), errors.As(err, &unknownAuthority), errors.As(err, &hostname):
		return Verdict{Status: StatusBroken, Reason: ReasonTLS, Error: "TLS certificate not valid: " + unwrapURLError(err)}
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return Verdict{Status: StatusTransient, Reason: ReasonTimeout, Error: "timed out (request_timeout)"}
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return Verdict{Status: StatusTransient, Reason: ReasonConnection, Error: "connection failed: " + unwrapURLError(err)}
	default:
		return Verdict{Status: StatusTransient, Reason: ReasonConnection, Error: unwrapURLError(err)}
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// unwrapURLError drops the "Head \"https://…\": " prefix of *url.Error; the
// URL is reported beside the message anyway.
func unwrapURLError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	return err.Error()
}
