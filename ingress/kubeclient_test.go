package ingress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const kubeconfigYAML = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:1"}
users:
- name: u
  user: {token: not-a-real-token}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
`

func TestNewClientsetFromKubeconfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(kubeconfigYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	cs, err := NewClientset(path)
	if err != nil || cs == nil {
		t.Fatalf("NewClientset: %v", err)
	}
}

func TestNewClientsetErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	if _, err := NewClientset(missing); err == nil || !strings.Contains(err.Error(), "kubeconfig "+missing) {
		t.Fatalf("missing kubeconfig: %v", err)
	}
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	if _, err := NewClientset(""); err == nil || !strings.Contains(err.Error(), "not running in a cluster") {
		t.Fatalf("no kubeconfig outside a cluster: %v", err)
	}
}

func TestKubeconfigErrorsDoNotLeakTheToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	broken := strings.Replace(kubeconfigYAML, "current-context: x", "current-context: missing", 1)
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := NewClientset(path)
	if err == nil {
		t.Fatal("a kubeconfig whose current context does not exist must fail")
	}
	if strings.Contains(err.Error(), "not-a-real-token") {
		t.Fatalf("error leaks the token: %v", err)
	}
}
