package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// Generic endpoint headers besides the signature.
const (
	// HeaderGenericDelivery is an optional caller-chosen ID for logs;
	// X-Request-Id is used when it is absent.
	HeaderGenericDelivery = "X-Docweave-Delivery"
	HeaderRequestID       = "X-Request-Id"
)

// maxReasonLength bounds GenericRequest.Reason, which ends up in the build
// report and the log.
const maxReasonLength = 500

// GenericRequest is the JSON body of POST /webhook, for CI jobs, scripts
// and forges without a dedicated endpoint. Every field is optional, but
// the body must be a JSON object ({} rebuilds everything); unknown fields
// are refused so a typo does not silently rebuild all repositories.
type GenericRequest struct {
	// Repositories are configured repository names; empty means all.
	Repositories []string `json:"repositories"`
	// Branch, when set, limits the build to repositories whose configured
	// branch is this one or that follow the remote's default branch
	// (which this endpoint cannot see).
	Branch string `json:"branch"`
	// Reason is a short note for the build report, at most 500 bytes.
	Reason string `json:"reason"`
}

// generic serves POST /webhook: X-Docweave-Signature-256 carries
// "sha256=" + hex HMAC-SHA256 of the body under generic_secret.
func (s *server) generic(r *http.Request) reply {
	_, delivery := firstHeader(r.Header, []string{HeaderGenericDelivery, HeaderRequestID})
	rep := s.genericRequest(r, delivery)
	rep.source, rep.delivery = SourceGeneric, delivery
	return rep
}

func (s *server) genericRequest(r *http.Request, delivery string) reply {
	body, rep, ok := readBody(r, s.maxBody)
	if !ok {
		return rep
	}
	if s.secrets.GenericSecret == "" {
		return unconfiguredRefusal(SourceGeneric, "daemon.webhooks.generic_secret")
	}
	if err := checkHMACHeader(r.Header, HeaderGenericSignature, true, s.secrets.GenericSecret, body); err != nil {
		return signatureRefusal(HeaderGenericSignature, "sha256=<64 hex digits of the HMAC-SHA256 of the body>", err)
	}
	req, err := decodeGenericRequest(body)
	if err != nil {
		return errorReply(http.StatusBadRequest, CodeInvalidPayload, err.Error())
	}
	repos, rep, ok := s.genericRepositories(req)
	if !ok {
		return rep
	}
	reason := req.Reason
	if reason == "" {
		reason = "generic webhook"
	}
	return s.fire(r, Trigger{
		Source:       SourceGeneric,
		Event:        "request",
		DeliveryID:   delivery,
		Repositories: repos,
		Branch:       req.Branch,
		Reason:       reason,
	})
}

// decodeGenericRequest parses and checks the body, naming the field at
// fault.
func decodeGenericRequest(body []byte) (GenericRequest, error) {
	const expected = `expected a JSON object like {"repositories": ["name"], "branch": "main", "reason": "..."}`
	var req GenericRequest
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return req, fmt.Errorf("empty body; %s", expected)
	}
	if trimmed[0] != '{' {
		return req, fmt.Errorf("body is not a JSON object; %s", expected)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, fmt.Errorf("body: %v; %s", err, expected)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return req, fmt.Errorf("body: data after the JSON object; %s", expected)
	}
	for i, name := range req.Repositories {
		if strings.TrimSpace(name) == "" {
			return req, fmt.Errorf("repositories[%d]: empty name; expected a configured repository name", i)
		}
	}
	if len(req.Reason) > maxReasonLength {
		return req, fmt.Errorf("reason: %d bytes; at most %d are allowed", len(req.Reason), maxReasonLength)
	}
	return req, nil
}

// genericRepositories resolves the request to configured repository
// names: unknown names are an error (400), a branch no repository follows
// is an ignored request (202).
func (s *server) genericRepositories(req GenericRequest) ([]string, reply, bool) {
	repos := s.matcher()
	candidates := repos.repos
	if len(req.Repositories) > 0 {
		candidates = nil
		for i, name := range req.Repositories {
			repo, found := repos.byName(name)
			if !found {
				return nil, errorReply(http.StatusBadRequest, CodeUnknownRepository,
					fmt.Sprintf("repositories[%d]: %q is not a configured repository; configured: %s",
						i, name, strings.Join(repos.names, ", "))), false
			}
			if !slices.ContainsFunc(candidates, func(c configuredRepo) bool { return c.name == name }) {
				candidates = append(candidates, repo)
			}
		}
	}
	var out []string
	for _, c := range candidates {
		if req.Branch == "" || c.branch == "" || c.branch == req.Branch {
			out = append(out, c.name)
		}
	}
	if len(out) == 0 {
		if len(candidates) == 0 {
			return nil, ignored("no repositories are configured"), false
		}
		return nil, ignored(fmt.Sprintf("no requested repository follows branch %q", req.Branch)), false
	}
	return out, reply{}, true
}
