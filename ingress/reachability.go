package ingress

import (
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// objectIndex finds the Service and EndpointSlices behind a backend without
// scanning every object for every path.
type objectIndex struct {
	services map[nsName]*corev1.Service
	slices   map[nsName][]*discoveryv1.EndpointSlice // keyed by owning Service
}

type nsName struct{ namespace, name string }

func newObjectIndex(objs Objects) objectIndex {
	idx := objectIndex{
		services: make(map[nsName]*corev1.Service, len(objs.Services)),
		slices:   make(map[nsName][]*discoveryv1.EndpointSlice, len(objs.EndpointSlices)),
	}
	for _, svc := range objs.Services {
		if svc != nil {
			idx.services[nsName{svc.Namespace, svc.Name}] = svc
		}
	}
	for _, eps := range objs.EndpointSlices {
		if eps == nil {
			continue
		}
		owner := eps.Labels[serviceNameLabel]
		if owner == "" {
			continue
		}
		key := nsName{eps.Namespace, owner}
		idx.slices[key] = append(idx.slices[key], eps)
	}
	return idx
}

// resolve describes a backend and judges its reachability, recording the
// objects the judgement depended on in inputs.
//
// The rules are the issue's: a backend that is not a Service, or whose
// Service does not exist, or whose Service has no EndpointSlice, is
// unknown; a Service with at least one ready endpoint is reachable; one
// whose slices exist but hold no ready endpoint is unreachable. A missing
// ready condition counts as ready, as the EndpointSlice API asks consumers
// to interpret it.
func (idx objectIndex) resolve(namespace string, b networkingv1.IngressBackend, inputs map[ObjectVersion]struct{}) (Backend, Reachability) {
	if b.Service == nil {
		out := Backend{}
		if r := b.Resource; r != nil {
			group := ""
			if r.APIGroup != nil {
				group = *r.APIGroup
			}
			out.Resource = group + "/" + r.Kind + "/" + r.Name
		}
		return out, Unknown
	}
	out := Backend{Service: b.Service.Name, PortNumber: b.Service.Port.Number, PortName: b.Service.Port.Name}
	key := nsName{namespace, b.Service.Name}
	svc, ok := idx.services[key]
	if !ok {
		return out, Unknown
	}
	inputs[versionOf("Service", svc.Namespace, svc.Name, svc.ResourceVersion)] = struct{}{}
	slices := idx.slices[key]
	if len(slices) == 0 {
		return out, Unknown
	}
	reach := Unreachable
	for _, eps := range slices {
		inputs[versionOf("EndpointSlice", eps.Namespace, eps.Name, eps.ResourceVersion)] = struct{}{}
		if reach == Unreachable && hasReadyEndpoint(eps) {
			reach = Reachable
		}
	}
	return out, reach
}

func hasReadyEndpoint(eps *discoveryv1.EndpointSlice) bool {
	for _, ep := range eps.Endpoints {
		if ep.Conditions.Ready == nil || *ep.Conditions.Ready {
			return true
		}
	}
	return false
}
