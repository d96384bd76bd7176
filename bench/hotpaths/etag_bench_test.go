package hotpaths

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/bench"
	"github.com/docweave/docweave/ingress"
)

func TestETagFixture(t *testing.T) {
	p := ingress.Project(bench.SyntheticCluster(1000, 10))
	a, err := ingress.NewSnapshot(p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ingress.NewSnapshot(ingress.Project(bench.SyntheticCluster(1000, 10)))
	if a.Paths != 10000 || a.ETag != b.ETag || !strings.HasPrefix(a.ETag, `"`) {
		t.Fatalf("%d paths, ETags %s and %s", a.Paths, a.ETag, b.ETag)
	}
}

// BenchmarkETagSnapshot10000Paths encodes a 10,000-path listing, gzips it
// and derives its ETags: the work done once per change in the cluster, so
// that each request costs none of it.
func BenchmarkETagSnapshot10000Paths(b *testing.B) {
	p := ingress.Project(bench.SyntheticCluster(1000, 10))
	b.ReportAllocs()
	for b.Loop() {
		s, err := ingress.NewSnapshot(p)
		if err != nil || s.ETag == "" {
			b.Fatal(err)
		}
	}
}

// BenchmarkProjectAndETag10000Paths adds the projection from the cluster's
// objects, which a change in the cluster also triggers.
func BenchmarkProjectAndETag10000Paths(b *testing.B) {
	objs := bench.SyntheticCluster(1000, 10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ingress.NewSnapshot(ingress.Project(objs)); err != nil {
			b.Fatal(err)
		}
	}
}
