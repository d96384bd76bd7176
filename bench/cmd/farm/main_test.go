package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/docweave/docweave/config"
)

func TestRunPrintsALoadableConfiguration(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := run([]string{"-dir", dir, "-repos", "2", "-pages", "3"}, &out); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadBytes(out.Bytes(), dir, config.ModeDirect)
	if err != nil {
		t.Fatalf("printed configuration does not load: %v\n%s", err, out.String())
	}
	if len(cfg.Repositories) != 2 || !strings.HasPrefix(cfg.Repositories[1].URL, "file://") {
		t.Fatalf("repositories %+v", cfg.Repositories)
	}
}

func TestRunRequiresDir(t *testing.T) {
	if err := run(nil, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "-dir is required") {
		t.Fatalf("got %v", err)
	}
}
