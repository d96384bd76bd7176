package ingress

import (
	"fmt"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// NewClientset connects to the API server the way an operator expects: with
// the kubeconfig file at kubeconfigPath when one is given, otherwise with
// the in-cluster service account of the pod. Nothing is contacted yet; the
// informers do that when the source runs.
func NewClientset(kubeconfigPath string) (kubernetes.Interface, error) {
	var (
		cfg *rest.Config
		err error
	)
	if kubeconfigPath == "" {
		cfg, err = rest.InClusterConfig()
		if err != nil {
			return nil, fmt.Errorf("ingress source kubernetes: no kubeconfig given and not running in a cluster: %w", err)
		}
	} else {
		cfg, err = clientcmd.BuildConfigFromFlags("", kubeconfigPath)
		if err != nil {
			return nil, fmt.Errorf("ingress source kubeconfig %s: %w", kubeconfigPath, err)
		}
	}
	cfg.UserAgent = "docweave-ingress"
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("ingress source kubernetes: client: %w", err)
	}
	return cs, nil
}
