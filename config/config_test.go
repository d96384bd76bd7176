package config

import "testing"

func TestModeString(t *testing.T) {
	for mode, want := range map[Mode]string{ModeDirect: "direct", ModeDaemon: "daemon", ModeIngress: "ingress", Mode(9): "mode(9)"} {
		if got := mode.String(); got != want {
			t.Errorf("Mode(%d).String() = %q, want %q", int(mode), got, want)
		}
	}
}

func TestModeIngressFollowsModeDaemon(t *testing.T) {
	if ModeIngress != ModeDaemon+1 {
		t.Fatalf("ModeIngress = %d, want ModeDaemon+1 = %d", ModeIngress, ModeDaemon+1)
	}
}

func TestShouldSkipIfUnchanged(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		name string
		mode Mode
		set  *bool
		want bool
	}{
		{"direct default", ModeDirect, nil, false},
		{"direct set true still never skips", ModeDirect, &yes, false},
		{"daemon default", ModeDaemon, nil, true},
		{"daemon set false", ModeDaemon, &no, false},
		{"daemon set true", ModeDaemon, &yes, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{Mode: tc.mode, Build: BuildSettings{SkipIfUnchanged: tc.set}}
			if got := c.ShouldSkipIfUnchanged(); got != tc.want {
				t.Fatalf("ShouldSkipIfUnchanged() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestShouldSkipIfUnchangedFromFile(t *testing.T) {
	direct := mustLoad(t, oneRepo, ModeDirect)
	if direct.Build.SkipIfUnchanged != nil || direct.ShouldSkipIfUnchanged() {
		t.Fatalf("direct mode without the key: SkipIfUnchanged=%v, Should=%v; want nil and false",
			direct.Build.SkipIfUnchanged, direct.ShouldSkipIfUnchanged())
	}
	daemon := mustLoad(t, oneRepo, ModeDaemon)
	if !daemon.ShouldSkipIfUnchanged() {
		t.Fatal("daemon mode without the key should skip unchanged builds")
	}
	off := mustLoad(t, oneRepo+"build:\n  skip_if_unchanged: false\n", ModeDaemon)
	if off.Build.SkipIfUnchanged == nil || *off.Build.SkipIfUnchanged || off.ShouldSkipIfUnchanged() {
		t.Fatal("daemon mode with skip_if_unchanged: false should not skip")
	}
}

func TestAuthStringRedacts(t *testing.T) {
	a := Auth{Type: AuthBasic, Username: "bob", Password: "hunter2-secret"}
	if got := a.String(); got != "basic (credentials redacted)" {
		t.Fatalf("String() = %q", got)
	}
	if got := (Auth{}).String(); got != "none" {
		t.Fatalf("String() of no auth = %q", got)
	}
}
