package config

import (
	"strings"
	"testing"
	"time"
)

// ruleCase is one validation rule: a change to a valid configuration and
// the problem it must produce.
type ruleCase struct {
	name   string
	mode   Mode
	change func(c *Config)
	key    string
	want   []string
}

// runRuleCases applies each change to a fresh valid configuration and
// checks the expected problem is reported.
func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := validConfig(t, tc.mode)
			tc.change(c)
			requireProblem(t, c.Validate(), tc.key, tc.want...)
		})
	}
}

func TestBaselineValidatesInEveryMode(t *testing.T) {
	for _, mode := range []Mode{ModeDirect, ModeDaemon, ModeIngress} {
		validConfig(t, mode) // fails the test itself when invalid
	}
}

func TestValidateReportsEverythingSorted(t *testing.T) {
	c := validConfig(t, ModeDaemon)
	c.Repositories = append(c.Repositories, Repository{Name: "bad name"})
	c.Build.CloneStrategy = "x"
	c.Build.MaxRetries = -1
	c.Daemon.HTTP.AdminPort = 8080
	c.Versioning.MaxVersionsPerRepo = 0
	c.Daemon.Sync.Schedule = "nope"
	problems := problemsOf(t, c.Validate())
	wantKeys := []string{
		"build.clone_strategy",
		"build.max_retries",
		"daemon.http.admin_port",
		"daemon.sync.schedule",
		"repositories[1].name",
		"repositories[1].url",
		"versioning.max_versions_per_repo",
	}
	if len(problems) != len(wantKeys) {
		t.Fatalf("got %d problems, want %d:\n%v", len(problems), len(wantKeys), &ValidationError{Problems: problems})
	}
	for i, k := range wantKeys {
		if problems[i].Key != k {
			t.Errorf("problem %d is at %q, want %q", i, problems[i].Key, k)
		}
	}
	text := (&ValidationError{Problems: problems}).Error()
	if n := strings.Count(text, "\n") + 1; n != len(wantKeys) {
		t.Errorf("Error() has %d lines, want one per problem", n)
	}
}

func TestValidateSkipsRulesForKeysWithLoadProblems(t *testing.T) {
	c := validConfig(t, ModeDirect)
	c.Repositories[0].URL = ""
	c.loadState.decodeProblems = []Problem{{Key: "repositories[0].url", Message: "environment variable ${X} is unset"}}
	problems := problemsOf(t, c.Validate())
	if len(problems) != 1 || !strings.Contains(problems[0].Message, "unset") {
		t.Fatalf("want only the load problem, got %v", problems)
	}
}

func TestCheckHelpers(t *testing.T) {
	var l problemList
	checkEnum(&l, "k.enum", "b", "a", "c")
	checkEnum(&l, "k.enum_ok", "a", "a", "c")
	checkRange(&l, "k.count", -1, 0, 10)
	checkRange(&l, "k.count_high", 2_000_000_000, 1, 1_000_000)
	checkRange(&l, "k.count_ok", 0, 0, 10)
	checkDurationRange(&l, "k.neg", -time.Second, 0, time.Hour)
	checkDurationRange(&l, "k.zero_ok", 0, 0, time.Hour)
	checkDurationRange(&l, "k.long", 2*time.Hour, time.Second, time.Hour)
	checkPort(&l, "k.port_low", 0)
	checkPort(&l, "k.port_high", 65536)
	checkPort(&l, "k.port_ok", 65535)
	checkGlobs(&l, "k.globs", []string{"ok-*", "", "[bad"})
	want := map[string]string{
		"k.enum":       `"b" is not allowed; expected one of a, c`,
		"k.count":      "-1 is out of range; expected 0 to 10",
		"k.count_high": "2000000000 is out of range; expected 1 to 1,000,000",
		"k.neg":        "-1s is out of range; expected a duration from 0s to 1h0m0s",
		"k.long":       "2h0m0s is out of range; expected a duration from 1s to 1h0m0s",
		"k.port_low":   "port 0 is out of range; expected 1-65535",
		"k.port_high":  "port 65536 is out of range; expected 1-65535",
		"k.globs[1]":   "is empty; expected a glob pattern",
		"k.globs[2]":   `"[bad" is not a valid glob pattern`,
	}
	if len(l) != len(want) {
		t.Fatalf("got %d problems, want %d: %v", len(l), len(want), l)
	}
	for _, p := range l {
		if !strings.HasPrefix(p.Message, want[p.Key]) {
			t.Errorf("%s: %q, want prefix %q", p.Key, p.Message, want[p.Key])
		}
	}
}

func TestIsSafeSegment(t *testing.T) {
	for s, want := range map[string]bool{
		"docs": true, "api-v2": true, "my_repo.io": true, "-x": true, "A1": true,
		"": false, ".hidden": false, "a/b": false, "a b": false, "..": false, "ü": false, `a\b`: false,
	} {
		if got := isSafeSegment(s); got != want {
			t.Errorf("isSafeSegment(%q) = %v, want %v", s, got, want)
		}
	}
}
