package ingress

import (
	"encoding/json"
	"testing"
)

func TestReachabilityEnumMatchesConstants(t *testing.T) {
	got := Reachability("").EnumValues()
	want := []Reachability{Reachable, Unreachable, Unknown}
	if len(got) != len(want) {
		t.Fatalf("enum %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != string(want[i]) {
			t.Fatalf("enum %v, want %v", got, want)
		}
	}
}

// The wire names are the interface; this pins them so a rename of a Go
// field cannot silently change what clients read.
func TestWireFormatOfOnePath(t *testing.T) {
	list := HostsList{Hosts: []Host{{Host: "h", Paths: []Path{{
		Path: "/api", PathType: "Prefix",
		Backend:      Backend{Service: "api", PortNumber: 8080},
		Ingress:      ObjectRef{Namespace: "ns", Name: "web"},
		Reachability: Reachable,
	}}}}}
	got, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"hosts":[{"host":"h","paths":[{"path":"/api","pathType":"Prefix","backend":{"service":"api","portNumber":8080},"ingress":{"namespace":"ns","name":"web"},"reachability":"reachable"}]}]}`
	if string(got) != want {
		t.Fatalf("wire format\n got %s\nwant %s", got, want)
	}
}

func TestEveryModelTypeDescribesItself(t *testing.T) {
	for _, d := range []interface{ SchemaDescription() string }{
		HostsList{}, Host{}, Path{}, Backend{}, ObjectRef{}, Reachability(""),
	} {
		if d.SchemaDescription() == "" {
			t.Errorf("%T has an empty schema description", d)
		}
	}
}
