package ingress

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"

	"github.com/docweave/docweave/ingress"
)

// The OpenAPI document is generated at start-up from the same Go types the
// handlers encode (ingress.HostsList, Error) and from the status table
// below, which the handlers use too; nothing in it is hand-kept JSON.

// OpenAPIVersion is the version of the OpenAPI specification the document
// follows.
const OpenAPIVersion = "3.1.0"

// APIVersion is the version of this interface, the /v1 of its paths.
const APIVersion = "1"

// Paths of the interface.
const (
	PathIngresses = "/v1/ingresses"
	PathOpenAPI   = "/openapi.json"
)

// Header descriptions shared by the document and the handlers.
const (
	etagHeaderDoc = "Strong validator of the listing, derived from the resourceVersions of the objects behind it and from the body. " +
		"Send it back in If-None-Match to revalidate. Each content coding (identity, gzip) has its own tag."
	cacheControlHeaderDoc = "Caching policy: no-store unless the deployment configures another value."
)

// openAPIDocument is the document root, with just the fields we emit.
type openAPIDocument struct {
	OpenAPI           string              `json:"openapi"`
	JSONSchemaDialect string              `json:"jsonSchemaDialect"`
	Info              openAPIInfo         `json:"info"`
	Paths             map[string]pathItem `json:"paths"`
	Components        components          `json:"components"`
}

type openAPIInfo struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description"`
}

type pathItem struct {
	Get *operation `json:"get,omitempty"`
}

type operation struct {
	OperationID string                `json:"operationId"`
	Summary     string                `json:"summary"`
	Description string                `json:"description,omitempty"`
	Security    []map[string][]string `json:"security"`
	Parameters  []parameter           `json:"parameters,omitempty"`
	Responses   map[string]response   `json:"responses"`
}

type parameter struct {
	Name        string  `json:"name"`
	In          string  `json:"in"`
	Required    bool    `json:"required"`
	Description string  `json:"description"`
	Schema      *Schema `json:"schema"`
}

type response struct {
	Description string               `json:"description"`
	Headers     map[string]header    `json:"headers,omitempty"`
	Content     map[string]mediaType `json:"content,omitempty"`
}

type header struct {
	Description string  `json:"description"`
	Required    bool    `json:"required,omitempty"`
	Schema      *Schema `json:"schema"`
}

type mediaType struct {
	Schema *Schema `json:"schema"`
}

type components struct {
	Schemas         map[string]*Schema        `json:"schemas"`
	SecuritySchemes map[string]securityScheme `json:"securitySchemes"`
}

type securityScheme struct {
	Type        string `json:"type"`
	Scheme      string `json:"scheme"`
	Description string `json:"description"`
}

// bearerSchemeName is the security scheme's name in the document.
const bearerSchemeName = "bearerAuth"

// listResponse describes one status of GET /v1/ingresses: the type of its
// body (nil for none) and the headers it carries.
type listResponse struct {
	status      int
	description string
	body        reflect.Type
	headers     []string
}

// listResponses is the status table of GET /v1/ingresses, used by the
// document and checked against the handler by the tests, which validate
// every live response against the served document.
var listResponses = []listResponse{
	{http.StatusOK, "The listing. Hosts are ordered by host, paths by path.", reflect.TypeFor[ingress.HostsList](), []string{"ETag", "Cache-Control"}},
	{http.StatusNotModified, "If-None-Match matched the current ETag (or was *); no body.", nil, []string{"ETag", "Cache-Control"}},
	{http.StatusUnauthorized, "Authorization missing, malformed, or not an active API key.", reflect.TypeFor[Error](), []string{"WWW-Authenticate"}},
	{http.StatusInternalServerError, "Internal failure.", reflect.TypeFor[Error](), nil},
	{http.StatusServiceUnavailable, "The source has not produced a first listing yet (see /ready); retry later.", reflect.TypeFor[Error](), []string{"Retry-After"}},
}

var headerDocs = map[string]header{
	"ETag":             {Description: etagHeaderDoc, Required: true, Schema: &Schema{Type: "string"}},
	"Cache-Control":    {Description: cacheControlHeaderDoc, Required: true, Schema: &Schema{Type: "string"}},
	"WWW-Authenticate": {Description: `Bearer challenge, e.g. Bearer realm="docweave-ingress", error="invalid_token".`, Required: true, Schema: &Schema{Type: "string"}},
	"Retry-After":      {Description: "Seconds after which to retry.", Required: true, Schema: &Schema{Type: "string"}},
}

var openAPIETagHeader = header{Description: "Strong validator of this description.", Required: true, Schema: &Schema{Type: "string"}}

// BuildOpenAPI generates the OpenAPI 3.1 description of the interface and
// returns it encoded as JSON.
func BuildOpenAPI() ([]byte, error) {
	gen := newSchemaGenerator()
	responses := map[string]response{}
	for _, lr := range listResponses {
		r := response{Description: lr.description}
		if lr.body != nil {
			ref, err := gen.ref(lr.body)
			if err != nil {
				return nil, err
			}
			r.Content = map[string]mediaType{"application/json": {Schema: ref}}
		}
		for _, name := range lr.headers {
			h, ok := headerDocs[name]
			if !ok {
				return nil, fmt.Errorf("openapi: header %s has no description", name)
			}
			if r.Headers == nil {
				r.Headers = map[string]header{}
			}
			r.Headers[name] = h
		}
		responses[strconv.Itoa(lr.status)] = r
	}

	doc := openAPIDocument{
		OpenAPI:           OpenAPIVersion,
		JSONSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
		Info: openAPIInfo{
			Title:   "docweave ingress listing",
			Version: APIVersion,
			Description: "Lists the ingress hosts and paths of a cluster with a reachability value for each, " +
				"derived passively from the EndpointSlices of the backend Services. " +
				"GET /v1/ingresses needs an API key as a bearer token; this description, /health, /ready and /metrics do not.",
		},
		Paths: map[string]pathItem{
			PathIngresses: {Get: &operation{
				OperationID: "listIngresses",
				Summary:     "List ingress hosts and paths with their reachability",
				Description: "Returns the HostsList, ordered by (host, path). Revalidate with If-None-Match: " +
					"the answer is 304 without a body while the ETag is unchanged. Responses are gzip-encoded when the client accepts it.",
				Security: []map[string][]string{{bearerSchemeName: {}}},
				Parameters: []parameter{{
					Name: "If-None-Match", In: "header", Required: false,
					Description: "ETags received earlier (a comma-separated list, W/ tags compared weakly), or *.",
					Schema:      &Schema{Type: "string"},
				}},
				Responses: responses,
			}},
			PathOpenAPI: {Get: &operation{
				OperationID: "getOpenAPI",
				Summary:     "This OpenAPI description (no authentication needed)",
				Security:    []map[string][]string{},
				Responses: map[string]response{
					"200": {
						Description: "The OpenAPI 3.1 description of this interface.",
						Headers:     map[string]header{"ETag": openAPIETagHeader},
						Content:     map[string]mediaType{"application/json": {Schema: &Schema{Type: "object"}}},
					},
					"304": {
						Description: "If-None-Match matched; the description is unchanged.",
						Headers:     map[string]header{"ETag": openAPIETagHeader},
					},
				},
			}},
		},
		Components: components{
			Schemas: gen.components,
			SecuritySchemes: map[string]securityScheme{bearerSchemeName: {
				Type: "http", Scheme: "bearer",
				Description: "An API key configured in ingress.api_keys or ingress.api_keys_file, sent as Authorization: Bearer <key>.",
			}},
		},
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("openapi: encode: %w", err)
	}
	return append(out, '\n'), nil
}
