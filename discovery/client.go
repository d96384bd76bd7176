package discovery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docweave/docweave/gitx"
	"github.com/docweave/docweave/version"
)

// maxBody caps one API response; a listing page of 100 repositories is a
// few hundred kilobytes.
const maxBody = 32 << 20

// errNotFound is a 404: an organisation that is a user, a path that does
// not exist.
var errNotFound = errors.New("not found")

// apiError is an answer the forge gave that is not a success.
type apiError struct {
	Status int
	URL    string // without query
	Body   string // the start of the body, for the message
}

func (e *apiError) Error() string {
	msg := fmt.Sprintf("%s answered %d", e.URL, e.Status)
	switch e.Status {
	case http.StatusUnauthorized:
		msg += " (credentials missing or refused)"
	case http.StatusForbidden:
		msg += " (forbidden: the credentials lack a permission, or a rate limit)"
	}
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// Is makes a 404 errors.Is(err, errNotFound).
func (e *apiError) Is(target error) bool {
	return target == errNotFound && e.Status == http.StatusNotFound
}

// transient reports whether trying again later may help.
func (e *apiError) transient() bool {
	return e.Status >= 500 || e.Status == http.StatusTooManyRequests || e.Status == http.StatusRequestTimeout
}

// rateLimitedError says the forge's rate limit is exhausted until a time
// later than the scanner is willing to wait.
type rateLimitedError struct {
	Until time.Time
}

func (e *rateLimitedError) Error() string {
	return fmt.Sprintf("rate limit exhausted until %s", e.Until.UTC().Format(time.RFC3339))
}

// client makes a forge's API requests: it authenticates them, follows
// pagination, respects the rate-limit headers, retries transient failures
// with the build's retry policy and counts every request it sends.
type client struct {
	http     *http.Client
	auth     func(*http.Request)
	headers  map[string]string
	retry    gitx.RetryPolicy
	maxWait  time.Duration
	requests atomic.Int64
	now      func() time.Time
	sleep    func(context.Context, time.Duration) error

	mu        sync.Mutex
	remaining int       // -1: unknown
	resetAt   time.Time // when the window refills
	blocked   time.Time // no request before (Retry-After)
}

func newClient(hc *http.Client, retry gitx.RetryPolicy, maxWait time.Duration) *client {
	// Credentials go to the forge's host only: a redirect elsewhere is
	// refused (Go drops Authorization on such redirects, but not GitLab's
	// PRIVATE-TOKEN header).
	own := *hc
	own.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if !sameOrigin(req.URL, via[0].URL) {
			return fmt.Errorf("refusing to follow a redirect from %s to another host, %s", via[0].URL.Host, req.URL.Host)
		}
		return nil
	}
	return &client{http: &own, retry: retry, maxWait: maxWait, remaining: -1, now: time.Now, sleep: sleepCtx, headers: map[string]string{}}
}

// sameOrigin reports whether two URLs have the same scheme and host.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// getJSON fetches one resource into out and returns the next page's URL
// from the Link header ("" on the last page).
func (c *client) getJSON(ctx context.Context, rawURL string, out any) (next string, err error) {
	resp, body, err := c.do(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return "", err
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return "", fmt.Errorf("%s: undecodable answer: %w", stripQuery(rawURL), err)
		}
	}
	next = nextLink(resp.Header.Get("Link"), rawURL)
	if next != "" {
		cur, _ := url.Parse(rawURL)
		n, err := url.Parse(next)
		if err != nil || cur == nil || !sameOrigin(cur, n) {
			return "", fmt.Errorf("%s: the next page is on another host (%s); not sending credentials there", stripQuery(rawURL), stripQuery(next))
		}
	}
	return next, nil
}

// postJSON sends in as JSON and decodes the answer into out (may be nil).
func (c *client) postJSON(ctx context.Context, rawURL string, in, out any) error {
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	_, body, err := c.do(ctx, http.MethodPost, rawURL, data)
	if err != nil {
		return err
	}
	if out != nil && len(body) > 0 {
		return json.Unmarshal(body, out)
	}
	return nil
}

// resetMargin is added to a rate-limit window's announced reset: the
// forge's clock and ours differ, and a request sent a moment early is
// refused and costs another wait.
const resetMargin = 500 * time.Millisecond

// maxRateWaits bounds how often one request waits for the rate limit.
const maxRateWaits = 10

// do sends one request, waiting for the rate limit first and retrying
// transient failures (network errors, 5xx, 408, 429) with the retry
// policy, and answers the rate limit explains (429 or 403 with the window
// exhausted or a Retry-After) after waiting for it.
func (c *client) do(ctx context.Context, method, rawURL string, payload []byte) (*http.Response, []byte, error) {
	failures, rateWaits := 0, 0
	for {
		if err := c.awaitRate(ctx); err != nil {
			return nil, nil, err
		}
		resp, body, err := c.once(ctx, method, rawURL, payload)
		if err == nil {
			return resp, body, nil
		}
		if ctx.Err() != nil {
			return nil, nil, err
		}
		var apiErr *apiError
		isAPI := errors.As(err, &apiErr)
		if isAPI && c.rateBlocked(resp) {
			if rateWaits++; rateWaits > maxRateWaits {
				return nil, nil, err
			}
			continue // awaitRate waits for the window, or gives up
		}
		if isAPI && !apiErr.transient() {
			return nil, nil, err
		}
		if failures++; failures > c.retry.MaxRetries {
			return nil, nil, err
		}
		if err := c.sleep(ctx, c.retry.Delay(failures)); err != nil {
			return nil, nil, err
		}
	}
}

// once sends one request and reads its answer.
func (c *client) once(ctx context.Context, method, rawURL string, payload []byte) (*http.Response, []byte, error) {
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, body)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("User-Agent", "docweave/"+version.String())
	req.Header.Set("Accept", "application/json")
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.auth != nil {
		c.auth(req)
	}
	c.requests.Add(1)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", method, stripQuery(rawURL), scrubURLError(err))
	}
	defer resp.Body.Close()
	c.observe(resp)
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return resp, nil, fmt.Errorf("%s %s: read answer: %w", method, stripQuery(rawURL), err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		snippet := strings.TrimSpace(string(data))
		if len(snippet) > 200 {
			snippet = snippet[:200] + "…"
		}
		return resp, nil, &apiError{Status: resp.StatusCode, URL: stripQuery(rawURL), Body: snippet}
	}
	return resp, data, nil
}

// observe records the rate-limit headers: GitHub's and Forgejo's
// X-RateLimit-Remaining/-Reset, GitLab's RateLimit-Remaining/-Reset (reset
// as epoch seconds), and Retry-After (seconds or an HTTP date) on any
// answer.
func (c *client) observe(resp *http.Response) {
	h := resp.Header
	c.mu.Lock()
	defer c.mu.Unlock()
	reset := c.resetAt
	if v := firstNonEmpty(h.Get("X-RateLimit-Reset"), h.Get("RateLimit-Reset")); v != "" {
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
			reset = time.Unix(n, 0)
		}
	}
	if v := firstNonEmpty(h.Get("X-RateLimit-Remaining"), h.Get("RateLimit-Remaining")); v != "" {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			// Answers to concurrent requests arrive in any order: within
			// one window the lowest count is the truest, since requests
			// reserved their share before they were sent.
			if !reset.Equal(c.resetAt) || c.remaining < 0 || n < c.remaining {
				c.remaining = n
			}
		}
	}
	c.resetAt = reset
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.Atoi(v); err == nil {
			c.blocked = c.now().Add(time.Duration(secs) * time.Second)
		} else if t, err := http.ParseTime(v); err == nil {
			c.blocked = t
		}
	}
}

// rateBlocked reports whether a refused answer is the rate limit speaking
// (429, or 403 with the window exhausted or a Retry-After).
func (c *client) rateBlocked(resp *http.Response) bool {
	if resp == nil {
		return false
	}
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusForbidden {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return resp.Header.Get("Retry-After") != "" || c.remaining == 0
}

// awaitRate waits until a request may be sent — past a Retry-After, and,
// when the window is exhausted, past its reset — and reserves the
// request's share of the window, so concurrent requests do not all spend
// the last one. A wait longer than maxWait fails with rateLimitedError
// instead, so a scan never stalls a build for an hour.
func (c *client) awaitRate(ctx context.Context) error {
	for {
		c.mu.Lock()
		now := c.now()
		if c.remaining == 0 && !now.Before(c.resetAt.Add(resetMargin)) {
			c.remaining = -1 // a new window; the next answer tells
		}
		until := c.blocked
		if reset := c.resetAt.Add(resetMargin); c.remaining == 0 && reset.After(until) {
			until = reset
		}
		wait := until.Sub(now)
		if wait <= 0 {
			if c.remaining > 0 {
				c.remaining--
			}
			c.mu.Unlock()
			return nil
		}
		c.mu.Unlock()
		if wait > c.maxWait {
			return &rateLimitedError{Until: until}
		}
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// nextLink returns the rel="next" target of a Link header, resolved
// against the request URL.
func nextLink(header, base string) string {
	for _, part := range strings.Split(header, ",") {
		target, params, ok := strings.Cut(strings.TrimSpace(part), ";")
		if !ok || !strings.Contains(params, `rel="next"`) {
			continue
		}
		target = strings.Trim(strings.TrimSpace(target), "<>")
		b, err := url.Parse(base)
		if err != nil {
			return target
		}
		u, err := b.Parse(target)
		if err != nil {
			return ""
		}
		return u.String()
	}
	return ""
}

// stripQuery drops the query of a URL for messages.
func stripQuery(raw string) string {
	u, _, _ := strings.Cut(raw, "?")
	return u
}

// scrubURLError keeps a *url.Error's cause but not its URL (which may carry
// a query); the caller names the URL itself.
func scrubURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
