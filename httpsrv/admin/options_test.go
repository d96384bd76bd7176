package admin

import (
	"strings"
	"testing"

	"github.com/docweave/docweave/metrics"
)

func validOptions() Options {
	return Options{PublicDir: "/srv/site/public", Metrics: metrics.New(), Backend: newTestBackend()}
}

func TestValidateNamesTheMissingOption(t *testing.T) {
	cases := []struct {
		name   string
		modify func(*Options)
		want   string
	}{
		{"no backend", func(o *Options) { o.Backend = nil }, "Backend is required"},
		{"no metrics", func(o *Options) { o.Metrics = nil }, "Metrics"},
		{"no registry", func(o *Options) { o.Metrics = &metrics.Metrics{} }, "Registry"},
		{"no public dir", func(o *Options) { o.PublicDir = "" }, "PublicDir is required"},
		{"token with space", func(o *Options) { o.Token = "two words" }, "admin.token"},
		{"token with newline", func(o *Options) { o.Token = "tok\n" }, "admin.token"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := validOptions()
			c.modify(&o)
			err := o.Validate()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, c.want)
			}
			if o.Token != "" && strings.Contains(err.Error(), o.Token) {
				t.Fatalf("error reveals the token: %v", err)
			}
		})
	}
}

func TestValidateAcceptsGoodOptions(t *testing.T) {
	o := validOptions()
	if err := o.Validate(); err != nil {
		t.Fatalf("no token: %v", err)
	}
	o.Token = "abc-DEF_123.~+/=="
	if err := o.Validate(); err != nil {
		t.Fatalf("token68 token: %v", err)
	}
}

func TestNewPanicsOnWiringMistake(t *testing.T) {
	defer func() {
		p := recover()
		err, ok := p.(error)
		if !ok || !strings.Contains(err.Error(), "Backend is required") {
			t.Fatalf("recovered %v, want the Validate error", p)
		}
	}()
	o := validOptions()
	o.Backend = nil
	New(o)
}
