package ingress

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// DecodeStats says what a decoded file contained besides the objects, so
// the source can log it: a dump of `kubectl get all` is accepted, and the
// operator should see that its Pods were skipped rather than wonder.
type DecodeStats struct {
	Documents int
	Ignored   map[string]int // kind → count of objects of kinds we do not use
}

// typeHeader is the part of every Kubernetes object (and list) needed to
// decide how to decode the rest.
type typeHeader struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"metadata"`
	Items []json.RawMessage `json:"items"`
}

// The API versions we read. Older ones (extensions/v1beta1 Ingress,
// discovery.k8s.io/v1beta1 EndpointSlice) have other field layouts; they
// are refused with an error rather than half understood.
var wantedKinds = map[string]string{
	"Ingress":       "networking.k8s.io/v1",
	"Service":       "v1",
	"EndpointSlice": "discovery.k8s.io/v1",
}

// DecodeObjects reads Kubernetes objects in the form kubectl prints them:
// YAML or JSON, one document or several separated by "---", each an object
// or a List (kind List or <Kind>List) of objects. Ingress, Service and
// EndpointSlice objects are kept; other kinds are counted and skipped.
// Objects without a namespace get "default", as kubectl would apply them.
// Errors name the document (1-based) and, inside a list, the item.
func DecodeObjects(r io.Reader) (Objects, DecodeStats, error) {
	var objs Objects
	stats := DecodeStats{Ignored: map[string]int{}}
	dec := utilyaml.NewYAMLOrJSONDecoder(r, 4096)
	for doc := 1; ; doc++ {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return objs, stats, nil
		}
		if err != nil {
			return Objects{}, stats, fmt.Errorf("document %d: %w", doc, err)
		}
		if len(raw) == 0 || string(raw) == "null" {
			continue // an empty document between two "---"
		}
		stats.Documents++
		if err := decodeDocument(raw, &objs, &stats); err != nil {
			return Objects{}, stats, fmt.Errorf("document %d: %w", doc, err)
		}
	}
}

func decodeDocument(raw json.RawMessage, objs *Objects, stats *DecodeStats) error {
	var head typeHeader
	if err := json.Unmarshal(raw, &head); err != nil {
		return fmt.Errorf("not a Kubernetes object: %w", err)
	}
	if head.Kind == "" {
		return errors.New("no kind: expected a Kubernetes object or List with apiVersion and kind")
	}
	if !strings.HasSuffix(head.Kind, "List") {
		return decodeObject(raw, head, objs, stats)
	}
	// kind: List holds items that carry their own kind; a typed list such
	// as IngressList may omit it, so the item kind defaults to the list's.
	itemKind := strings.TrimSuffix(head.Kind, "List")
	for i, item := range head.Items {
		var itemHead typeHeader
		if err := json.Unmarshal(item, &itemHead); err != nil {
			return fmt.Errorf("item %d: not a Kubernetes object: %w", i+1, err)
		}
		if itemHead.Kind == "" && itemKind != "" {
			itemHead.Kind, itemHead.APIVersion = itemKind, head.APIVersion
		}
		if itemHead.Kind == "" {
			return fmt.Errorf("item %d: no kind", i+1)
		}
		if err := decodeObject(item, itemHead, objs, stats); err != nil {
			return fmt.Errorf("item %d: %w", i+1, err)
		}
	}
	return nil
}

func decodeObject(raw json.RawMessage, head typeHeader, objs *Objects, stats *DecodeStats) error {
	wantVersion, wanted := wantedKinds[head.Kind]
	if !wanted {
		stats.Ignored[head.Kind]++
		return nil
	}
	what := head.Kind + " " + objectName(head)
	if head.APIVersion != wantVersion {
		return fmt.Errorf("%s: apiVersion %q is not supported; expected %q", what, head.APIVersion, wantVersion)
	}
	if head.Metadata.Name == "" {
		return fmt.Errorf("%s: metadata.name is empty", head.Kind)
	}
	switch head.Kind {
	case "Ingress":
		var ing networkingv1.Ingress
		if err := json.Unmarshal(raw, &ing); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		defaultNamespace(&ing.Namespace)
		objs.Ingresses = append(objs.Ingresses, &ing)
	case "Service":
		var svc corev1.Service
		if err := json.Unmarshal(raw, &svc); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		defaultNamespace(&svc.Namespace)
		objs.Services = append(objs.Services, &svc)
	case "EndpointSlice":
		var eps discoveryv1.EndpointSlice
		if err := json.Unmarshal(raw, &eps); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		defaultNamespace(&eps.Namespace)
		objs.EndpointSlices = append(objs.EndpointSlices, &eps)
	}
	return nil
}

func objectName(head typeHeader) string {
	ns := head.Metadata.Namespace
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + head.Metadata.Name
}

func defaultNamespace(ns *string) {
	if *ns == "" {
		*ns = "default"
	}
}
