package ingress

// The types in this file are the wire format of GET /v1/ingresses. The HTTP
// package generates the OpenAPI schema from them by reflection, reading the
// `json` tags for names and required-ness (a field without omitempty is
// required) and the `doc` tags for descriptions, so the description cannot
// drift from what the handler sends. Change a field here and both change.

// Reachability says whether the backend of a path can currently answer,
// judged passively from the EndpointSlices of its Service.
type Reachability string

// The three reachability values of the spec.
const (
	// Reachable: the backend Service has at least one ready endpoint.
	Reachable Reachability = "reachable"
	// Unreachable: the Service has EndpointSlices but no ready endpoint.
	Unreachable Reachability = "unreachable"
	// Unknown: there is no Service, no EndpointSlice, or the backend is not
	// a Service at all, so nothing can be said.
	Unknown Reachability = "unknown"
)

// EnumValues lists the allowed values, so the generated schema carries an
// enum that matches the constants above.
func (Reachability) EnumValues() []string {
	return []string{string(Reachable), string(Unreachable), string(Unknown)}
}

// SchemaDescription documents the type in the generated OpenAPI schema.
func (Reachability) SchemaDescription() string {
	return "Whether the backend can currently answer, judged from the EndpointSlices of its Service: " +
		"reachable (at least one ready endpoint), unreachable (EndpointSlices exist, none ready), " +
		"unknown (no Service, no EndpointSlice, or a non-Service backend)."
}

// AnyHost is the host under which rules without a host, and Ingress default
// backends, are listed: they match requests for every host.
const AnyHost = "*"

// HostsList is the body of a successful GET /v1/ingresses.
type HostsList struct {
	Hosts []Host `json:"hosts" doc:"Every host routed by the selected Ingress objects, ordered by host (byte order). Empty array when there are none."`
}

// SchemaDescription documents the type in the generated OpenAPI schema.
func (HostsList) SchemaDescription() string {
	return "The ingress hosts of the cluster with their paths and reachability, ordered by (host, path)."
}

// Host is one host name with the paths routed for it.
type Host struct {
	Host  string `json:"host" doc:"Host name as written in the Ingress rule, possibly a wildcard such as *.example.com; \"*\" stands for rules without a host and for default backends, which match every host."`
	Paths []Path `json:"paths" doc:"Paths routed for this host, ordered by path, then path type, Ingress namespace and name, and backend. Empty when the rules name the host without HTTP paths."`
}

// SchemaDescription documents the type in the generated OpenAPI schema.
func (Host) SchemaDescription() string {
	return "One host with the paths routed for it."
}

// Path is one routed path of a host, as one Ingress object declares it.
type Path struct {
	Path           string       `json:"path" doc:"URL path of the rule (\"/\" for a default backend or a rule path left empty)."`
	PathType       string       `json:"pathType" doc:"Kubernetes path type: Exact, Prefix or ImplementationSpecific."`
	Backend        Backend      `json:"backend" doc:"Where matching requests are sent."`
	Ingress        ObjectRef    `json:"ingress" doc:"The Ingress object that declares this path."`
	DefaultBackend bool         `json:"defaultBackend,omitempty" doc:"True for the Ingress's default backend, which receives requests no rule matches."`
	Reachability   Reachability `json:"reachability" doc:"Whether the backend can currently answer."`
}

// SchemaDescription documents the type in the generated OpenAPI schema.
func (Path) SchemaDescription() string {
	return "One routed path of a host, as declared by one Ingress object."
}

// Backend is the target of a path: a Service port, or a custom resource.
type Backend struct {
	Service    string `json:"service,omitempty" doc:"Name of the backend Service, in the Ingress's namespace. Absent for resource backends."`
	PortNumber int32  `json:"portNumber,omitempty" doc:"Service port number, when the backend names the port by number."`
	PortName   string `json:"portName,omitempty" doc:"Service port name, when the backend names the port by name."`
	Resource   string `json:"resource,omitempty" doc:"Resource backend as apiGroup/Kind/name (apiGroup empty for the core group). Absent for Service backends."`
}

// SchemaDescription documents the type in the generated OpenAPI schema.
func (Backend) SchemaDescription() string {
	return "Backend of a path: a Service and port, or a resource reference."
}

// ObjectRef names a namespaced Kubernetes object.
type ObjectRef struct {
	Namespace string `json:"namespace" doc:"Namespace of the object (\"default\" for objects read from a file without one, as kubectl would apply them)."`
	Name      string `json:"name" doc:"Name of the object."`
}

// SchemaDescription documents the type in the generated OpenAPI schema.
func (ObjectRef) SchemaDescription() string {
	return "A namespaced Kubernetes object."
}
