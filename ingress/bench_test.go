package ingress

import (
	"fmt"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
)

// clusterOf builds hosts×paths paths, each with its own Service and
// EndpointSlice.
func clusterOf(hosts, paths int) Objects {
	var objs Objects
	for h := range hosts {
		host := fmt.Sprintf("host-%04d.example.com", h)
		var hp []networkingv1.HTTPIngressPath
		for p := range paths {
			svc := fmt.Sprintf("svc-%04d-%02d", h, p)
			hp = append(hp, servicePath(fmt.Sprintf("/service/%02d", p), networkingv1.PathTypePrefix, svc, 8080))
			objs.Services = append(objs.Services, newService("ns", svc, "1"))
			objs.EndpointSlices = append(objs.EndpointSlices, newSlice("ns", svc+"-x", svc, "2", ptrBool(p%3 != 0)))
		}
		objs.Ingresses = append(objs.Ingresses, newIngress("ns", host, fmt.Sprint(h+1), hostRule(host, hp...)))
	}
	return objs
}

// BenchmarkRebuild10kPaths is the cost of one change on a 10,000-path
// cluster: project, encode, compress, hash.
func BenchmarkRebuild10kPaths(b *testing.B) {
	objs := clusterOf(1000, 10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewSnapshot(Project(objs)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProject10kPaths is the projection alone.
func BenchmarkProject10kPaths(b *testing.B) {
	objs := clusterOf(1000, 10)
	b.ReportAllocs()
	for b.Loop() {
		Project(objs)
	}
}
