package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/linkcheck"
	"github.com/docweave/docweave/pipeline/natsbroker"
)

// linkSamples are the link verification figures at one size.
type linkSamples struct {
	Cold, Warm []float64 // seconds
	Checked    int       // distinct targets of the last run
	External   int
	Broken     int
	Requests   int // HTTP requests of the last cold run
}

// linkFigures verifies the links of the site the daemon published, with
// the linkcheck package and the default daemon.link_verification settings,
// against the farm's loopback link servers. Each repeat opens a new,
// empty cache bucket on an embedded broker (cold), then verifies the same
// site again with that cache (warm).
func (f *sizeFarm) linkFigures(ctx context.Context, repeat int) (linkSamples, error) {
	var out linkSamples
	storeDir, err := os.MkdirTemp(f.work, "links-broker-")
	if err != nil {
		return out, fmt.Errorf("link verification broker: %w", err)
	}
	defer os.RemoveAll(storeDir)
	broker, err := natsbroker.Open(ctx, natsbroker.Options{StoreDir: storeDir, Name: "docweave-bench-links"})
	if err != nil {
		return out, err
	}
	defer broker.Close()

	lv := config.Default().Daemon.LinkVerification
	opts := linkcheck.OptionsFromConfig(lv, f.opts.Log)
	site := f.publishedSite()
	for i := 0; i < repeat; i++ {
		bucket := fmt.Sprintf("bench-link-cache-%d", i)
		if err := linkcheck.ProvisionLinks(ctx, broker.JS, linkcheck.LinkResources{Subject: fmt.Sprintf("bench.links.broken.%d", i), Bucket: bucket}); err != nil {
			return out, err
		}
		cache, err := linkcheck.OpenCache(ctx, broker.JS, bucket)
		if err != nil {
			return out, err
		}
		v := linkcheck.NewVerifier(opts, cache)
		before := f.links.Requests()
		start := time.Now()
		res, err := v.Verify(ctx, site, fmt.Sprintf("bench-cold-%d", i))
		if err != nil {
			return out, fmt.Errorf("link verification (cold) on %s: %w", f.size, err)
		}
		out.Cold = append(out.Cold, time.Since(start).Seconds())
		out.Requests = int(f.links.Requests() - before)
		out.Checked, out.External, out.Broken = res.Figures.Checked, res.Figures.External, res.Figures.Broken

		start = time.Now()
		res, err = v.Verify(ctx, site, fmt.Sprintf("bench-warm-%d", i))
		if err != nil {
			return out, fmt.Errorf("link verification (warm) on %s: %w", f.size, err)
		}
		out.Warm = append(out.Warm, time.Since(start).Seconds())
		if res.Figures.Cached == 0 {
			return out, fmt.Errorf("link verification (warm) on %s: no verdict came from the cache; the warm figure would be a second cold one", f.size)
		}
	}
	return out, nil
}

// publishedSite is the daemon's published site as the verifylinks stage
// would see it.
func (f *sizeFarm) publishedSite() linkcheck.Site {
	out := filepath.Join(f.work, "daemon", "site")
	s := linkcheck.Site{PublicDir: filepath.Join(out, "public"), ContentDir: filepath.Join(out, "content")}
	for _, r := range f.repos {
		s.Repositories = append(s.Repositories, linkcheck.Repository{Name: r.Name, ContentPath: f.contentPath(r.Name), Roots: []string{"docs"}})
	}
	return s
}
