package bench

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/docweave/docweave/ingress"
)

// SyntheticCluster is a cluster of hosts Ingresses with paths paths each,
// every path backed by its own Service and EndpointSlice, one in four
// EndpointSlices without a ready endpoint — a large, mixed listing for the
// ingress API's rates; it is exported for the ETag benchmark of
// bench/hotpaths, which measures the same listing.
func SyntheticCluster(hosts, paths int) ingress.Objects {
	var objs ingress.Objects
	yes, no := true, false
	prefix := networkingv1.PathTypePrefix
	for h := 0; h < hosts; h++ {
		host := fmt.Sprintf("app-%04d.bench.example", h)
		rule := networkingv1.IngressRule{Host: host, IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{}}}
		for p := 0; p < paths; p++ {
			svc := fmt.Sprintf("svc-%04d-%02d", h, p)
			rule.HTTP.Paths = append(rule.HTTP.Paths, networkingv1.HTTPIngressPath{
				Path: fmt.Sprintf("/api/v%d", p), PathType: &prefix,
				Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{Name: svc, Port: networkingv1.ServiceBackendPort{Number: 80}}},
			})
			objs.Services = append(objs.Services, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: svc, ResourceVersion: "10"}})
			ready := &yes
			if (h+p)%4 == 0 {
				ready = &no
			}
			objs.EndpointSlices = append(objs.EndpointSlices, &discoveryv1.EndpointSlice{
				ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: svc + "-x1", ResourceVersion: "11", Labels: map[string]string{discoveryv1.LabelServiceName: svc}},
				Endpoints:  []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.1"}, Conditions: discoveryv1.EndpointConditions{Ready: ready}}},
			})
		}
		objs.Ingresses = append(objs.Ingresses, &networkingv1.Ingress{
			ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: host, ResourceVersion: fmt.Sprint(100 + h)},
			Spec:       networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{rule}},
		})
	}
	return objs
}
