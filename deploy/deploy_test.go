// Package deploy holds docweave's deployment files (Kubernetes manifests,
// the NATS cluster configuration, the container build and the systemd
// unit). Its only Go code is this test: it parses every manifest with the
// real Kubernetes types and every NATS configuration with the real
// nats-server parser, loads the shipped docweave.yaml with the real
// configuration loader, and checks that the pieces name each other
// correctly — so a typo in a field, a stage name or a Service selector fails
// CI instead of a rollout.
package deploy

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/docweave/docweave/config"
)

// The stage names of `docweave stage --stages` and the servers of
// `docweave serve --servers` (docs/scale-out.md).
var (
	stageNames  = []string{"discover", "clone", "join", "render", "assemble", "finish", "verifylinks", "publishreload"}
	serverNames = []string{"docs", "webhook", "admin", "livereload"}
	// Stages that must share a process because they share local disk.
	stageGroups = [][]string{{"clone", "join"}, {"assemble", "finish", "publishreload"}}
)

const (
	stagesDir     = "kubernetes/stages"
	natsDir       = "kubernetes/nats"
	secretName    = "docweave-secrets"
	configMapName = "docweave-config"
	configPath    = "/etc/docweave/docweave.yaml"
)

// manifests are the typed objects of one directory, by kind and name.
type manifests struct {
	deployments  map[string]*appsv1.Deployment
	statefulSets map[string]*appsv1.StatefulSet
	services     map[string]*corev1.Service
	configMaps   map[string]*corev1.ConfigMap
	budgets      map[string]*policyv1.PodDisruptionBudget
	policies     map[string]*networkingv1.NetworkPolicy
}

type kustomization struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Namespace  string   `json:"namespace"`
	Resources  []string `json:"resources"`
	Labels     any      `json:"labels"`
	Images     any      `json:"images"`
}

// loadDir decodes every manifest of dir strictly (an unknown or misspelt
// field is an error) into the Kubernetes API types, and checks that the
// kustomization lists exactly the manifest files.
func loadDir(t *testing.T, dir string) manifests {
	t.Helper()
	m := manifests{
		deployments:  map[string]*appsv1.Deployment{},
		statefulSets: map[string]*appsv1.StatefulSet{},
		services:     map[string]*corev1.Service{},
		configMaps:   map[string]*corev1.ConfigMap{},
		budgets:      map[string]*policyv1.PodDisruptionBudget{},
		policies:     map[string]*networkingv1.NetworkPolicy{},
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s (%v)", dir, err)
	}
	var resources []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(file) == "kustomization.yaml" {
			var k kustomization
			if err := yaml.UnmarshalStrict(data, &k); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if k.Kind != "Kustomization" || k.Namespace != "docweave" {
				t.Errorf("%s: kind %q namespace %q, want a Kustomization for namespace docweave", file, k.Kind, k.Namespace)
			}
			resources = k.Resources
			continue
		}
		for i, doc := range splitDocuments(data) {
			decodeObject(t, m, file, i, doc)
		}
	}
	var want []string
	for _, f := range files {
		if b := filepath.Base(f); b != "kustomization.yaml" {
			want = append(want, b)
		}
	}
	got := slices.Clone(resources)
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("%s/kustomization.yaml resources %v, want exactly the manifest files %v", dir, resources, want)
	}
	return m
}

func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	for _, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		if strings.TrimSpace(stripComments(doc)) != "" {
			docs = append(docs, []byte(doc))
		}
	}
	return docs
}

func stripComments(doc string) string {
	var b strings.Builder
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

func decodeObject(t *testing.T, m manifests, file string, index int, doc []byte) {
	t.Helper()
	var head struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := yaml.Unmarshal(doc, &head); err != nil {
		t.Fatalf("%s document %d: %v", file, index, err)
	}
	if head.Metadata.Name == "" {
		t.Fatalf("%s document %d: no metadata.name", file, index)
	}
	var target any
	switch head.Kind {
	case "Deployment":
		d := &appsv1.Deployment{}
		m.deployments[head.Metadata.Name], target = d, d
	case "StatefulSet":
		s := &appsv1.StatefulSet{}
		m.statefulSets[head.Metadata.Name], target = s, s
	case "Service":
		s := &corev1.Service{}
		m.services[head.Metadata.Name], target = s, s
	case "ConfigMap":
		c := &corev1.ConfigMap{}
		m.configMaps[head.Metadata.Name], target = c, c
	case "PodDisruptionBudget":
		p := &policyv1.PodDisruptionBudget{}
		m.budgets[head.Metadata.Name], target = p, p
	case "NetworkPolicy":
		p := &networkingv1.NetworkPolicy{}
		m.policies[head.Metadata.Name], target = p, p
	default:
		t.Fatalf("%s document %d: kind %q is not one this test knows; extend decodeObject", file, index, head.Kind)
	}
	if err := yaml.UnmarshalStrict(doc, target); err != nil {
		t.Fatalf("%s document %d (%s %s): %v", file, index, head.Kind, head.Metadata.Name, err)
	}
}

// flagValue returns the value after flag in args, "" when absent.
func flagValue(args []string, flag string) string {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
	}
	return ""
}

func TestEveryStageRunsInExactlyOneDeploymentWithItsPartners(t *testing.T) {
	m := loadDir(t, stagesDir)
	owner := map[string]string{}
	for name, d := range m.deployments {
		c := d.Spec.Template.Spec.Containers[0]
		if len(c.Args) == 0 || c.Args[0] != "stage" {
			continue
		}
		list := flagValue(c.Args, "--stages")
		if list == "" {
			t.Errorf("deployment %s: `stage` without --stages", name)
			continue
		}
		for _, s := range strings.Split(list, ",") {
			if !slices.Contains(stageNames, s) {
				t.Errorf("deployment %s: --stages names %q, expected one of %v", name, s, stageNames)
			}
			if prev, dup := owner[s]; dup {
				t.Errorf("stage %s runs in both %s and %s", s, prev, name)
			}
			owner[s] = name
		}
	}
	for _, s := range stageNames {
		if owner[s] == "" {
			t.Errorf("no deployment runs stage %s", s)
		}
	}
	for _, group := range stageGroups {
		for _, s := range group[1:] {
			if owner[s] != owner[group[0]] {
				t.Errorf("stage %s runs in %s but %s in %s: %v share local disk and must run together", s, owner[s], group[0], owner[group[0]], group)
			}
		}
		// Replicas of the site group would receive each other's messages
		// and miss the site on the other pod's disk (see the manifests'
		// comments); the acquire group and the render replicas share
		// nothing on disk and scale.
		d := m.deployments[owner[group[0]]]
		if d == nil || group[0] != "assemble" {
			continue
		}
		if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
			t.Errorf("deployment %s (%v): want 1 replica and the Recreate strategy", d.Name, group)
		}
	}
	for _, want := range []string{"docweave-acquire", "docweave-render", "docweave-discover", "docweave-verifylinks"} {
		if m.deployments[want] == nil {
			t.Errorf("deployment %s is missing", want)
		}
	}
}

func TestStageDeploymentsProbeHealthOnTheirMetricsPort(t *testing.T) {
	m := loadDir(t, stagesDir)
	for name, d := range m.deployments {
		c := d.Spec.Template.Spec.Containers[0]
		if c.Args[0] != "stage" {
			continue
		}
		addr := flagValue(c.Args, "--metrics-addr")
		if addr != ":9090" {
			t.Errorf("deployment %s: --metrics-addr %q, want :9090", name, addr)
		}
		port := containerPort(c, "metrics")
		if port != 9090 {
			t.Errorf("deployment %s: container port metrics = %d, want 9090 (the --metrics-addr port)", name, port)
		}
		for kind, p := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
			if p == nil || p.HTTPGet == nil {
				t.Errorf("deployment %s: no HTTP %s probe", name, kind)
				continue
			}
			if p.HTTPGet.Path != "/health" || p.HTTPGet.Port.String() != "metrics" {
				t.Errorf("deployment %s: %s probe %s on port %s, want /health on port metrics", name, kind, p.HTTPGet.Path, p.HTTPGet.Port.String())
			}
		}
		if d.Spec.Template.Annotations["prometheus.io/port"] != "9090" {
			t.Errorf("deployment %s: prometheus.io/port annotation %q, want 9090", name, d.Spec.Template.Annotations["prometheus.io/port"])
		}
	}
}

func TestServeDeploymentRunsTheFourServersWithProbes(t *testing.T) {
	m := loadDir(t, stagesDir)
	d := m.deployments["docweave-serve"]
	if d == nil {
		t.Fatal("deployment docweave-serve is missing")
	}
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 2 {
		t.Errorf("docweave-serve replicas %v, want 2", d.Spec.Replicas)
	}
	c := d.Spec.Template.Spec.Containers[0]
	if c.Args[0] != "serve" {
		t.Fatalf("docweave-serve args %v, want the serve command", c.Args)
	}
	servers := strings.Split(flagValue(c.Args, "--servers"), ",")
	sort.Strings(servers)
	want := slices.Clone(serverNames)
	sort.Strings(want)
	if !slices.Equal(servers, want) {
		t.Errorf("docweave-serve --servers %v, want %v", servers, want)
	}
	// The ports of daemon.http's defaults, which the ConfigMap keeps.
	for name, port := range map[string]int32{"docs": 8080, "webhook": 8081, "admin": 8082, "livereload": 8083} {
		if got := containerPort(c, name); got != port {
			t.Errorf("docweave-serve container port %s = %d, want %d", name, got, port)
		}
	}
	if p := c.ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/ready" || p.HTTPGet.Port.String() != "admin" {
		t.Errorf("docweave-serve readiness probe %+v, want GET /ready on port admin", p)
	}
	if p := c.LivenessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/health" {
		t.Errorf("docweave-serve liveness probe %+v, want GET /health", p)
	}
}

func TestEveryDocweavePodGetsConfigSecretsResourcesAndAWritableWorkDir(t *testing.T) {
	m := loadDir(t, stagesDir)
	for name, d := range m.deployments {
		if got, want := d.Spec.Selector.MatchLabels["app.kubernetes.io/name"], d.Spec.Template.Labels["app.kubernetes.io/name"]; got == "" || got != want {
			t.Errorf("deployment %s: selector %q does not match the pod label %q", name, got, want)
		}
		spec := d.Spec.Template.Spec
		c := spec.Containers[0]
		if c.Image != "docweave" {
			t.Errorf("deployment %s: image %q, want docweave (kustomization.yaml sets the tag)", name, c.Image)
		}
		if got := flagValue(c.Args, "-c"); got != configPath {
			t.Errorf("deployment %s: -c %q, want %s", name, got, configPath)
		}
		if !mounts(c, configPath) || !hasConfigMapVolume(spec, configMapName) {
			t.Errorf("deployment %s: the ConfigMap %s is not mounted at %s", name, configMapName, configPath)
		}
		if !mounts(c, "/var/lib/docweave") {
			t.Errorf("deployment %s: nothing writable mounted at /var/lib/docweave (workspace and output; the root filesystem is read-only)", name)
		}
		if len(c.EnvFrom) != 1 || c.EnvFrom[0].SecretRef == nil || c.EnvFrom[0].SecretRef.Name != secretName {
			t.Errorf("deployment %s: want envFrom the Secret %s (every ${VAR} of docweave.yaml)", name, secretName)
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("deployment %s: want CPU and memory requests and a memory limit, got %+v", name, c.Resources)
		}
		if c.SecurityContext == nil || c.SecurityContext.ReadOnlyRootFilesystem == nil || !*c.SecurityContext.ReadOnlyRootFilesystem {
			t.Errorf("deployment %s: want a read-only root filesystem", name)
		}
	}
	if m.configMaps[configMapName] == nil {
		t.Errorf("ConfigMap %s is missing", configMapName)
	}
}

func TestServicesSelectPodsAndNamedPorts(t *testing.T) {
	for _, dir := range []string{stagesDir, natsDir} {
		m := loadDir(t, dir)
		for name, svc := range m.services {
			var pod *corev1.PodTemplateSpec
			for _, d := range m.deployments {
				if labelsMatch(svc.Spec.Selector, d.Spec.Template.Labels) {
					pod = &d.Spec.Template
				}
			}
			for _, s := range m.statefulSets {
				if labelsMatch(svc.Spec.Selector, s.Spec.Template.Labels) {
					pod = &s.Spec.Template
				}
			}
			if pod == nil {
				t.Errorf("%s: service %s selects no pod (selector %v)", dir, name, svc.Spec.Selector)
				continue
			}
			for _, p := range svc.Spec.Ports {
				if containerPort(pod.Spec.Containers[0], p.TargetPort.String()) == 0 {
					t.Errorf("%s: service %s targets port %q, which the pod does not declare", dir, name, p.TargetPort.String())
				}
			}
		}
	}
}

func TestConfigMapDocweaveYAMLLoadsForTheCluster(t *testing.T) {
	stages := loadDir(t, stagesDir)
	nats := loadDir(t, natsDir)
	data := stages.configMaps[configMapName].Data["docweave.yaml"]
	if data == "" {
		t.Fatalf("ConfigMap %s has no docweave.yaml", configMapName)
	}
	// Every variable the file references must be in the Secret the
	// kustomization tells operators to create.
	kust, err := os.ReadFile(filepath.Join(stagesDir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	vars := regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`).FindAllStringSubmatch(stripComments(data), -1)
	if len(vars) == 0 {
		t.Fatal("docweave.yaml references no ${VAR}; the test of secrets would prove nothing")
	}
	for _, v := range vars {
		if !bytes.Contains(kust, []byte("--from-literal="+v[1]+"=")) {
			t.Errorf("docweave.yaml references ${%s}, but the Secret recipe in kustomization.yaml does not create it", v[1])
		}
		t.Setenv(v[1], "test-value-of-"+v[1])
	}
	cfg, err := config.LoadBytes([]byte(data), t.TempDir(), config.ModeDaemon)
	if err != nil {
		t.Fatalf("docweave.yaml of ConfigMap %s does not load in daemon mode:\n%v", configMapName, err)
	}
	if got := cfg.Build.ArtifactStoreFor(cfg.Broker.External()); got != config.ArtifactStoreBroker {
		t.Errorf("build.artifact_store %q resolves to %q, want broker: pods share no disk", cfg.Build.ArtifactStore, got)
	}
	if cfg.Broker.URL != "nats://docweave-nats:4222" {
		t.Errorf("broker.url = %q, want nats://docweave-nats:4222 (the NATS client Service)", cfg.Broker.URL)
	}
	if cfg.Site.Name == "" || cfg.Site.Name != cfg.SiteName() {
		t.Errorf("site.name %q: the shipped file names its site, so its broker resources are recognisable", cfg.Site.Name)
	}
	svc := nats.services["docweave-nats"]
	if svc == nil || svc.Spec.Ports[0].Port != 4222 {
		t.Errorf("the NATS client Service docweave-nats on port 4222 that broker.url names is missing: %+v", svc)
	}
	for _, dir := range []string{cfg.Output.Directory, cfg.Build.WorkspaceDir} {
		if !strings.HasPrefix(dir, "/var/lib/docweave/") {
			t.Errorf("path %s is outside the pods' writable /var/lib/docweave", dir)
		}
	}
	ports := cfg.Daemon.HTTP
	if ports.DocsPort != 8080 || ports.WebhookPort != 8081 || ports.AdminPort != 8082 || ports.LiveReloadPort != 8083 {
		t.Errorf("daemon.http ports %+v, want 8080-8083 as serve.yaml declares", ports)
	}
}

func TestNATSStatefulSetFormsAThreeNodeCluster(t *testing.T) {
	m := loadDir(t, natsDir)
	sts := m.statefulSets["docweave-nats"]
	if sts == nil {
		t.Fatal("StatefulSet docweave-nats is missing")
	}
	if sts.Spec.Replicas == nil || *sts.Spec.Replicas != 3 {
		t.Errorf("replicas %v, want 3", sts.Spec.Replicas)
	}
	headless := m.services[sts.Spec.ServiceName]
	if headless == nil || headless.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Fatalf("serviceName %q: want a headless Service of that name", sts.Spec.ServiceName)
	}
	if len(sts.Spec.VolumeClaimTemplates) != 1 || !mounts(sts.Spec.Template.Spec.Containers[0], "/data") {
		t.Error("want a persistent volume per pod mounted at /data (the JetStream store)")
	}
	c := sts.Spec.Template.Spec.Containers[0]
	for kind, p := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe, "startup": c.StartupProbe} {
		if p == nil || p.HTTPGet == nil || !strings.HasPrefix(p.HTTPGet.Path, "/healthz") {
			t.Errorf("no %s probe on /healthz", kind)
		}
	}
	if pdb := m.budgets["docweave-nats"]; pdb == nil || pdb.Spec.MaxUnavailable == nil || pdb.Spec.MaxUnavailable.IntValue() != 1 {
		t.Error("want a PodDisruptionBudget allowing one NATS node down at a time")
	}

	// The configuration, parsed by nats-server itself with the environment
	// the StatefulSet gives pod 1.
	t.Setenv("POD_NAME", "docweave-nats-1")
	t.Setenv("CLUSTER_ADVERTISE", "docweave-nats-1.docweave-nats-headless:6222")
	opts := parseNATSConfig(t, m.configMaps["docweave-nats-config"].Data["nats.conf"])
	if opts.ServerName != "docweave-nats-1" {
		t.Errorf("server_name = %q, want the pod name", opts.ServerName)
	}
	var wantRoutes []string
	for i := range 3 {
		wantRoutes = append(wantRoutes, "docweave-nats-"+string(rune('0'+i))+"."+sts.Spec.ServiceName+":6222")
	}
	checkClusterOptions(t, opts, wantRoutes)
	if opts.Cluster.Advertise != "docweave-nats-1.docweave-nats-headless:6222" {
		t.Errorf("cluster advertise = %q", opts.Cluster.Advertise)
	}
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	if env["CLUSTER_ADVERTISE"] != "$(POD_NAME)."+sts.Spec.ServiceName+":6222" {
		t.Errorf("CLUSTER_ADVERTISE = %q, want $(POD_NAME).%s:6222", env["CLUSTER_ADVERTISE"], sts.Spec.ServiceName)
	}
}

func TestStandaloneNATSClusterConfigParses(t *testing.T) {
	data, err := os.ReadFile("nats/cluster.conf")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("NATS_SERVER_NAME", "nats-2")
	t.Setenv("NATS_CLUSTER_ADVERTISE", "nats-2:6222")
	opts := parseNATSConfig(t, string(data))
	if opts.ServerName != "nats-2" || opts.Cluster.Advertise != "nats-2:6222" {
		t.Errorf("server_name %q, advertise %q: want them from the environment", opts.ServerName, opts.Cluster.Advertise)
	}
	checkClusterOptions(t, opts, []string{"nats-1:6222", "nats-2:6222", "nats-3:6222"})
}

func parseNATSConfig(t *testing.T, text string) *server.Options {
	t.Helper()
	if text == "" {
		t.Fatal("empty NATS configuration")
	}
	path := filepath.Join(t.TempDir(), "nats.conf")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		t.Fatalf("nats-server rejects the configuration: %v", err)
	}
	return opts
}

func checkClusterOptions(t *testing.T, opts *server.Options, wantRoutes []string) {
	t.Helper()
	if !opts.JetStream || opts.StoreDir == "" {
		t.Errorf("JetStream %v with store %q: want JetStream on with a store directory", opts.JetStream, opts.StoreDir)
	}
	if opts.Cluster.Name != "docweave" || opts.Cluster.Port != 6222 {
		t.Errorf("cluster name %q port %d, want docweave on 6222", opts.Cluster.Name, opts.Cluster.Port)
	}
	if opts.Port != 4222 || opts.HTTPPort != 8222 {
		t.Errorf("client port %d, monitoring port %d: want 4222 and 8222", opts.Port, opts.HTTPPort)
	}
	var routes []string
	for _, r := range opts.Routes {
		routes = append(routes, r.Host)
	}
	if !slices.Equal(routes, wantRoutes) {
		t.Errorf("routes %v, want %v", routes, wantRoutes)
	}
	if opts.LameDuckDuration <= 0 {
		t.Error("want a lame-duck duration, so clients move before a node stops")
	}
}

func containerPort(c corev1.Container, name string) int32 {
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort
		}
	}
	return 0
}

func mounts(c corev1.Container, path string) bool {
	return slices.ContainsFunc(c.VolumeMounts, func(v corev1.VolumeMount) bool { return v.MountPath == path })
}

func hasConfigMapVolume(spec corev1.PodSpec, name string) bool {
	return slices.ContainsFunc(spec.Volumes, func(v corev1.Volume) bool {
		return v.ConfigMap != nil && v.ConfigMap.Name == name
	})
}

func labelsMatch(selector, labels map[string]string) bool {
	if len(selector) == 0 {
		return false
	}
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// What to expose: the docs, live-reload and webhook ports of the serve
// pods are open; their admin port and every stage pod's metrics port admit
// only pods of the namespace; every docweave pod is covered.
func TestNetworkPoliciesKeepAdminAndMetricsInside(t *testing.T) {
	m := loadDir(t, stagesDir)
	if len(m.policies) == 0 {
		t.Fatal("no NetworkPolicy in " + stagesDir)
	}
	for name, d := range m.deployments {
		var covering []*networkingv1.NetworkPolicy
		for _, p := range m.policies {
			if selects(p.Spec.PodSelector, d.Spec.Template.Labels) {
				covering = append(covering, p)
			}
		}
		if len(covering) != 1 {
			t.Errorf("deployment %s is covered by %d NetworkPolicies, want 1", name, len(covering))
			continue
		}
		c := d.Spec.Template.Spec.Containers[0]
		for _, port := range c.Ports {
			open, inside := false, false
			for _, rule := range covering[0].Spec.Ingress {
				for _, rp := range rule.Ports {
					if rp.Port == nil || rp.Port.String() != port.Name {
						continue
					}
					if len(rule.From) == 0 {
						open = true
					}
					for _, from := range rule.From {
						if from.PodSelector != nil && len(from.PodSelector.MatchLabels) == 0 && len(from.PodSelector.MatchExpressions) == 0 && from.NamespaceSelector == nil {
							inside = true
						}
					}
				}
			}
			switch port.Name {
			case "docs", "livereload", "webhook":
				if !open {
					t.Errorf("deployment %s: port %s is not reachable from outside", name, port.Name)
				}
			case "admin", "metrics":
				if open || !inside {
					t.Errorf("deployment %s: port %s must admit this namespace's pods only (open %v, inside %v)", name, port.Name, open, inside)
				}
			default:
				t.Errorf("deployment %s: port %s has no exposure rule in this test", name, port.Name)
			}
		}
	}
}

// selects reports whether a label selector matches labels (matchLabels and
// the In operator, which is all the manifests use).
func selects(sel metav1.LabelSelector, labels map[string]string) bool {
	for k, v := range sel.MatchLabels {
		if labels[k] != v {
			return false
		}
	}
	for _, e := range sel.MatchExpressions {
		if e.Operator != metav1.LabelSelectorOpIn || !slices.Contains(e.Values, labels[e.Key]) {
			return false
		}
	}
	return true
}
