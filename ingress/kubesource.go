package ingress

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// KubernetesSource feeds a Store from a cluster through shared informers on
// Ingresses, Services and EndpointSlices. Every change rebuilds the
// projection from the informer caches and publishes it; bursts of changes
// coalesce into one rebuild, so a rolling update of a large Deployment does
// not rebuild the listing once per pod.
type KubernetesSource struct {
	// Client talks to the API server (or is a fake clientset in tests).
	Client kubernetes.Interface
	// Namespace limits every watch to one namespace; empty means all.
	Namespace string
	// LabelSelector selects the Ingresses to list (Kubernetes selector
	// syntax). Services and EndpointSlices are not filtered by it: they are
	// looked up by name from the selected Ingresses' backends.
	LabelSelector string
	// Resync is the informers' resync period; zero disables resyncs, which
	// are not needed because the listing is rebuilt on every event.
	Resync time.Duration
	// Store receives each listing.
	Store *Store
	// Logger reports syncs, rebuilds and errors.
	Logger zerolog.Logger

	seen    atomic.Uint64 // change events received from the informers
	applied atomic.Uint64 // of those, how many the published listing reflects
}

// EventsSeen counts the change events the informers delivered (resyncs
// excluded). Together with EventsApplied it tells how far behind the
// listing is, and lets a caller wait until an event it caused is served.
func (k *KubernetesSource) EventsSeen() uint64 { return k.seen.Load() }

// EventsApplied counts the change events reflected in the published
// listing: every event seen before the last completed rebuild started.
func (k *KubernetesSource) EventsApplied() uint64 { return k.applied.Load() }

// Run starts the informers, waits for their caches to sync, publishes the
// first listing (from then on the Store is ready) and rebuilds it on every
// change until ctx ends. It returns an error only when it cannot start, for
// example on a malformed label selector.
func (k *KubernetesSource) Run(ctx context.Context) error {
	selector, err := labels.Parse(k.LabelSelector)
	if err != nil {
		return fmt.Errorf("ingress source label_selector %q: %w", k.LabelSelector, err)
	}
	if k.Client == nil {
		return errors.New("ingress source kubernetes: no client")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	ingressFactory := informers.NewSharedInformerFactoryWithOptions(k.Client, k.Resync,
		informers.WithNamespace(k.Namespace),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = selector.String() }))
	backendFactory := informers.NewSharedInformerFactoryWithOptions(k.Client, k.Resync,
		informers.WithNamespace(k.Namespace))

	ingresses := ingressFactory.Networking().V1().Ingresses()
	services := backendFactory.Core().V1().Services()
	slices := backendFactory.Discovery().V1().EndpointSlices()

	changed := make(chan struct{}, 1)
	handler := k.changeHandler(changed)
	for name, inf := range map[string]cache.SharedIndexInformer{
		"ingresses":      ingresses.Informer(),
		"services":       services.Informer(),
		"endpointslices": slices.Informer(),
	} {
		if _, err := inf.AddEventHandler(handler); err != nil {
			return fmt.Errorf("ingress source kubernetes: watch %s: %w", name, err)
		}
	}

	ingressFactory.Start(ctx.Done())
	backendFactory.Start(ctx.Done())
	defer ingressFactory.Shutdown()
	defer backendFactory.Shutdown()

	k.Logger.Info().Str("namespace", k.Namespace).Str("label_selector", selector.String()).
		Msg("ingress source kubernetes: waiting for informer caches to sync")
	for typ, ok := range ingressFactory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return k.notSynced(ctx, typ.String())
		}
	}
	for typ, ok := range backendFactory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			return k.notSynced(ctx, typ.String())
		}
	}

	rebuild := func() {
		// Events counted before listing are in the caches being listed:
		// informers update their cache before calling handlers.
		seen := k.seen.Load()
		objs := Objects{}
		ings, err := ingresses.Lister().List(selector)
		if err == nil {
			objs.Ingresses = ings
			objs.Services, err = services.Lister().List(labels.Everything())
		}
		if err == nil {
			objs.EndpointSlices, err = slices.Lister().List(labels.Everything())
		}
		if err != nil {
			err = fmt.Errorf("ingress source kubernetes: list from cache: %w", err)
			k.Store.ReportError(err)
			k.Logger.Error().Err(err).Msg("ingress listing not rebuilt")
			return
		}
		snap, didChange, err := k.Store.Publish(Project(objs))
		if err != nil {
			k.Logger.Error().Err(err).Msg("ingress listing not rebuilt")
			return
		}
		k.applied.Store(seen)
		ev := k.Logger.Debug()
		if didChange {
			ev = k.Logger.Info()
		}
		ev.Int("ingresses", len(objs.Ingresses)).Int("hosts", snap.Hosts).Int("paths", snap.Paths).
			Str("etag", snap.ETag).Bool("changed", didChange).Msg("ingress listing rebuilt")
	}

	rebuild()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-changed:
			rebuild()
		}
	}
}

func (k *KubernetesSource) notSynced(ctx context.Context, what string) error {
	if ctx.Err() != nil {
		return nil // stopped before the caches synced: a shutdown, not a failure
	}
	return fmt.Errorf("ingress source kubernetes: informer cache for %s did not sync", what)
}

// changeHandler signals a rebuild on every add, update and delete. Updates
// that keep the resourceVersion (informer resyncs) change nothing and are
// ignored. The channel holds one pending signal, so any number of events
// arriving during a rebuild cause exactly one more.
func (k *KubernetesSource) changeHandler(changed chan<- struct{}) cache.ResourceEventHandlerFuncs {
	signal := func() {
		k.seen.Add(1)
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) { signal() },
		UpdateFunc: func(oldObj, newObj any) {
			o, okOld := oldObj.(metav1.Object)
			n, okNew := newObj.(metav1.Object)
			if okOld && okNew && o.GetResourceVersion() == n.GetResourceVersion() && o.GetResourceVersion() != "" {
				return
			}
			signal()
		},
		DeleteFunc: func(any) { signal() },
	}
}
