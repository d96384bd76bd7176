package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestUnknownKeys(t *testing.T) {
	cases := []struct {
		name, yaml, key string
		want            []string
	}{
		{"top level typo", oneRepo + "outptu:\n  clean: true\n", "outptu", []string{`did you mean "output"?`}},
		{"nested typo", oneRepo + "build:\n  clone_concurency: 2\n", "build.clone_concurency", []string{`did you mean "clone_concurrency"?`}},
		{"deeply nested", oneRepo + "daemon:\n  link_verification:\n    max_redirect: 2\n", "daemon.link_verification.max_redirect", []string{`did you mean "max_redirects"?`}},
		{"inside a list item", "repositories:\n  - url: u\n    name: n\n    brnch: main\n", "repositories[0].brnch", []string{`did you mean "branch"?`}},
		{"inside auth", "repositories:\n  - url: u\n    name: n\n    auth:\n      tokn: x\n", "repositories[0].auth.tokn", []string{`did you mean "token"?`}},
		{"alias offered as suggestion", oneRepo + "daemon:\n  link_verification:\n    nats_ur: nats://h:4222\n", "daemon.link_verification.nats_ur", []string{`did you mean "nats_url"?`}},
		{"no close match lists the keys", oneRepo + "output:\n  zzzzzzzz: 1\n", "output.zzzzzzzz", []string{"unknown key; expected one of: clean, directory"}},
		{"unknown key with null value", oneRepo + "versioning:\n  enabeld:\n", "versioning.enabeld", []string{`did you mean "enabled"?`}},
		{"dotted unknown key kept whole", oneRepo + "build.clone_strategy: fresh\n", "build.clone_strategy", []string{"unknown key"}},
		// A key dedented out of its section names that section, not the
		// nearest spelling at the wrong level (title was offered "site").
		{"dedented out of its section", oneRepo + "generator:\n  base_url: /\ntitle: Docs\n", "title", []string{"title is a key of generator (generator.title): indent it under generator:"}},
		{"dedented out of a nested section", oneRepo + "build:\n  clone_concurrency: 2\nshallow_depth: 1\n", "shallow_depth", []string{"indent it under build:"}},
		{"dedented out of a list entry", "repositories:\n  - url: u\n    name: n\nbranch: main\n", "branch", []string{"branch is a key of repositories[] (repositories[].branch): indent it under an entry of repositories:"}},
		{"in the wrong section", oneRepo + "daemon:\n  sync:\n    clone_concurrency: 2\n", "daemon.sync.clone_concurrency", []string{"clone_concurrency is a key of build"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadText(t, tc.yaml, ModeDirect)
			requireProblem(t, err, tc.key, tc.want...)
		})
	}
}

func TestFreeFormMapsAreNotChecked(t *testing.T) {
	c := mustLoad(t, oneRepo+`generator:
  params:
    themeVariant: dark
    anything_goes: 1
    nested: {deep: {er: true}}
    dotted.key: kept
  taxonomies:
    series: series
`, ModeDirect)
	if c.Generator.Params["anything_goes"] != 1 || c.Generator.Params["dotted.key"] != "kept" {
		t.Fatalf("params = %v", c.Generator.Params)
	}
	nested, ok := c.Generator.Params["nested"].(map[string]any)
	if !ok || !reflect.DeepEqual(nested["deep"], map[string]any{"er": true}) {
		t.Fatalf("nested params = %#v", c.Generator.Params["nested"])
	}
	// Keys are case-insensitive (viper), so theme parameters arrive lower-cased.
	if c.Generator.Params["themevariant"] != "dark" {
		t.Fatalf("themeVariant not found under its lower-cased key: %v", c.Generator.Params)
	}
	want := map[string]string{"tag": "tags", "category": "categories", "series": "series"}
	if !reflect.DeepEqual(c.Generator.Taxonomies, want) {
		t.Fatalf("taxonomies = %v, want defaults plus series", c.Generator.Taxonomies)
	}
}

func TestTaxonomyEmptyValueRemovesDefault(t *testing.T) {
	c := mustLoad(t, oneRepo+"generator:\n  taxonomies:\n    category: \"\"\n    tag:\n", ModeDirect)
	if len(c.Generator.Taxonomies) != 0 {
		t.Fatalf("taxonomies = %v, want both defaults removed", c.Generator.Taxonomies)
	}
}

func TestWrongTypes(t *testing.T) {
	cases := []struct {
		name, yaml, key string
		want            []string
	}{
		{"string for int", oneRepo + "build:\n  clone_concurrency: four\n", "build.clone_concurrency", []string{`wrong type: got string "four"; expected an integer`}},
		{"float for int", oneRepo + "build:\n  max_retries: 1.5\n", "build.max_retries", []string{"got number 1.5; expected an integer"}},
		{"bool for int", oneRepo + "daemon:\n  http:\n    docs_port: true\n", "daemon.http.docs_port", []string{"got boolean true; expected an integer"}},
		{"word for bool", oneRepo + "output:\n  clean: sometimes\n", "output.clean", []string{`got string "sometimes"; expected a boolean (true or false)`}},
		{"list for string", oneRepo + "generator:\n  title: [a, b]\n", "generator.title", []string{"got a list; expected a string"}},
		{"number for string", "repositories:\n  - url: u\n    name: 2024\n", "repositories[0].name", []string{"got number 2024; expected a string (quote the value"}},
		{"string for list", "repositories:\n  - url: u\n    name: n\n    paths: docs\n", "repositories[0].paths", []string{`got string "docs"; expected a list of strings`}},
		{"number in string list", oneRepo + "versioning:\n  tag_patterns: [v*, 7]\n", "versioning.tag_patterns[1]", []string{"got number 7; expected a string"}},
		{"null in string list", oneRepo + "versioning:\n  tag_patterns: [v*, ~]\n", "versioning.tag_patterns[1]", []string{"got null; expected a string"}},
		{"scalar for section", oneRepo + "build: fast\n", "build", []string{`got string "fast"; expected a mapping of keys`}},
		{"mapping for repositories", "repositories:\n  url: u\n", "repositories", []string{"got a mapping; expected a list of mappings"}},
		{"scalar for repository", "repositories:\n  - just-a-url\n", "repositories[0]", []string{"expected a mapping of keys"}},
		{"list for params", oneRepo + "generator:\n  params: [a]\n", "generator.params", []string{"got a list; expected a mapping"}},
		{"list for taxonomies", oneRepo + "generator:\n  taxonomies: [a]\n", "generator.taxonomies", []string{"expected a mapping of names to strings"}},
		{"number for taxonomy", oneRepo + "generator:\n  taxonomies:\n    tag: 5\n", "generator.taxonomies.tag", []string{"got number 5; expected a string"}},
		{"bare number for duration", oneRepo + "build:\n  retry_max_delay: 30\n", "build.retry_max_delay", []string{"got number 30; expected a duration such as 100ms, 15s, 30m or 24h (a number needs a unit)"}},
		{"malformed duration", oneRepo + "daemon:\n  link_verification:\n    cache_ttl: 1 day\n", "daemon.link_verification.cache_ttl", []string{`malformed duration "1 day"; expected a duration such as 100ms`}},
		{"bool for skip flag", oneRepo + "build:\n  skip_if_unchanged: maybe\n", "build.skip_if_unchanged", []string{"expected a boolean"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadText(t, tc.yaml, ModeDirect)
			p := requireProblem(t, err, tc.key, tc.want...)
			if strings.Contains(p.Message, "mapstructure") || strings.Contains(p.Message, "unconvertible") {
				t.Fatalf("raw decoder text in message: %v", p)
			}
		})
	}
}

func TestWrongTypeOfSecretDoesNotEchoIt(t *testing.T) {
	_, err := loadText(t, `repositories:
  - url: u
    name: n
    auth:
      type: basic
      username: bob
      password: 918273645
      token: true
ingress:
  api_keys: [12345678]
`, ModeIngress)
	for _, key := range []string{"repositories[0].auth.password", "repositories[0].auth.token", "ingress.api_keys[0]"} {
		p := requireProblem(t, err, key, "wrong type")
		for _, secret := range []string{"918273645", "true", "12345678"} {
			if strings.Contains(p.Message, secret) {
				t.Fatalf("%v echoes a secret value", p)
			}
		}
	}
}

func TestNullValuesKeepDefaults(t *testing.T) {
	c := mustLoad(t, oneRepo+"build:\n  clone_strategy:\n  max_retries: ~\ndaemon:\n", ModeDirect)
	if c.Build.CloneStrategy != "fresh" || c.Build.MaxRetries != 2 {
		t.Fatalf("null values replaced defaults: %+v", c.Build)
	}
}

func TestScalarsFromEnvironmentStrings(t *testing.T) {
	t.Setenv("DW_TEST_PORT", "9090")
	t.Setenv("DW_TEST_CLEAN", "false")
	t.Setenv("DW_TEST_TTL", "90m")
	t.Setenv("DW_TEST_SEARCH_OFF", "true")
	c := mustLoad(t, oneRepo+`daemon:
  http:
    docs_port: ${DW_TEST_PORT}
  link_verification:
    cache_ttl: ${DW_TEST_TTL}
output:
  clean: ${DW_TEST_CLEAN}
build:
  max_retries: "5"
generator:
  params:
    disableSearch: ${DW_TEST_SEARCH_OFF}
    customFlag: "${DW_TEST_CLEAN}"
`, ModeDirect)
	if c.Daemon.HTTP.DocsPort != 9090 || c.Output.Clean || c.Daemon.LinkVerification.CacheTTL != 90*time.Minute || c.Build.MaxRetries != 5 {
		t.Fatalf("env-provided scalars not converted: port=%d clean=%v ttl=%s retries=%d",
			c.Daemon.HTTP.DocsPort, c.Output.Clean, c.Daemon.LinkVerification.CacheTTL, c.Build.MaxRetries)
	}
	if c.Generator.Params["disablesearch"] != true {
		t.Fatalf("known boolean param from env = %#v, want bool true", c.Generator.Params["disablesearch"])
	}
	if c.Generator.Params["customflag"] != "false" {
		t.Fatalf("a param not known as boolean must stay a string, got %#v", c.Generator.Params["customflag"])
	}
}

func TestEnvExpansionEverywhere(t *testing.T) {
	t.Setenv("DW_TEST_HOST", "git.example.com")
	t.Setenv("DW_TEST_TOKEN", "tok-123")
	t.Setenv("DW_TEST_PATTERN", "release-*")
	t.Setenv("DW_TEST_COLOR", "teal")
	c := mustLoad(t, `repositories:
  - url: https://${DW_TEST_HOST}/org/a.git
    name: a
    paths: ["${DW_TEST_SUB:-docs}/guide"]
    auth: {type: token, token: "${DW_TEST_TOKEN}"}
versioning:
  branch_patterns: ["${DW_TEST_PATTERN}"]
generator:
  title: "Cost: $$5"
  params:
    palette: {accent: "${DW_TEST_COLOR}"}
    list: ["${DW_TEST_COLOR}", plain]
  taxonomies:
    team: "${DW_TEST_TAXON:-teams}"
`, ModeDirect)
	r := c.Repositories[0]
	if r.URL != "https://git.example.com/org/a.git" || r.Auth.Token != "tok-123" || r.Paths[0] != "docs/guide" {
		t.Fatalf("repository not expanded: %+v", r)
	}
	if c.Versioning.BranchPatterns[0] != "release-*" {
		t.Fatalf("list item not expanded: %v", c.Versioning.BranchPatterns)
	}
	if c.Generator.Title != "Cost: $5" {
		t.Fatalf("$$ not turned into $: %q", c.Generator.Title)
	}
	if got := c.Generator.Params["palette"].(map[string]any)["accent"]; got != "teal" {
		t.Fatalf("nested map value not expanded: %v", got)
	}
	if got := c.Generator.Params["list"].([]any)[0]; got != "teal" {
		t.Fatalf("list in params not expanded: %v", got)
	}
	if c.Generator.Taxonomies["team"] != "teams" {
		t.Fatalf("map value default not applied: %v", c.Generator.Taxonomies)
	}
}

func TestUnsetVariableNamesKeyAndVariable(t *testing.T) {
	_, err := loadText(t, `repositories:
  - url: https://git.example.com/org/a.git
    name: a
    auth: {type: token, token: "${DW_TEST_DEFINITELY_UNSET}"}
generator:
  params:
    nested: ["${DW_TEST_ALSO_UNSET}"]
`, ModeDirect)
	requireProblem(t, err, "repositories[0].auth.token", "${DW_TEST_DEFINITELY_UNSET}", "is unset")
	requireProblem(t, err, "generator.params.nested[0]", "${DW_TEST_ALSO_UNSET}", "is unset")
	// The failed token must not also be reported as missing.
	for _, p := range problemsOf(t, err) {
		if p.Key == "repositories[0].auth.token" && strings.Contains(p.Message, "missing") {
			t.Fatalf("duplicate problem for a key with an expansion error: %v", p)
		}
	}
}

func TestUnknownKeyValuesAreNotExpanded(t *testing.T) {
	_, err := loadText(t, oneRepo+"build:\n  bogus: ${DW_TEST_UNSET_IN_UNKNOWN}\n", ModeDirect)
	problems := problemsOf(t, err)
	if len(problems) != 1 || problems[0].Key != "build.bogus" {
		t.Fatalf("want only the unknown key, got %v", problems)
	}
}

func TestAliases(t *testing.T) {
	t.Run("hugo is generator", func(t *testing.T) {
		c := mustLoad(t, oneRepo+"hugo:\n  title: From Alias\n", ModeDirect)
		if c.Generator.Title != "From Alias" {
			t.Fatalf("title = %q", c.Generator.Title)
		}
	})
	t.Run("nats_url is broker_url", func(t *testing.T) {
		c := mustLoad(t, oneRepo+"daemon:\n  link_verification:\n    nats_url: nats://broker.example:4222\n", ModeDaemon)
		lv := c.Daemon.LinkVerification
		if lv.BrokerURL != "nats://broker.example:4222" || c.Broker.URL != lv.BrokerURL {
			t.Fatalf("broker = %q, broker.url = %q", lv.BrokerURL, c.Broker.URL)
		}
	})
	t.Run("both hugo and generator", func(t *testing.T) {
		_, err := loadText(t, oneRepo+"hugo:\n  title: A\ngenerator:\n  title: B\n", ModeDirect)
		requireProblem(t, err, "hugo", "alias of generator", "set only one of hugo and generator")
	})
	t.Run("both nats_url and broker_url", func(t *testing.T) {
		_, err := loadText(t, oneRepo+"daemon:\n  link_verification:\n    nats_url: nats://a:4222\n    broker_url: nats://b:4222\n", ModeDaemon)
		requireProblem(t, err, "daemon.link_verification.nats_url",
			"alias of daemon.link_verification.broker_url", "set only one of nats_url and broker_url")
	})
	t.Run("problems inside an alias section use the canonical path", func(t *testing.T) {
		_, err := loadText(t, oneRepo+"hugo:\n  titel: A\n", ModeDirect)
		requireProblem(t, err, "generator.titel", `did you mean "title"?`)
	})
}

func TestAllDecodeProblemsReportedTogether(t *testing.T) {
	_, err := loadText(t, `repositories:
  - url: u
    name: n
build:
  clone_concurrency: x
  colne_strategy: fresh
daemon:
  sync:
    schedule: 5
output:
  clean: perhaps
`, ModeDirect)
	problems := problemsOf(t, err)
	keys := map[string]bool{}
	for _, p := range problems {
		keys[p.Key] = true
	}
	for _, k := range []string{"build.clone_concurrency", "build.colne_strategy", "daemon.sync.schedule", "output.clean"} {
		if !keys[k] {
			t.Errorf("missing problem for %s in:\n%v", k, err)
		}
	}
}

func TestDescribeValue(t *testing.T) {
	long := strings.Repeat("x", 100)
	cases := []struct {
		in     any
		secret bool
		want   string
	}{
		{nil, false, "null"},
		{"abc", false, `string "abc"`},
		{"abc", true, "a string"},
		{long, false, `string "` + strings.Repeat("x", 57) + `..."`},
		{true, true, "a boolean"},
		{3, false, "number 3"},
		{3, true, "a number"},
		{[]any{}, false, "a list"},
		{map[string]any{}, false, "a mapping"},
		{struct{}{}, false, "a value of type struct {}"},
	}
	for _, tc := range cases {
		if got := describeValue(tc.in, tc.secret); got != tc.want {
			t.Errorf("describeValue(%v, %v) = %q, want %q", tc.in, tc.secret, got, tc.want)
		}
	}
}
