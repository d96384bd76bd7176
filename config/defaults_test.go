package config

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestDefaultValues(t *testing.T) {
	d := Default()
	lv := d.Daemon.LinkVerification
	cases := []struct {
		key       string
		got, want any
	}{
		{"build.clone_concurrency", d.Build.CloneConcurrency, 4},
		{"build.clone_strategy", d.Build.CloneStrategy, "fresh"},
		{"build.shallow_depth", d.Build.ShallowDepth, 1},
		{"build.max_retries", d.Build.MaxRetries, 2},
		{"build.retry_backoff", d.Build.RetryBackoff, "linear"},
		{"build.retry_initial_delay", d.Build.RetryInitialDelay, time.Second},
		{"build.retry_max_delay", d.Build.RetryMaxDelay, 30 * time.Second},
		{"build.namespace_forges", d.Build.NamespaceForges, "auto"},
		{"build.skip_if_unchanged", d.Build.SkipIfUnchanged, (*bool)(nil)},
		{"build.prune_non_doc_paths", d.Build.PruneNonDocPaths, false},
		{"link_verification.enabled", lv.Enabled, true},
		{"link_verification.broker_url", lv.BrokerURL, "nats://127.0.0.1:4222"},
		{"broker.url", d.Broker.URL, ""},
		{"broker.embedded.listen (in-process only)", d.Broker.Embedded.Listen, ""},
		{"build.artifact_store", d.Build.ArtifactStore, "auto"},
		{"build.artifact_retention", d.Build.ArtifactRetention, time.Hour},
		{"daemon.http.bind_address (every interface)", d.Daemon.HTTP.BindAddress, ""},
		{"link_verification.subject", lv.Subject, "builder.links.broken"},
		{"link_verification.kv_bucket", lv.KVBucket, "builder-link-cache"},
		{"link_verification.cache_ttl", lv.CacheTTL, 24 * time.Hour},
		{"link_verification.cache_ttl_failures", lv.CacheTTLFailures, time.Hour},
		{"link_verification.max_concurrent", lv.MaxConcurrent, 10},
		{"link_verification.request_timeout", lv.RequestTimeout, 10 * time.Second},
		{"link_verification.rate_limit_delay", lv.RateLimitDelay, 100 * time.Millisecond},
		{"link_verification.verify_external_only", lv.VerifyExternalOnly, false},
		{"link_verification.skip_edit_links", lv.SkipEditLinks, true},
		{"link_verification.check_fragments", lv.CheckFragments, false},
		{"link_verification.follow_redirects", lv.FollowRedirects, true},
		{"link_verification.max_redirects", lv.MaxRedirects, 3},
		{"daemon.sync.schedule", d.Daemon.Sync.Schedule, "*/5 * * * *"},
		{"daemon.storage.output_dir", d.Daemon.Storage.OutputDir, "./site"},
		{"daemon.http.docs_port", d.Daemon.HTTP.DocsPort, 8080},
		{"daemon.http.webhook_port", d.Daemon.HTTP.WebhookPort, 8081},
		{"daemon.http.admin_port", d.Daemon.HTTP.AdminPort, 8082},
		{"daemon.http.livereload_port", d.Daemon.HTTP.LiveReloadPort, 8083},
		{"versioning.enabled", d.Versioning.Enabled, false},
		{"versioning.strategy", d.Versioning.Strategy, "branches_and_tags"},
		{"versioning.branch_patterns", d.Versioning.BranchPatterns, []string{"*"}},
		{"versioning.tag_patterns", d.Versioning.TagPatterns, []string{"*"}},
		{"versioning.max_versions_per_repo", d.Versioning.MaxVersionsPerRepo, 10},
		{"generator.taxonomies", d.Generator.Taxonomies, map[string]string{"tag": "tags", "category": "categories"}},
		{"output.directory", d.Output.Directory, "./site"},
		{"output.clean", d.Output.Clean, true},
		{"ingress.port", d.Ingress.Port, 8084},
		{"ingress.cache_control", d.Ingress.CacheControl, "no-store"},
		{"ingress.source.type", d.Ingress.Source.Type, "file"},
	}
	for _, tc := range cases {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s = %#v, want %#v", tc.key, tc.got, tc.want)
		}
	}
}

func TestDefaultReturnsIndependentCopies(t *testing.T) {
	a := Default()
	a.Generator.Taxonomies["tag"] = "changed"
	a.Versioning.BranchPatterns[0] = "changed"
	b := Default()
	if b.Generator.Taxonomies["tag"] != "tags" || b.Versioning.BranchPatterns[0] != "*" {
		t.Fatal("Default shares maps or slices between calls")
	}
}

// An empty-but-for-repositories file must produce exactly Default(), apart
// from the values the loader derives (paths, repositories[].paths).
func TestLoadAppliesDefaults(t *testing.T) {
	path := writeConfig(t, oneRepo)
	c, err := Load(path, ModeDaemon)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	site := filepath.Join(filepath.Dir(path), "site")
	want.Output.Directory = site
	want.Daemon.Storage.OutputDir = site
	want.Repositories = []Repository{{URL: "https://git.example.com/org/handbook.git", Name: "handbook", Paths: []string{"docs"}}}
	want.Path = path
	want.Mode = ModeDaemon
	want.Site.Name = "docweave" // derived: no base_url, no title
	got := *c
	got.loadState = loadState{}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded defaults differ:\n got %+v\nwant %+v", got, want)
	}
}
