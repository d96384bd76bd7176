package ingress

import (
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
)

func TestReachabilityRules(t *testing.T) {
	ing := newIngress("ns", "i", "1", hostRule("h", servicePath("/", networkingv1.PathTypePrefix, "s", 80)))
	svc := newService("ns", "s", "2")
	unlabelled := newSlice("ns", "orphan", "s", "3", ptrBool(true))
	unlabelled.Labels = nil

	cases := []struct {
		name     string
		services []*corev1Service
		slices   []*discoveryv1Slice
		want     Reachability
	}{
		{"no service", nil, []*discoveryv1Slice{newSlice("ns", "s-1", "s", "3", ptrBool(true))}, Unknown},
		{"service in another namespace only", []*corev1Service{newService("other", "s", "2")}, nil, Unknown},
		{"service without slices", []*corev1Service{svc}, nil, Unknown},
		{"slice of another service only", []*corev1Service{svc}, []*discoveryv1Slice{newSlice("ns", "t-1", "t", "3", ptrBool(true))}, Unknown},
		{"slice in another namespace only", []*corev1Service{svc}, []*discoveryv1Slice{newSlice("other", "s-1", "s", "3", ptrBool(true))}, Unknown},
		{"slice without the service-name label", []*corev1Service{svc}, []*discoveryv1Slice{unlabelled}, Unknown},
		{"slice without endpoints", []*corev1Service{svc}, []*discoveryv1Slice{newSlice("ns", "s-1", "s", "3")}, Unreachable},
		{"no endpoint ready", []*corev1Service{svc}, []*discoveryv1Slice{newSlice("ns", "s-1", "s", "3", ptrBool(false), ptrBool(false))}, Unreachable},
		{"one ready endpoint", []*corev1Service{svc}, []*discoveryv1Slice{newSlice("ns", "s-1", "s", "3", ptrBool(false), ptrBool(true))}, Reachable},
		{"ready condition unset counts as ready", []*corev1Service{svc}, []*discoveryv1Slice{newSlice("ns", "s-1", "s", "3", nil)}, Reachable},
		{"ready endpoint in a second slice", []*corev1Service{svc}, []*discoveryv1Slice{
			newSlice("ns", "s-1", "s", "3", ptrBool(false)),
			newSlice("ns", "s-2", "s", "4", ptrBool(true)),
		}, Reachable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Project(Objects{
				Ingresses:      []*networkingv1.Ingress{ing},
				Services:       tc.services,
				EndpointSlices: tc.slices,
			}).List.Hosts[0].Paths[0].Reachability
			if got != tc.want {
				t.Fatalf("reachability = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestReachabilityOfResourceBackendIsUnknown(t *testing.T) {
	ing := newIngress("ns", "i", "1", hostRule("h", networkingv1.HTTPIngressPath{
		Path: "/", PathType: pathType(networkingv1.PathTypePrefix),
		Backend: networkingv1.IngressBackend{Resource: &corev1TypedRef{Kind: "Bucket", Name: "b"}},
	}))
	p := Project(Objects{Ingresses: []*networkingv1.Ingress{ing}}).List.Hosts[0].Paths[0]
	if p.Reachability != Unknown || p.Backend.Resource != "/Bucket/b" || p.Backend.Service != "" {
		t.Fatalf("resource backend listed as %+v", p)
	}
}
