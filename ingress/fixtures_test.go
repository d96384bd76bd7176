package ingress

import (
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Builders for the Kubernetes objects the tests feed to Project and to the
// sources. Every object carries an explicit resourceVersion, as the API
// server would set it.

func meta(ns, name, rv string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv}
}

func newIngress(ns, name, rv string, rules ...networkingv1.IngressRule) *networkingv1.Ingress {
	return &networkingv1.Ingress{
		TypeMeta:   metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "Ingress"},
		ObjectMeta: meta(ns, name, rv),
		Spec:       networkingv1.IngressSpec{Rules: rules},
	}
}

func hostRule(host string, paths ...networkingv1.HTTPIngressPath) networkingv1.IngressRule {
	r := networkingv1.IngressRule{Host: host}
	if len(paths) > 0 {
		r.HTTP = &networkingv1.HTTPIngressRuleValue{Paths: paths}
	}
	return r
}

func pathType(t networkingv1.PathType) *networkingv1.PathType { return &t }

func servicePath(path string, pt networkingv1.PathType, service string, port int32) networkingv1.HTTPIngressPath {
	return networkingv1.HTTPIngressPath{
		Path:     path,
		PathType: pathType(pt),
		Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{
			Name: service, Port: networkingv1.ServiceBackendPort{Number: port},
		}},
	}
}

func newService(ns, name, rv string) *corev1.Service {
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: meta(ns, name, rv),
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80}}},
	}
}

func ptrBool(b bool) *bool { return &b }

// newSlice returns an EndpointSlice of service with one endpoint per ready
// value; a nil value leaves the ready condition unset.
func newSlice(ns, name, service, rv string, ready ...*bool) *discoveryv1.EndpointSlice {
	eps := &discoveryv1.EndpointSlice{
		TypeMeta:    metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
		ObjectMeta:  meta(ns, name, rv),
		AddressType: discoveryv1.AddressTypeIPv4,
	}
	eps.Labels = map[string]string{discoveryv1.LabelServiceName: service}
	for i, r := range ready {
		eps.Endpoints = append(eps.Endpoints, discoveryv1.Endpoint{
			Addresses:  []string{"10.0.0." + string(rune('1'+i))},
			Conditions: discoveryv1.EndpointConditions{Ready: r},
		})
	}
	return eps
}

// Short names for the object types, for table-driven tests.
type (
	corev1Service    = corev1.Service
	discoveryv1Slice = discoveryv1.EndpointSlice
)

type corev1TypedRef = corev1.TypedLocalObjectReference

func decodeList(t *testing.T, s *Snapshot) HostsList {
	t.Helper()
	if s == nil {
		t.Fatal("no listing published")
	}
	var list HostsList
	if err := json.Unmarshal(s.Body, &list); err != nil {
		t.Fatal(err)
	}
	return list
}
