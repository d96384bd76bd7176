package ingress

import (
	"cmp"
	"slices"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// Objects is everything a projection is computed from: the Ingresses to
// list and the Services and EndpointSlices their backends may point to.
// Sources fill it from an informer cache or from a file; Project does not
// care which.
type Objects struct {
	Ingresses      []*networkingv1.Ingress
	Services       []*corev1.Service
	EndpointSlices []*discoveryv1.EndpointSlice
}

// ObjectVersion identifies one object at one resourceVersion. The ETag is
// derived from the versions of the objects behind the list, so that any
// change to one of them is visible to clients revalidating with
// If-None-Match.
type ObjectVersion struct {
	Kind            string
	Namespace       string
	Name            string
	ResourceVersion string
}

// Projection is the listing computed from one set of Objects, with the
// versions of the objects that contributed to it (sorted by kind, namespace,
// name). Objects that no listed path depends on — Services nobody routes
// to, their EndpointSlices, Ingresses outside the selection — are not
// inputs, so their changes leave the ETag alone.
type Projection struct {
	List   HostsList
	Inputs []ObjectVersion
}

// serviceNameLabel is the well-known label tying an EndpointSlice to the
// Service it belongs to.
const serviceNameLabel = discoveryv1.LabelServiceName

// defaultPathType is what the API server defaults a missing pathType to.
const defaultPathType = string(networkingv1.PathTypeImplementationSpecific)

// Project computes the listing: hosts ordered by host, each host's paths
// ordered by path with deterministic tie-breaking, exact duplicates removed,
// and a reachability value for each path.
func Project(objs Objects) Projection {
	idx := newObjectIndex(objs)
	inputs := map[ObjectVersion]struct{}{}
	hosts := map[string][]Path{}

	addHost := func(host string) {
		if host == "" {
			host = AnyHost
		}
		if _, ok := hosts[host]; !ok {
			hosts[host] = []Path{}
		}
	}
	addPath := func(host string, p Path) {
		if host == "" {
			host = AnyHost
		}
		hosts[host] = append(hosts[host], p)
	}

	for _, ing := range objs.Ingresses {
		if ing == nil {
			continue
		}
		inputs[versionOf("Ingress", ing.Namespace, ing.Name, ing.ResourceVersion)] = struct{}{}
		ref := ObjectRef{Namespace: ing.Namespace, Name: ing.Name}
		if db := ing.Spec.DefaultBackend; db != nil {
			backend, reach := idx.resolve(ing.Namespace, *db, inputs)
			addPath(AnyHost, Path{
				Path:           "/",
				PathType:       string(networkingv1.PathTypePrefix),
				Backend:        backend,
				Ingress:        ref,
				DefaultBackend: true,
				Reachability:   reach,
			})
		}
		for _, rule := range ing.Spec.Rules {
			addHost(rule.Host)
			if rule.HTTP == nil {
				continue
			}
			for _, hp := range rule.HTTP.Paths {
				backend, reach := idx.resolve(ing.Namespace, hp.Backend, inputs)
				path := hp.Path
				if path == "" {
					path = "/"
				}
				pathType := defaultPathType
				if hp.PathType != nil && *hp.PathType != "" {
					pathType = string(*hp.PathType)
				}
				addPath(rule.Host, Path{
					Path:         path,
					PathType:     pathType,
					Backend:      backend,
					Ingress:      ref,
					Reachability: reach,
				})
			}
		}
	}

	list := HostsList{Hosts: make([]Host, 0, len(hosts))}
	for host, paths := range hosts {
		slices.SortFunc(paths, comparePaths)
		paths = slices.CompactFunc(paths, func(a, b Path) bool { return a == b })
		list.Hosts = append(list.Hosts, Host{Host: host, Paths: paths})
	}
	slices.SortFunc(list.Hosts, func(a, b Host) int { return cmp.Compare(a.Host, b.Host) })

	versions := make([]ObjectVersion, 0, len(inputs))
	for v := range inputs {
		versions = append(versions, v)
	}
	slices.SortFunc(versions, compareVersions)
	return Projection{List: list, Inputs: versions}
}

// comparePaths orders paths by path first (the spec's order) and then by
// every other field, so that two paths are equal in order only when they
// are identical.
func comparePaths(a, b Path) int {
	return cmp.Or(
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.PathType, b.PathType),
		cmp.Compare(a.Ingress.Namespace, b.Ingress.Namespace),
		cmp.Compare(a.Ingress.Name, b.Ingress.Name),
		compareBool(a.DefaultBackend, b.DefaultBackend),
		cmp.Compare(a.Backend.Service, b.Backend.Service),
		cmp.Compare(a.Backend.PortNumber, b.Backend.PortNumber),
		cmp.Compare(a.Backend.PortName, b.Backend.PortName),
		cmp.Compare(a.Backend.Resource, b.Backend.Resource),
		cmp.Compare(a.Reachability, b.Reachability),
	)
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	default:
		return 1
	}
}

func compareVersions(a, b ObjectVersion) int {
	return cmp.Or(
		cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Name, b.Name),
		cmp.Compare(a.ResourceVersion, b.ResourceVersion),
	)
}

func versionOf(kind, namespace, name, rv string) ObjectVersion {
	return ObjectVersion{Kind: kind, Namespace: namespace, Name: name, ResourceVersion: rv}
}
