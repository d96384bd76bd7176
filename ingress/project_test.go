package ingress

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

func TestProjectOrdersHostsAndPaths(t *testing.T) {
	objs := Objects{Ingresses: []*networkingv1.Ingress{
		newIngress("web", "b", "11",
			hostRule("zeta.example.com", servicePath("/", networkingv1.PathTypePrefix, "z", 80)),
			hostRule("alpha.example.com",
				servicePath("/docs", networkingv1.PathTypePrefix, "docs", 80),
				servicePath("/api", networkingv1.PathTypeExact, "api", 8080),
			),
		),
		newIngress("web", "a", "12",
			hostRule("alpha.example.com", servicePath("/", networkingv1.PathTypePrefix, "home", 80)),
			hostRule("", servicePath("/fallback", networkingv1.PathTypePrefix, "fb", 80)),
			hostRule("*.wild.example.com", servicePath("/", networkingv1.PathTypePrefix, "wild", 80)),
		),
	}}
	got := Project(objs).List

	var hosts []string
	for _, h := range got.Hosts {
		hosts = append(hosts, h.Host)
	}
	wantHosts := []string{"*", "*.wild.example.com", "alpha.example.com", "zeta.example.com"}
	if !reflect.DeepEqual(hosts, wantHosts) {
		t.Fatalf("hosts = %v, want %v", hosts, wantHosts)
	}
	var alphaPaths []string
	for _, p := range got.Hosts[2].Paths {
		alphaPaths = append(alphaPaths, p.Path)
	}
	if want := []string{"/", "/api", "/docs"}; !reflect.DeepEqual(alphaPaths, want) {
		t.Fatalf("alpha.example.com paths = %v, want %v", alphaPaths, want)
	}
	if p := got.Hosts[0].Paths[0]; p.Path != "/fallback" || p.Ingress != (ObjectRef{"web", "a"}) {
		t.Fatalf("rule without host listed as %+v, want /fallback of web/a under %q", p, AnyHost)
	}
}

func TestProjectBreaksTiesDeterministically(t *testing.T) {
	// The same host and path declared by several Ingresses and with two
	// path types: the order must not depend on the input order.
	build := func() []*networkingv1.Ingress {
		return []*networkingv1.Ingress{
			newIngress("b", "one", "1", hostRule("h", servicePath("/x", networkingv1.PathTypePrefix, "s1", 80))),
			newIngress("a", "two", "2", hostRule("h", servicePath("/x", networkingv1.PathTypePrefix, "s2", 80))),
			newIngress("a", "one", "3", hostRule("h",
				servicePath("/x", networkingv1.PathTypePrefix, "s3", 81),
				servicePath("/x", networkingv1.PathTypePrefix, "s3", 80),
				servicePath("/x", networkingv1.PathTypeExact, "s4", 80),
			)),
		}
	}
	first := Project(Objects{Ingresses: build()})
	want, _ := json.Marshal(first.List)
	for i := range 20 {
		ings := build()
		rand.New(rand.NewPCG(uint64(i), 7)).Shuffle(len(ings), func(a, b int) { ings[a], ings[b] = ings[b], ings[a] })
		got, _ := json.Marshal(Project(Objects{Ingresses: ings}).List)
		if string(got) != string(want) {
			t.Fatalf("shuffle %d gave a different body:\n%s\nwant\n%s", i, got, want)
		}
	}
	var order []string
	for _, p := range first.List.Hosts[0].Paths {
		order = append(order, p.PathType+" "+p.Ingress.Namespace+"/"+p.Ingress.Name+" "+p.Backend.Service)
	}
	wantOrder := []string{"Exact a/one s4", "Prefix a/one s3", "Prefix a/one s3", "Prefix a/two s2", "Prefix b/one s1"}
	if !reflect.DeepEqual(order, wantOrder) {
		t.Fatalf("tie order = %q, want %q", order, wantOrder)
	}
	if first.List.Hosts[0].Paths[1].Backend.PortNumber != 80 || first.List.Hosts[0].Paths[2].Backend.PortNumber != 81 {
		t.Fatalf("ports not ordered: %+v", first.List.Hosts[0].Paths[1:3])
	}
}

func TestProjectRemovesExactDuplicates(t *testing.T) {
	p := servicePath("/x", networkingv1.PathTypePrefix, "s", 80)
	got := Project(Objects{Ingresses: []*networkingv1.Ingress{newIngress("ns", "i", "1", hostRule("h", p, p))}}).List
	if n := len(got.Hosts[0].Paths); n != 1 {
		t.Fatalf("duplicate path listed %d times, want once", n)
	}
}

func TestProjectDefaultsAndSpecialBackends(t *testing.T) {
	group := "storage.example.com"
	ing := newIngress("ns", "i", "1",
		hostRule("bare.example.com"), // a host without HTTP paths
		hostRule("h", networkingv1.HTTPIngressPath{ // no path, no pathType, named port
			Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{
				Name: "s", Port: networkingv1.ServiceBackendPort{Name: "http"},
			}},
		}),
	)
	ing.Spec.DefaultBackend = &networkingv1.IngressBackend{Resource: &corev1.TypedLocalObjectReference{
		APIGroup: &group, Kind: "Bucket", Name: "assets",
	}}
	got := Project(Objects{Ingresses: []*networkingv1.Ingress{ing}}).List

	want := HostsList{Hosts: []Host{
		{Host: "*", Paths: []Path{{
			Path: "/", PathType: "Prefix", DefaultBackend: true,
			Backend:      Backend{Resource: "storage.example.com/Bucket/assets"},
			Ingress:      ObjectRef{"ns", "i"},
			Reachability: Unknown,
		}}},
		{Host: "bare.example.com", Paths: []Path{}},
		{Host: "h", Paths: []Path{{
			Path: "/", PathType: "ImplementationSpecific",
			Backend:      Backend{Service: "s", PortName: "http"},
			Ingress:      ObjectRef{"ns", "i"},
			Reachability: Unknown,
		}}},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	body, _ := json.Marshal(got)
	if want := `{"host":"bare.example.com","paths":[]}`; !contains(string(body), want) {
		t.Fatalf("a host without paths must carry an empty array: %s", body)
	}
}

func TestProjectInputsAreOnlyTheObjectsBehindTheList(t *testing.T) {
	objs := Objects{
		Ingresses: []*networkingv1.Ingress{newIngress("ns", "i", "5", hostRule("h", servicePath("/", networkingv1.PathTypePrefix, "used", 80)))},
		Services:  []*corev1Service{newService("ns", "used", "6"), newService("ns", "unused", "7"), newService("other", "used", "8")},
		EndpointSlices: []*discoveryv1Slice{
			newSlice("ns", "used-1", "used", "9", ptrBool(true)),
			newSlice("ns", "unused-1", "unused", "10", ptrBool(true)),
		},
	}
	got := Project(objs).Inputs
	want := []ObjectVersion{
		{"EndpointSlice", "ns", "used-1", "9"},
		{"Ingress", "ns", "i", "5"},
		{"Service", "ns", "used", "6"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("inputs = %v, want %v", got, want)
	}
}

func TestProjectOfNothingIsAnEmptyList(t *testing.T) {
	body, err := json.Marshal(Project(Objects{}).List)
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != `{"hosts":[]}` {
		t.Fatalf("empty projection = %s, want {\"hosts\":[]}", body)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
