package ingress

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"github.com/swaggest/openapi-go"
	"github.com/swaggest/openapi-go/openapi31"

	"github.com/docweave/docweave/ingress"
)

// The OpenAPI document is generated at start-up from the same Go types the
// handlers encode (ingress.HostsList, Error) and from the status table
// below, which the handlers use too; nothing in it is hand-kept JSON. The
// reflection is swaggest/openapi-go's; docs/ingress.md says why it was
// chosen over our own generator.

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

// headerDocs describes the response headers the table names; each is a
// required string.
var headerDocs = map[string]string{
	"ETag":             etagHeaderDoc,
	"Cache-Control":    cacheControlHeaderDoc,
	"WWW-Authenticate": `Bearer challenge, e.g. Bearer realm="docweave-ingress", error="invalid_token".`,
	"Retry-After":      "Seconds after which to retry.",
}

// openAPIETagDoc describes the ETag of /openapi.json itself.
const openAPIETagDoc = "Strong validator of this description."

// listRequest is what a client may send to GET /v1/ingresses besides its
// key (the security scheme documents Authorization).
type listRequest struct {
	IfNoneMatch string `header:"If-None-Match" description:"ETags received earlier (a comma-separated list, W/ tags compared weakly), or *."`
}

// BuildOpenAPI generates the OpenAPI 3.1 description of the interface and
// returns it encoded as JSON. swaggest/openapi-go reflects the Go types the
// handlers encode (schemaConventions keeps them described the way
// encoding/json sends them); the status table above adds what a type cannot
// say: each status's description and headers. The output is byte-stable, so
// the document's strong ETag changes only when the document does.
func BuildOpenAPI() ([]byte, error) {
	r := openapi31.NewReflector()
	r.JSONSchemaReflector().DefaultOptions = append(r.JSONSchemaReflector().DefaultOptions, schemaConventions()...)
	r.Spec.Info.
		WithTitle("docweave ingress listing").
		WithVersion(APIVersion).
		WithDescription("Lists the ingress hosts and paths of a cluster with a reachability value for each, " +
			"derived passively from the EndpointSlices of the backend Services. " +
			"GET /v1/ingresses needs an API key as a bearer token; this description, /health, /ready and /metrics do not.")
	r.Spec.WithJSONSchemaDialect("https://spec.openapis.org/oas/3.1/dialect/base")
	r.Spec.SetHTTPBearerTokenSecurity(bearerSchemeName, "", "An API key configured in ingress.api_keys or ingress.api_keys_file, sent as Authorization: Bearer <key>.")

	list, err := r.NewOperationContext(http.MethodGet, PathIngresses)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	list.SetID("listIngresses")
	list.SetSummary("List ingress hosts and paths with their reachability")
	list.SetDescription("Returns the HostsList, ordered by (host, path). Revalidate with If-None-Match: " +
		"the answer is 304 without a body while the ETag is unchanged. Responses are gzip-encoded when the client accepts it.")
	list.AddSecurity(bearerSchemeName)
	list.AddReqStructure(listRequest{})
	for _, lr := range listResponses {
		var body any
		if lr.body != nil {
			body = reflect.New(lr.body).Elem().Interface()
		}
		for _, name := range lr.headers {
			if _, ok := headerDocs[name]; !ok {
				return nil, fmt.Errorf("openapi: header %s has no description", name)
			}
		}
		list.AddRespStructure(body, openapi.WithHTTPStatus(lr.status), withResponse(lr.description, lr.headers, headerDocs))
	}
	if err := r.AddOperation(list); err != nil {
		return nil, fmt.Errorf("openapi: %s: %w", PathIngresses, err)
	}

	spec, err := r.NewOperationContext(http.MethodGet, PathOpenAPI)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	spec.SetID("getOpenAPI")
	spec.SetSummary("This OpenAPI description (no authentication needed)")
	etag := map[string]string{"ETag": openAPIETagDoc}
	spec.AddRespStructure(map[string]any{}, openapi.WithHTTPStatus(http.StatusOK),
		withResponse("The OpenAPI 3.1 description of this interface.", []string{"ETag"}, etag))
	spec.AddRespStructure(nil, openapi.WithHTTPStatus(http.StatusNotModified),
		withResponse("If-None-Match matched; the description is unchanged.", []string{"ETag"}, etag))
	if err := r.AddOperation(spec); err != nil {
		return nil, fmt.Errorf("openapi: %s: %w", PathOpenAPI, err)
	}
	// The description names no security requirement, and the document
	// has none of its own: it needs no key.
	out, err := json.MarshalIndent(r.Spec, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("openapi: encode: %w", err)
	}
	return append(out, '\n'), nil
}

// withResponse sets a response's description and its headers (each a
// required string, described by docs).
func withResponse(description string, headers []string, docs map[string]string) openapi.ContentOption {
	return func(cu *openapi.ContentUnit) {
		cu.Description = description
		cu.Customize = func(cor openapi.ContentOrReference) {
			resp := cor.(*openapi31.ResponseOrReference).Response
			if resp == nil || len(headers) == 0 {
				return
			}
			resp.Headers = map[string]openapi31.HeaderOrReference{}
			for _, name := range headers {
				h := (&openapi31.Header{}).WithDescription(docs[name]).WithRequired(true).
					WithSchema(map[string]any{"type": "string"})
				resp.Headers[name] = openapi31.HeaderOrReference{Header: h}
			}
		}
	}
}
