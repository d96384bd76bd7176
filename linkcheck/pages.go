package linkcheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// readPages extracts the links of every page, in parallel; a page whose
// content hash is in the cache is not parsed again.
func (r *run) readPages(ctx context.Context, public string, pages []string) ([]PageLinks, error) {
	out := make([]PageLinks, len(pages))
	errs := make([]error, len(pages))
	next := atomic.Int64{}
	workers := min(2*runtime.GOMAXPROCS(0), 16)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(pages) || ctx.Err() != nil {
					return
				}
				out[i], errs[i] = r.readPage(ctx, filepath.Join(public, filepath.FromSlash(pages[i])))
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("verify links: %w", err)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *run) readPage(ctx context.Context, file string) (PageLinks, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return PageLinks{}, fmt.Errorf("read page %s: %w", file, err)
	}
	sum := sha256.Sum256(data)
	key := PageKey(hex.EncodeToString(sum[:]))
	var pl PageLinks
	if r.v.cache != nil {
		ok, err := r.v.cache.Get(ctx, key, &pl)
		if err != nil {
			r.cacheFailed(err, "page lookup")
		} else if ok && pl.Layout == pageLayout {
			return pl, nil
		}
	}
	pl, err = Extract(data)
	if err != nil {
		return PageLinks{}, fmt.Errorf("page %s: %w", file, err)
	}
	r.pagesParsed.Add(1)
	if r.v.cache != nil {
		if err := r.v.cache.Put(ctx, key, pl, r.v.opts.PageTTL); err != nil {
			r.cacheFailed(err, "page store")
		}
	}
	return pl, nil
}
