package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// Options say what `docweave bench run` measures and how often.
type Options struct {
	// Binary is the docweave executable the cold builds run as child
	// processes (their peak memory is a process's).
	Binary string
	// FloorBinary is the docweave-bench executable whose render-floor
	// command renders the floor's Hugo project as a child process.
	FloorBinary string
	// Baseline, when set, is another docweave executable (say, built from
	// an earlier commit) whose cold builds alternate with Binary's in the
	// same run, for a ratio that does not depend on the machine.
	Baseline string
	// WorkDir holds the farms and every build's files; a temporary
	// directory, removed afterwards, when empty.
	WorkDir string
	// Sizes are the farm sizes measured, smallest first.
	Sizes []Size
	// Repeat is how often each figure is taken; the median is reported.
	Repeat int
	// DaemonBuilds is how many successive one-repository-changed daemon
	// builds run at the largest size (the heap is read after each); at
	// the other sizes Repeat builds run.
	DaemonBuilds int
	// CloneConcurrency is build.clone_concurrency, and the floor's.
	CloneConcurrency int
	// LinkHosts is how many loopback "external sites" the pages link to;
	// LinkLatency is how long each takes to answer.
	LinkHosts   int
	LinkLatency time.Duration
	// IngressRequests is the number of requests per ingress rate sample.
	IngressRequests int
	// Quick marks a smoke-test run (recorded in the report).
	Quick bool
	// Log receives the daemon's and the verifier's logs.
	Log zerolog.Logger
	// Progress, when set, gets one line per step, so a long run shows
	// where it is.
	Progress io.Writer
}

// DefaultOptions are the sizes and repeats of the README's figures: the
// issue's two sizes, five repeats, twenty successive daemon builds.
func DefaultOptions() Options {
	return Options{
		Sizes:            []Size{{Repos: 20, Pages: 50}, {Repos: 50, Pages: 100}},
		Repeat:           5,
		DaemonBuilds:     20,
		CloneConcurrency: 4,
		LinkHosts:        8,
		LinkLatency:      20 * time.Millisecond,
		IngressRequests:  20000,
		Log:              zerolog.Nop(),
	}
}

// QuickOptions are a smoke test of every row in seconds: a tiny farm and
// two repeats. Its figures prove the command works, not how fast docweave is.
func QuickOptions() Options {
	o := DefaultOptions()
	o.Sizes = []Size{{Repos: 2, Pages: 5}}
	o.Repeat = 2
	o.DaemonBuilds = 3
	o.LinkHosts = 2
	o.LinkLatency = 5 * time.Millisecond
	o.IngressRequests = 500
	o.Quick = true
	return o
}

// Validate names the first option that cannot work.
func (o Options) Validate() error {
	switch {
	case o.Binary == "":
		return fmt.Errorf("bench: the docweave binary is required (Options.Binary)")
	case o.FloorBinary == "":
		return fmt.Errorf("bench: the docweave-bench binary is required for the floor's render (Options.FloorBinary)")
	case len(o.Sizes) == 0:
		return fmt.Errorf("bench: sizes: expected at least one REPOSxPAGES size")
	case o.Repeat < 1:
		return fmt.Errorf("bench: repeat: expected at least 1, got %d", o.Repeat)
	case o.DaemonBuilds < 1:
		return fmt.Errorf("bench: daemon-builds: expected at least 1, got %d", o.DaemonBuilds)
	case o.CloneConcurrency < 1:
		return fmt.Errorf("bench: clone-concurrency: expected at least 1, got %d", o.CloneConcurrency)
	case o.LinkHosts < 1:
		return fmt.Errorf("bench: link-hosts: expected at least 1, got %d", o.LinkHosts)
	case o.IngressRequests < 1:
		return fmt.Errorf("bench: ingress-requests: expected at least 1, got %d", o.IngressRequests)
	}
	for _, s := range o.Sizes {
		if s.Repos < 1 || s.Pages < 1 {
			return fmt.Errorf("bench: size %s: expected at least one repository and one page", s)
		}
	}
	return nil
}

// ParseSizes reads "20x50,50x100".
func ParseSizes(text string) ([]Size, error) {
	var sizes []Size
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		r, p, ok := strings.Cut(strings.ToLower(part), "x")
		repos, err1 := strconv.Atoi(r)
		pages, err2 := strconv.Atoi(p)
		if !ok || err1 != nil || err2 != nil || repos < 1 || pages < 1 {
			return nil, fmt.Errorf("sizes: %q: expected REPOSxPAGES with positive numbers, such as 20x50", part)
		}
		sizes = append(sizes, Size{Repos: repos, Pages: pages})
	}
	if len(sizes) == 0 {
		return nil, fmt.Errorf("sizes: %q: expected at least one REPOSxPAGES size, such as 20x50", text)
	}
	return sizes, nil
}
