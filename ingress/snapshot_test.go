package ingress

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"regexp"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
)

func sampleObjects(ingressRV, sliceRV string, ready bool) Objects {
	return Objects{
		Ingresses:      []*networkingv1.Ingress{newIngress("ns", "web", ingressRV, hostRule("h", servicePath("/", networkingv1.PathTypePrefix, "s", 80)))},
		Services:       []*corev1Service{newService("ns", "s", "20")},
		EndpointSlices: []*discoveryv1Slice{newSlice("ns", "s-1", "s", sliceRV, ptrBool(ready))},
	}
}

func mustSnapshot(t testing.TB, objs Objects) *Snapshot {
	t.Helper()
	s, err := NewSnapshot(Project(objs))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var strongTag = regexp.MustCompile(`^"[0-9a-f]{32}"$`)

func TestSnapshotBodyAndTags(t *testing.T) {
	s := mustSnapshot(t, sampleObjects("10", "30", true))
	var list HostsList
	if err := json.Unmarshal(s.Body, &list); err != nil {
		t.Fatalf("body is not a HostsList: %v", err)
	}
	if list.Hosts[0].Paths[0].Reachability != Reachable {
		t.Fatalf("body = %s", s.Body)
	}
	if !strongTag.MatchString(s.ETag) {
		t.Fatalf("ETag %s is not a quoted strong tag", s.ETag)
	}
	if s.GzipETag == s.ETag || s.GzipETag[0] != '"' {
		t.Fatalf("gzip tag %s must be a different strong tag than %s", s.GzipETag, s.ETag)
	}
	zr, err := gzip.NewReader(bytes.NewReader(s.GzipBody))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(plain, s.Body) {
		t.Fatalf("gzip body does not decompress to the body (err %v)", err)
	}
	if s.Hosts != 1 || s.Paths != 1 || s.PathsByReachability[Reachable] != 1 || s.PathsByReachability[Unknown] != 0 {
		t.Fatalf("counts: hosts %d paths %d by reachability %v", s.Hosts, s.Paths, s.PathsByReachability)
	}
}

func TestSnapshotETag(t *testing.T) {
	base := mustSnapshot(t, sampleObjects("10", "30", true))
	t.Run("same objects give the same tag and the same bytes", func(t *testing.T) {
		again := mustSnapshot(t, sampleObjects("10", "30", true))
		if again.ETag != base.ETag || again.GzipETag != base.GzipETag || !bytes.Equal(again.GzipBody, base.GzipBody) {
			t.Fatalf("tags %s/%s vs %s/%s", again.ETag, again.GzipETag, base.ETag, base.GzipETag)
		}
	})
	t.Run("a new resourceVersion of an object behind the list changes it", func(t *testing.T) {
		s := mustSnapshot(t, sampleObjects("11", "30", true))
		if !bytes.Equal(s.Body, base.Body) {
			t.Fatal("test premise: body should be unchanged")
		}
		if s.ETag == base.ETag {
			t.Fatal("ETag unchanged after the Ingress's resourceVersion changed")
		}
	})
	t.Run("a changed body changes it even without resourceVersions", func(t *testing.T) {
		a := sampleObjects("", "", true)
		b := sampleObjects("", "", false)
		for _, o := range []Objects{a, b} {
			o.Services[0].ResourceVersion = ""
		}
		sa, sb := mustSnapshot(t, a), mustSnapshot(t, b)
		if bytes.Equal(sa.Body, sb.Body) {
			t.Fatal("test premise: bodies should differ")
		}
		if sa.ETag == sb.ETag {
			t.Fatal("ETag unchanged although the body changed")
		}
	})
	t.Run("objects not behind the list do not change it", func(t *testing.T) {
		objs := sampleObjects("10", "30", true)
		objs.Services = append(objs.Services, newService("ns", "unrelated", "99"))
		objs.EndpointSlices = append(objs.EndpointSlices, newSlice("ns", "unrelated-1", "unrelated", "98", ptrBool(false)))
		if s := mustSnapshot(t, objs); s.ETag != base.ETag {
			t.Fatal("ETag changed because of objects nothing in the list depends on")
		}
	})
}

func TestWriteFieldIsUnambiguous(t *testing.T) {
	hash := func(fields ...string) string {
		var b bytes.Buffer
		for _, f := range fields {
			writeField(&b, f)
		}
		return b.String()
	}
	if hash("ab", "c") == hash("a", "bc") {
		t.Fatal("field boundaries are not encoded")
	}
}
