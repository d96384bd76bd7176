package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/ingress"
)

const testIngressKey = "cmd-test-key-1234567890"

const testCluster = `apiVersion: v1
kind: List
items:
- apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata: {name: docs, namespace: web, resourceVersion: "7"}
  spec:
    rules:
    - host: docs.example.com
      http:
        paths:
        - path: /
          pathType: Prefix
          backend: {service: {name: docs, port: {number: 80}}}
- apiVersion: v1
  kind: Service
  metadata: {name: docs, namespace: web, resourceVersion: "8"}
- apiVersion: discovery.k8s.io/v1
  kind: EndpointSlice
  metadata:
    name: docs-1
    namespace: web
    resourceVersion: "9"
    labels: {kubernetes.io/service-name: docs}
  addressType: IPv4
  endpoints:
  - addresses: [10.0.0.1]
    conditions: {ready: true}
`

// freePort returns a port that was free a moment ago; the command binds it
// itself, as it would in production.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitUntil polls cond; the deadline only guards against a hung test.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fetch GETs url with an optional bearer key; status 0 means no answer.
func fetch(t *testing.T, url, key string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

func TestIngressCommandServesTheFileSource(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cluster.yaml"), []byte(testCluster), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	cfg := "ingress:\n  port: " + strconv.Itoa(port) + "\n  api_keys: [\"${DOCWEAVE_TEST_INGRESS_KEY}\"]\n" +
		"  cache_control: \"private, max-age=5\"\n  source: {type: file, path: cluster.yaml}\n"
	cfgPath := filepath.Join(dir, "docweave.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DOCWEAVE_TEST_INGRESS_KEY", testIngressKey)

	root := newRootCommand()
	root.SetArgs([]string{"ingress", "-c", cfgPath, "--log-level", "error", "--log-format", "json"})
	root.SetOut(io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()

	base := "http://127.0.0.1:" + strconv.Itoa(port)
	waitUntil(t, "/ready", func() bool { code, _ := fetch(t, base+"/ready", ""); return code == 200 })

	req, _ := http.NewRequest("GET", base+"/v1/ingresses", nil)
	req.Header.Set("Authorization", "Bearer "+testIngressKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var list ingress.HostsList
	if resp.StatusCode != 200 || json.Unmarshal(body, &list) != nil {
		t.Fatalf("GET /v1/ingresses: %d %s", resp.StatusCode, body)
	}
	if len(list.Hosts) != 1 || list.Hosts[0].Paths[0].Reachability != ingress.Reachable {
		t.Fatalf("listing = %s", body)
	}
	if got := resp.Header.Get("Cache-Control"); got != "private, max-age=5" {
		t.Fatalf("Cache-Control from the configuration not applied: %q", got)
	}
	if code, _ := fetch(t, base+"/v1/ingresses", ""); code != 401 {
		t.Fatalf("without a key: %d", code)
	}
	if code, body := fetch(t, base+"/metrics", ""); code != 200 || !bytes.Contains(body, []byte(`docweave_ingress_paths{reachability="reachable"} 1`)) {
		t.Fatalf("/metrics: %d", code)
	}
	if code, body := fetch(t, base+"/openapi.json", ""); code != 200 || !bytes.Contains(body, []byte(`"3.1.0"`)) {
		t.Fatalf("/openapi.json: %d", code)
	}

	cancel() // what SIGTERM does through signal.NotifyContext
	if err := <-done; err != nil {
		t.Fatalf("command after shutdown: %v", err)
	}
	if code, _ := fetch(t, base+"/health", ""); code != 0 {
		t.Fatalf("server still answering after shutdown: %d", code)
	}
}

func TestIngressCommandRefusesABadConfiguration(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "docweave.yaml")
	if err := os.WriteFile(cfgPath, []byte("ingress:\n  source: {type: file, path: x.yaml}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := newRootCommand()
	root.SetArgs([]string{"ingress", "-c", cfgPath, "--log-level", "error"})
	err := root.Execute()
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), "ingress.api_keys") {
		t.Fatalf("no API key configured: %v", err)
	}
}

func TestRunIngressPortInUse(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	in := config.Ingress{Port: port, APIKeys: []string{testIngressKey}, Source: config.IngressSource{Type: "file", Path: "unused"}}
	err = runIngress(context.Background(), in, zerolog.Nop(), ingressRuntime{host: "127.0.0.1"})
	want := "ingress port " + strconv.Itoa(port) + ": "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want it to start with %q", err, want)
	}
}

func TestRunIngressFailsWhenTheFileIsMissing(t *testing.T) {
	in := config.Ingress{APIKeys: []string{testIngressKey}, Source: config.IngressSource{Type: "file", Path: filepath.Join(t.TempDir(), "absent.yaml")}}
	err := runIngress(context.Background(), in, zerolog.Nop(), ingressRuntime{host: "127.0.0.1"})
	if err == nil || !strings.Contains(err.Error(), "absent.yaml") {
		t.Fatalf("missing source file: %v", err)
	}
}

func TestRunIngressWithTheKubernetesSource(t *testing.T) {
	client := fake.NewClientset(&networkingv1.Ingress{
		ObjectMeta: metav1.ObjectMeta{Namespace: "web", Name: "api", ResourceVersion: "3"},
		Spec:       networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{Host: "api.example.com"}}},
	})
	in := config.Ingress{APIKeys: []string{testIngressKey}, Source: config.IngressSource{Type: "kubernetes", Namespace: "web"}}
	addr := make(chan net.Addr, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runIngress(ctx, in, zerolog.Nop(), ingressRuntime{
			host: "127.0.0.1", kubeClient: client, onListening: func(a net.Addr) { addr <- a },
		})
	}()
	base := "http://" + (<-addr).String()
	waitUntil(t, "/ready", func() bool { code, _ := fetch(t, base+"/ready", ""); return code == 200 })
	code, body := fetch(t, base+"/v1/ingresses", testIngressKey)
	if code != 200 || !bytes.Contains(body, []byte(`"host":"api.example.com"`)) {
		t.Fatalf("GET /v1/ingresses: %d %s", code, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("runIngress after shutdown: %v", err)
	}
}

func TestNewIngressSourceRejectsUnknownType(t *testing.T) {
	_, err := newIngressSource(config.IngressSource{Type: "consul"}, ingress.NewStore(nil), zerolog.Nop(), ingressRuntime{})
	if err == nil || !strings.Contains(err.Error(), "ingress.source.type") {
		t.Fatalf("unknown type: %v", err)
	}
}

// The manifests under deploy/kubernetes/ingress must agree with the
// command: read-only RBAC covering what the informers watch, a Deployment
// that runs `docweave ingress` with the mounted configuration and probes
// the right endpoints, and a configuration that validates.
func TestIngressDeploymentManifests(t *testing.T) {
	dir := filepath.Join("..", "..", "deploy", "kubernetes", "ingress")
	var (
		role       rbacv1.ClusterRole
		binding    rbacv1.ClusterRoleBinding
		deployment appsv1.Deployment
		configMap  corev1.ConfigMap
		service    corev1.Service
	)
	for file, targets := range map[string][]any{
		"rbac.yaml":       {&role, &binding},
		"deployment.yaml": {&deployment},
		"configmap.yaml":  {&configMap},
		"service.yaml":    {&service},
	} {
		f, err := os.Open(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
		for _, target := range targets {
			if err := dec.Decode(target); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		}
		f.Close()
	}

	want := map[string]string{"ingresses": "networking.k8s.io", "services": "", "endpointslices": "discovery.k8s.io"}
	for _, rule := range role.Rules {
		for _, verb := range rule.Verbs {
			if verb != "get" && verb != "list" && verb != "watch" {
				t.Errorf("ClusterRole grants %q; it must be read-only", verb)
			}
		}
		for _, res := range rule.Resources {
			if group, ok := want[res]; ok && len(rule.APIGroups) == 1 && rule.APIGroups[0] == group && len(rule.Verbs) == 3 {
				delete(want, res)
			}
		}
	}
	if len(want) != 0 {
		t.Errorf("ClusterRole lacks get/list/watch on %v", want)
	}
	if binding.RoleRef.Name != role.Name || len(binding.Subjects) != 1 || binding.Subjects[0].Name != deployment.Spec.Template.Spec.ServiceAccountName {
		t.Errorf("binding %+v does not bind %s to the Deployment's service account", binding, role.Name)
	}

	c := deployment.Spec.Template.Spec.Containers[0]
	if len(c.Args) < 3 || c.Args[0] != "ingress" || c.Args[1] != "-c" {
		t.Fatalf("container args %v, want ingress -c <file>", c.Args)
	}
	mounted := false
	for _, m := range c.VolumeMounts {
		if m.MountPath == c.Args[2] {
			mounted = true
		}
	}
	if !mounted {
		t.Errorf("the configuration %s is not mounted", c.Args[2])
	}
	if c.ReadinessProbe.HTTPGet.Path != "/ready" || c.LivenessProbe.HTTPGet.Path != "/health" {
		t.Errorf("probes %s and %s, want /ready and /health", c.ReadinessProbe.HTTPGet.Path, c.LivenessProbe.HTTPGet.Path)
	}

	// The shipped configuration validates, with its key file replaced by a
	// temporary one (validation reads it).
	text := configMap.Data["docweave.yaml"]
	keyFile := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(keyFile, []byte(testIngressKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	text = strings.Replace(text, "/etc/docweave/keys/keys", keyFile, 1)
	cfg, err := config.LoadBytes([]byte(text), t.TempDir(), config.ModeIngress)
	if err != nil {
		t.Fatalf("shipped configuration does not validate: %v", err)
	}
	if cfg.Ingress.Source.Type != "kubernetes" || int(c.Ports[0].ContainerPort) != cfg.Ingress.Port || service.Spec.Ports[0].Port != int32(cfg.Ingress.Port) {
		t.Errorf("source %q, container port %d, service port %d, configured port %d",
			cfg.Ingress.Source.Type, c.Ports[0].ContainerPort, service.Spec.Ports[0].Port, cfg.Ingress.Port)
	}
}

// Every log line of the ingress interface names its server once, and the
// server listens on ingress.bind_address.
func TestIngressLogLinesCarryTheServerOnce(t *testing.T) {
	client := fake.NewClientset(&networkingv1.Ingress{
		ObjectMeta: metav1.ObjectMeta{Namespace: "web", Name: "api", ResourceVersion: "3"},
		Spec:       networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{Host: "api.example.com"}}},
	})
	in := config.Ingress{BindAddress: "127.0.0.1", APIKeys: []string{testIngressKey}, Source: config.IngressSource{Type: "kubernetes", Namespace: "web"}}
	var logs syncBuffer
	addr := make(chan net.Addr, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- runIngress(ctx, in, zerolog.New(&logs), ingressRuntime{kubeClient: client, onListening: func(a net.Addr) { addr <- a }})
	}()
	a := (<-addr).(*net.TCPAddr)
	if !a.IP.Equal(net.ParseIP("127.0.0.1")) {
		t.Fatalf("listening on %s, want ingress.bind_address 127.0.0.1", a)
	}
	base := "http://" + a.String()
	waitUntil(t, "/ready", func() bool { code, _ := fetch(t, base+"/ready", ""); return code == 200 })
	fetch(t, base+"/v1/ingresses", testIngressKey)
	fetch(t, base+"/v1/ingresses", "wrong-key")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) < 3 {
		t.Fatalf("only %d log lines:\n%s", len(lines), logs.String())
	}
	for _, line := range lines {
		if n := strings.Count(line, `"server":`); n != 1 {
			t.Errorf("log line names the server %d times: %s", n, line)
		}
	}
}

// syncBuffer is a bytes.Buffer that several goroutines may write.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
