package ingress

import (
	"context"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
)

// kubeFixture runs a KubernetesSource against client-go's fake clientset.
type kubeFixture struct {
	client *fake.Clientset
	src    *KubernetesSource
	store  *Store
}

func startKube(t *testing.T, selector string, objs ...runtime.Object) *kubeFixture {
	t.Helper()
	client := fake.NewClientset(objs...)
	store := NewStore(nil)
	src := &KubernetesSource{Client: client, LabelSelector: selector, Store: store, Logger: zerolog.Nop()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	eventually(t, "informer caches to sync", store.Ready)
	// A synced cache may still be handing its first objects to the
	// handlers: wait until each has been seen, so that the next event a
	// test waits for is the one its change causes.
	initial := initialEvents(t, selector, objs)
	eventually(t, "the informers' first events", func() bool { return src.EventsSeen() >= initial })
	f := &kubeFixture{client: client, src: src, store: store}
	f.settle(t)
	return f
}

// initialEvents counts the add events the informers deliver for objs: the
// Ingresses the selector matches, every Service and EndpointSlice.
func initialEvents(t *testing.T, selector string, objs []runtime.Object) uint64 {
	t.Helper()
	sel, err := labels.Parse(selector)
	if err != nil {
		return 0 // a test of a malformed selector: Run refuses it
	}
	var n uint64
	for _, o := range objs {
		switch v := o.(type) {
		case *networkingv1.Ingress:
			if sel.Matches(labels.Set(v.Labels)) {
				n++
			}
		case *corev1.Service, *discoveryv1.EndpointSlice:
			n++
		}
	}
	return n
}

// settle waits until every event the informers delivered so far is
// reflected in the served listing.
func (f *kubeFixture) settle(t *testing.T) {
	t.Helper()
	seen := f.src.EventsSeen()
	eventually(t, "listing to catch up with informer events", func() bool { return f.src.EventsApplied() >= seen })
}

// change applies a mutation through the fake API server and waits until the
// served listing reflects it.
func (f *kubeFixture) change(t *testing.T, mutate func(ctx context.Context) error) {
	t.Helper()
	before := f.src.EventsSeen()
	if err := mutate(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the change to reach the informers", func() bool { return f.src.EventsSeen() > before })
	f.settle(t)
}

func (f *kubeFixture) list(t *testing.T) HostsList {
	t.Helper()
	return decodeList(t, f.store.Current())
}

func clusterObjects() []runtime.Object {
	return []runtime.Object{
		newIngress("web", "docs", "100",
			hostRule("docs.example.com",
				servicePath("/", networkingv1.PathTypePrefix, "docs", 80),
				servicePath("/search", networkingv1.PathTypeExact, "search", 80),
				servicePath("/old", networkingv1.PathTypePrefix, "gone", 80),
				servicePath("/new", networkingv1.PathTypePrefix, "empty", 80),
			),
		),
		newIngress("web", "api", "101", hostRule("api.example.com", servicePath("/v1", networkingv1.PathTypePrefix, "api", 80))),
		newService("web", "docs", "200"),
		newService("web", "search", "201"),
		newService("web", "api", "202"),
		newService("web", "empty", "203"),
		newService("web", "unrelated", "204"),
		newSlice("web", "docs-1", "docs", "300", ptrBool(false)),
		newSlice("web", "docs-2", "docs", "301", ptrBool(true)),
		newSlice("web", "search-1", "search", "302", ptrBool(false)),
		newSlice("web", "api-1", "api", "303", nil),
		newSlice("web", "unrelated-1", "unrelated", "304", ptrBool(true)),
	}
}

func TestKubernetesSourceListsOrderedWithReachability(t *testing.T) {
	f := startKube(t, "", clusterObjects()...)
	got := f.list(t)
	var lines []string
	for _, h := range got.Hosts {
		for _, p := range h.Paths {
			lines = append(lines, h.Host+p.Path+" "+string(p.Reachability))
		}
	}
	want := []string{
		"api.example.com/v1 reachable",        // ready condition unset
		"docs.example.com/ unreachable",       // placeholder, replaced below
		"docs.example.com/new unknown",        // Service without slices
		"docs.example.com/old unknown",        // no Service
		"docs.example.com/search unreachable", // slice, nothing ready
	}
	want[1] = "docs.example.com/ reachable" // one ready endpoint in the second slice
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("listing:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestKubernetesSourceETag(t *testing.T) {
	f := startKube(t, "", clusterObjects()...)
	ings := f.client.NetworkingV1().Ingresses("web")
	svcs := f.client.CoreV1().Services("web")
	eps := f.client.DiscoveryV1().EndpointSlices("web")

	assertETag := func(t *testing.T, wantChange bool, what string, mutate func(ctx context.Context) error) {
		t.Helper()
		before := f.store.Current()
		f.change(t, mutate)
		after := f.store.Current()
		if changed := after.ETag != before.ETag; changed != wantChange {
			t.Fatalf("%s: ETag changed=%v, want %v (%s → %s)", what, changed, wantChange, before.ETag, after.ETag)
		}
	}

	t.Run("an Ingress gets a new path", func(t *testing.T) {
		assertETag(t, true, "ingress update", func(ctx context.Context) error {
			ing := newIngress("web", "api", "110", hostRule("api.example.com",
				servicePath("/v1", networkingv1.PathTypePrefix, "api", 80),
				servicePath("/v2", networkingv1.PathTypePrefix, "api", 80)))
			_, err := ings.Update(ctx, ing, metav1.UpdateOptions{})
			return err
		})
		if n := len(f.list(t).Hosts[0].Paths); n != 2 {
			t.Fatalf("api.example.com has %d paths, want 2", n)
		}
	})
	t.Run("an Ingress changes only an annotation", func(t *testing.T) {
		// The body stays the same but the Ingress has a new
		// resourceVersion: the tag follows the resource versions.
		body := string(f.store.Current().Body)
		assertETag(t, true, "annotation update", func(ctx context.Context) error {
			ing := newIngress("web", "api", "111", hostRule("api.example.com",
				servicePath("/v1", networkingv1.PathTypePrefix, "api", 80),
				servicePath("/v2", networkingv1.PathTypePrefix, "api", 80)))
			ing.Annotations = map[string]string{"team": "platform"}
			_, err := ings.Update(ctx, ing, metav1.UpdateOptions{})
			return err
		})
		if string(f.store.Current().Body) != body {
			t.Fatal("an annotation changed the body")
		}
	})
	t.Run("an EndpointSlice loses its last ready endpoint", func(t *testing.T) {
		assertETag(t, true, "slice update", func(ctx context.Context) error {
			_, err := eps.Update(ctx, newSlice("web", "docs-2", "docs", "310", ptrBool(false)), metav1.UpdateOptions{})
			return err
		})
		if r := f.list(t).Hosts[1].Paths[0].Reachability; r != Unreachable {
			t.Fatalf("docs.example.com/ is %s, want unreachable", r)
		}
	})
	t.Run("a Service behind a path appears", func(t *testing.T) {
		assertETag(t, true, "service create", func(ctx context.Context) error {
			_, err := svcs.Create(ctx, newService("web", "gone", "320"), metav1.CreateOptions{})
			return err
		})
	})
	t.Run("an EndpointSlice is deleted", func(t *testing.T) {
		assertETag(t, true, "slice delete", func(ctx context.Context) error {
			return eps.Delete(ctx, "search-1", metav1.DeleteOptions{})
		})
		if r := f.list(t).Hosts[1].Paths[3].Reachability; r != Unknown {
			t.Fatalf("docs.example.com/search is %s, want unknown", r)
		}
	})
	t.Run("an unrelated Service changes", func(t *testing.T) {
		assertETag(t, false, "unrelated service", func(ctx context.Context) error {
			svc := newService("web", "unrelated", "330")
			svc.Labels = map[string]string{"changed": "yes"}
			_, err := svcs.Update(ctx, svc, metav1.UpdateOptions{})
			return err
		})
	})
	t.Run("an unrelated EndpointSlice changes", func(t *testing.T) {
		assertETag(t, false, "unrelated slice", func(ctx context.Context) error {
			_, err := eps.Update(ctx, newSlice("web", "unrelated-1", "unrelated", "331", ptrBool(false)), metav1.UpdateOptions{})
			return err
		})
	})
	t.Run("a Service in another namespace is created", func(t *testing.T) {
		assertETag(t, false, "unrelated service create", func(ctx context.Context) error {
			_, err := f.client.CoreV1().Services("other").Create(ctx, newService("other", "docs", "340"), metav1.CreateOptions{})
			return err
		})
	})
	t.Run("an EndpointSlice in another namespace is created", func(t *testing.T) {
		assertETag(t, false, "unrelated slice create", func(ctx context.Context) error {
			_, err := f.client.DiscoveryV1().EndpointSlices("other").Create(ctx, newSlice("other", "docs-1", "docs", "341", ptrBool(true)), metav1.CreateOptions{})
			return err
		})
	})
}

func TestKubernetesSourceLabelSelector(t *testing.T) {
	selected := newIngress("web", "public", "1", hostRule("public.example.com"))
	selected.Labels = map[string]string{"expose": "yes"}
	other := newIngress("web", "internal", "2", hostRule("internal.example.com"))
	f := startKube(t, "expose=yes", selected, other)
	if got := f.list(t); len(got.Hosts) != 1 || got.Hosts[0].Host != "public.example.com" {
		t.Fatalf("listing = %+v, want only public.example.com", got)
	}
	before := f.store.Current().ETag
	f.change(t, func(ctx context.Context) error {
		o := newIngress("web", "internal", "3", hostRule("internal.example.com"), hostRule("more.example.com"))
		_, err := f.client.NetworkingV1().Ingresses("web").Update(ctx, o, metav1.UpdateOptions{})
		return err
	})
	if f.store.Current().ETag != before {
		t.Fatal("a change to an Ingress outside the selector changed the ETag")
	}
}

func TestKubernetesSourceNamespace(t *testing.T) {
	client := fake.NewClientset(
		newIngress("a", "i", "1", hostRule("a.example.com")),
		newIngress("b", "i", "2", hostRule("b.example.com")),
	)
	store := NewStore(nil)
	src := &KubernetesSource{Client: client, Namespace: "b", Store: store, Logger: zerolog.Nop()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- src.Run(ctx) }()
	eventually(t, "sync", store.Ready)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := decodeList(t, store.Current()); len(got.Hosts) != 1 || got.Hosts[0].Host != "b.example.com" {
		t.Fatalf("listing = %+v, want only namespace b", got)
	}
}

func TestKubernetesSourceRejectsBadSelector(t *testing.T) {
	src := &KubernetesSource{Client: fake.NewClientset(), LabelSelector: "a in (", Store: NewStore(nil), Logger: zerolog.Nop()}
	err := src.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), `label_selector "a in ("`) {
		t.Fatalf("Run with a bad selector = %v", err)
	}
}

func TestKubernetesSourceStopsBeforeSync(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := &KubernetesSource{Client: fake.NewClientset(), Store: NewStore(nil), Logger: zerolog.Nop()}
	if err := src.Run(ctx); err != nil {
		t.Fatalf("Run with a cancelled context = %v, want nil", err)
	}
}

func TestChangeHandlerIgnoresResyncs(t *testing.T) {
	k := &KubernetesSource{}
	ch := make(chan struct{}, 1)
	h := k.changeHandler(ch)
	a := newService("ns", "s", "5")
	h.UpdateFunc(a, a.DeepCopy())
	if k.EventsSeen() != 0 || len(ch) != 0 {
		t.Fatal("an update with the same resourceVersion must not trigger a rebuild")
	}
	b := a.DeepCopy()
	b.ResourceVersion = "6"
	h.UpdateFunc(a, b)
	h.AddFunc(b)
	h.DeleteFunc(b)
	if k.EventsSeen() != 3 || len(ch) != 1 {
		t.Fatalf("events seen %d, pending signals %d; want 3 and 1 (coalesced)", k.EventsSeen(), len(ch))
	}
}
