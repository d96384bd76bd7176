package dirlock

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// A second holder waits until the first releases the lock; a lock held by
// another process (a child holding it) blocks this one until that
// process is gone.
func TestLockSerialisesHoldersAndProcesses(t *testing.T) {
	path := t.TempDir() + "/work/lock"
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{})
	go func() {
		u, err := Lock(path)
		if err != nil {
			t.Error(err)
			return
		}
		close(got)
		u()
	}()
	select {
	case <-got:
		t.Fatal("a second holder took a held lock")
	case <-time.After(200 * time.Millisecond):
	}
	unlock()
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("the lock was not handed over once released")
	}

	// Another process: flock(1) holds the lock for a moment.
	if _, err := exec.LookPath("flock"); err != nil {
		t.Fatalf("the test needs flock(1) (util-linux): %v", err)
	}
	cmd := exec.Command("flock", path, "sleep", "0.5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	u, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	u()
	_ = cmd.Wait()
	if waited := time.Since(start); waited < 200*time.Millisecond {
		t.Fatalf("took a lock another process held after %s", waited)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}
