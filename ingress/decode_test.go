package ingress

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeKubectlListDump(t *testing.T) {
	f, err := os.Open("testdata/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	objs, stats, err := DecodeObjects(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.Ingresses) != 1 || len(objs.Services) != 2 || len(objs.EndpointSlices) != 2 || stats.Documents != 1 {
		t.Fatalf("decoded %d ingresses, %d services, %d slices from %d documents",
			len(objs.Ingresses), len(objs.Services), len(objs.EndpointSlices), stats.Documents)
	}
	if objs.Ingresses[0].ResourceVersion != "48121" {
		t.Fatalf("resourceVersion not kept: %q", objs.Ingresses[0].ResourceVersion)
	}
	list := Project(objs).List
	want := HostsList{Hosts: []Host{{Host: "docs.example.com", Paths: []Path{
		{Path: "/", PathType: "Prefix", Backend: Backend{Service: "docs", PortNumber: 80}, Ingress: ObjectRef{"web", "docs"}, Reachability: Reachable},
		{Path: "/search", PathType: "Exact", Backend: Backend{Service: "search", PortName: "http"}, Ingress: ObjectRef{"web", "docs"}, Reachability: Unreachable},
	}}}}
	if !reflect.DeepEqual(list, want) {
		t.Fatalf("projection of the dump\n got %+v\nwant %+v", list, want)
	}
}

func TestDecodeSeveralDocumentsAndTypedLists(t *testing.T) {
	in := `
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: a}
spec:
  rules:
  - host: a.example.com
---
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: x}
---
apiVersion: v1
kind: ServiceList
items:
- metadata: {name: s1, namespace: x}
- metadata: {name: s2, namespace: x}
`
	objs, stats, err := DecodeObjects(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.Ingresses) != 1 || len(objs.Services) != 2 {
		t.Fatalf("decoded %d ingresses and %d services", len(objs.Ingresses), len(objs.Services))
	}
	if objs.Ingresses[0].Namespace != "default" {
		t.Fatalf("namespace of an object without one = %q, want default", objs.Ingresses[0].Namespace)
	}
	if stats.Ignored["Pod"] != 1 || stats.Documents != 3 {
		t.Fatalf("stats = %+v", stats)
	}
}

func TestDecodeJSON(t *testing.T) {
	in := `{"apiVersion":"v1","kind":"List","items":[
	  {"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"e","namespace":"n","labels":{"kubernetes.io/service-name":"s"}},"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"]}]}
	]}`
	objs, _, err := DecodeObjects(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs.EndpointSlices) != 1 || len(objs.EndpointSlices[0].Endpoints) != 1 {
		t.Fatalf("decoded %+v", objs)
	}
}

func TestDecodeErrorsNameTheProblem(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"yaml syntax", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\nkind: [unclosed\n", []string{"document 2"}},
		{"no kind", "apiVersion: v1\nmetadata: {name: x}\n", []string{"document 1", "no kind"}},
		{"old ingress version", "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: old, namespace: ns}\n",
			[]string{"document 1", "Ingress ns/old", `"extensions/v1beta1"`, `"networking.k8s.io/v1"`}},
		{"wrong field type", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s, namespace: ns}\n  spec: {ports: [{port: eighty}]}\n",
			[]string{"document 1", "item 1", "Service ns/s"}},
		{"no name", "apiVersion: v1\nkind: Service\nmetadata: {namespace: ns}\n", []string{"document 1", "metadata.name is empty"}},
		{"not an object", "- just\n- a list\n", []string{"document 1", "not a Kubernetes object"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := DecodeObjects(strings.NewReader(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestDecodeEmptyInput(t *testing.T) {
	objs, stats, err := DecodeObjects(strings.NewReader(""))
	if err != nil || len(objs.Ingresses) != 0 || stats.Documents != 0 {
		t.Fatalf("empty input: %+v %+v %v", objs, stats, err)
	}
}
