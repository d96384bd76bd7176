package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/docweave/docweave/bench/farm"
)

// limit is one of the targets: a ceiling on a row's median or, for
// rows with a reference, on its ratio to the reference.
type limit struct {
	Max     float64
	OnRatio bool
	Text    string
}

// targets are the targets per row.
var targets = map[string]limit{
	RowColdBuild:      {Max: 1.3, OnRatio: true, Text: "≤ 1.3× floor"},
	RowRenderTheme:    {Max: 1.3, OnRatio: true, Text: "≤ 1.3× minimal templates"},
	RowColdPeakRSS:    {Max: 500, Text: "≤ 500 MB at 5,000 pages"},
	RowColdVsBaseline: {Max: 1.1, Text: "≤ 1.1×"},
	// Reported as met or not, never a failure: performance is measured.
	RowColdVsTrueFloor:    {Max: 1.25, Text: trueFloorTarget},
	RowColdCPUVsTrueFloor: {Max: 1.25, Text: trueFloorTarget},
	RowNoChange:           {Max: 0.25, Text: "≤ 250 ms at 50 repositories"},
	RowOneChanged:         {Max: 0.15, OnRatio: true, Text: "≤ 15% of cold build"},
	RowDaemonHeapGrowth:   {Max: 1, Text: "flat: ≤ 1 MB per build"},
}

// trueFloorTarget is issue #33's target against the true floor.
const trueFloorTarget = "≤ 1.25× (moonshot 1.1×)"

// sizeFarm is one farm being measured and everything that serves it.
type sizeFarm struct {
	opts         Options
	size         Size
	work         string
	repos        []farm.Repo
	git          *farm.GitServer
	links        *farm.LinkServers
	contentPaths map[string]string // from the first cold build's report
}

// Run generates a farm per size, measures every figure and returns the
// report. A figure that cannot be taken becomes a row marked not measured,
// with the reason, and the run goes on; only a farm that cannot be made at
// all stops it.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	work := opts.WorkDir
	if work == "" {
		dir, err := os.MkdirTemp("", "docweave-bench-")
		if err != nil {
			return nil, fmt.Errorf("bench work directory: %w", err)
		}
		defer os.RemoveAll(dir)
		work = dir
	}
	rep := &Report{
		SchemaVersion: SchemaVersion,
		StartedAt:     time.Now().UTC(),
		Machine:       describeMachine(),
		Settings: Settings{
			Sizes: opts.Sizes, Repeat: opts.Repeat, DaemonBuilds: opts.DaemonBuilds,
			CloneConcurrency: opts.CloneConcurrency, LinkHosts: opts.LinkHosts,
			LinkLatencyMS: opts.LinkLatency.Milliseconds(), IngressRequests: opts.IngressRequests, Quick: opts.Quick,
		},
	}
	for i, size := range opts.Sizes {
		builds := opts.Repeat
		if i == len(opts.Sizes)-1 && opts.DaemonBuilds > builds {
			builds = opts.DaemonBuilds
		}
		rows, err := measureSize(ctx, opts, size, filepath.Join(work, size.String()), builds)
		if err != nil {
			return nil, err
		}
		rep.Rows = append(rep.Rows, rows...)
	}
	opts.progress("ingress API rates (%d requests × %d repeats)", opts.IngressRequests, opts.Repeat)
	rep.Rows = append(rep.Rows, ingressRows(ctx, opts)...)
	rep.applyTargets(targets)
	rep.Machine.LoadEnd = loadAverage()
	rep.FinishedAt = time.Now().UTC()
	return rep, nil
}

// errNoBaseline marks the baseline row of a run without --baseline.
var errNoBaseline = errors.New("no baseline binary (--baseline)")

// measureSize takes every per-size figure on one farm.
func measureSize(ctx context.Context, opts Options, size Size, work string, builds int) ([]Row, error) {
	f := &sizeFarm{opts: opts, size: size, work: work, contentPaths: map[string]string{}}
	opts.progress("%s: generating %d repositories × %d pages", size, size.Repos, size.Pages)
	links, err := farm.StartLinkServers(opts.LinkHosts, opts.LinkLatency)
	if err != nil {
		return nil, err
	}
	defer links.Close()
	f.links = links
	reposDir := filepath.Join(work, "repos")
	if f.repos, err = farm.Generate(farm.Spec{Dir: reposDir, Repos: size.Repos, Pages: size.Pages, LinkBases: links.Bases()}); err != nil {
		return nil, err
	}
	if f.git, err = farm.ServeGit(reposDir); err != nil {
		return nil, err
	}
	defer f.git.Close()

	label := size.String()
	var rows []Row
	var series coldSeries
	var cold, floor, coldRSS, floorRSS, baseline, paired, withTheme, minimal []float64
	var coldErr, floorErr, baselineErr error
	if opts.Baseline == "" {
		baselineErr = errNoBaseline
	}
	// Cold builds and floors alternate, so a change in the machine's load
	// during the run touches both alike.
	for i := 0; i < opts.Repeat && coldErr == nil && floorErr == nil; i++ {
		opts.progress("%s: cold build %d/%d", size, i+1, opts.Repeat)
		c, err := f.coldBuild(ctx, i)
		if err != nil {
			coldErr = err
			break
		}
		cold, coldRSS = append(cold, c.Seconds), append(coldRSS, c.RSSMB)
		if i == 0 {
			for _, r := range c.Report.Repositories {
				f.contentPaths[r.Name] = r.ContentPath
			}
		}
		opts.progress("%s: floor %d/%d", size, i+1, opts.Repeat)
		fl, err := f.floor(ctx, i, false)
		if err != nil {
			floorErr = err
			break
		}
		opts.progress("%s: true floor %d/%d", size, i+1, opts.Repeat)
		tf, err := f.floor(ctx, i, true)
		if err != nil {
			floorErr = err
			break
		}
		if fl.Pages != c.Report.RenderedPages || tf.Pages != c.Report.RenderedPages {
			floorErr = fmt.Errorf("floors of %s rendered %d pages (theme) and %d (one-line templates), the build %d: not the same work", size, fl.Pages, tf.Pages, c.Report.RenderedPages)
			break
		}
		series.add(c, fl, tf)
		floor, floorRSS = append(floor, fl.Seconds), append(floorRSS, fl.RSSMB)
		withTheme, minimal = append(withTheme, fl.RenderSeconds), append(minimal, tf.RenderSeconds)
		if baselineErr == nil {
			opts.progress("%s: baseline cold build %d/%d", size, i+1, opts.Repeat)
			b, err := f.coldBuildWith(ctx, opts.Baseline, fmt.Sprintf("baseline-%d", i), f.repos)
			if err != nil {
				baselineErr = err
			} else {
				baseline = append(baseline, b.Seconds)
				paired = append(paired, c.Seconds/b.Seconds)
			}
		}
	}
	// The largest unit on its own: all repositories of a farm are alike,
	// so the first one.
	var unit, unitRSS []float64
	var unitErr error
	var largest int64
	for i := 0; i < opts.Repeat && unitErr == nil; i++ {
		opts.progress("%s: one repository alone %d/%d", size, i+1, opts.Repeat)
		u, err := f.coldBuildWith(ctx, opts.Binary, fmt.Sprintf("unit-%d", i), f.repos[:1])
		if err != nil {
			unitErr = err
			break
		}
		unit, unitRSS = append(unit, u.Seconds), append(unitRSS, u.RSSMB)
		for _, r := range u.Report.Repositories {
			if r.Render != nil {
				largest = max(largest, r.Render.DurationMS)
			}
		}
	}
	unitRow := row(RowUnitBuild, "cold build of the largest repository alone", label, "s", unit, unitErr, "")
	if unitErr == nil {
		unitRow.Note = fmt.Sprintf("its unit rendered in %d ms; %d pages", largest, size.Pages)
	}
	rows = append(rows,
		row(RowColdBuild, "cold direct build", label, "s", cold, coldErr, RowColdFloor),
		row(RowColdFloor, "floor: git clone + Hugo render in one piece", label, "s", floor, floorErr, ""),
	)
	rows = append(rows, trueFloorRows(label, series, errors.Join(coldErr, floorErr))...)
	rows = append(rows,
		row(RowColdBaseline, "cold direct build by the baseline binary", label, "s", baseline, baselineErr, ""),
		row(RowColdVsBaseline, "cold build ÷ the baseline's, run by run", label, "×", paired, baselineErr, ""),
		row(RowColdPeakRSS, "cold build peak RSS", label, "MB", coldRSS, coldErr, RowFloorPeakRSS),
		row(RowFloorPeakRSS, "floor render peak RSS", label, "MB", floorRSS, floorErr, ""),
		row(RowRenderTheme, "render in one piece with our theme", label, "s", withTheme, floorErr, RowRenderMinimal),
		row(RowRenderMinimal, "the same render with one-line templates", label, "s", minimal, floorErr, ""),
		unitRow,
		row(RowUnitPeakRSS, "peak RSS of the largest repository alone", label, "MB", unitRSS, unitErr, ""),
	)

	opts.progress("%s: daemon, %d no-change and %d one-repository-changed builds", size, opts.Repeat, builds)
	d, err := f.daemonFigures(ctx, opts.Repeat, builds)
	noChange := row(RowNoChange, "daemon: nothing changed → skip decision", label, "s", d.NoChange, err, "")
	oneChanged := row(RowOneChanged, "daemon: one repository changed → rebuilt", label, "s", d.OneChanged, err, RowColdBuild)
	heapErr := err
	var growth []float64
	if err == nil && len(d.HeapMB) < 3 {
		heapErr = fmt.Errorf("needs at least 3 successive builds, ran %d", len(d.HeapMB))
	} else if err == nil {
		growth = []float64{slope(d.HeapMB)}
	}
	heap := row(RowDaemonHeapGrowth, fmt.Sprintf("daemon live heap growth over %d builds", len(d.HeapMB)), label, "MB/build", growth, heapErr, "")
	if err == nil {
		if heapErr == nil {
			last := len(d.HeapMB) - 1
			heap.Note = fmt.Sprintf("live heap after build 1: %.1f MB, after build %d: %.1f MB, series %s; process RSS after build 1: %.0f MB, after build %d: %.0f MB, series %s",
				d.HeapMB[0], last+1, d.HeapMB[last], formatSeries(d.HeapMB), d.RSSMB[0], last+1, d.RSSMB[last], formatSeries(d.RSSMB))
		}
		if len(d.Reused) > 0 {
			oneChanged.Note = fmt.Sprintf("%d of %d repositories reused without a clone in the last rebuild", d.Reused[len(d.Reused)-1], size.Repos)
		}
	}
	rows = append(rows, noChange, oneChanged, heap)

	if err != nil {
		err = fmt.Errorf("no published site: %w", err)
		rows = append(rows, row(RowLinksCold, "link verification, cold cache", label, "s", nil, err, ""),
			row(RowLinksWarm, "link verification, warm cache", label, "s", nil, err, RowLinksCold))
		return rows, nil
	}
	opts.progress("%s: link verification, %d cold and warm runs", size, opts.Repeat)
	l, err := f.linkFigures(ctx, opts.Repeat)
	lc := row(RowLinksCold, "link verification, cold cache", label, "s", l.Cold, err, "")
	lw := row(RowLinksWarm, "link verification, warm cache", label, "s", l.Warm, err, RowLinksCold)
	if err == nil {
		lc.Note = fmt.Sprintf("%d distinct targets (%d external), %d HTTP requests, %d broken", l.Checked, l.External, l.Requests, l.Broken)
	}
	return append(rows, lc, lw), nil
}

// ingressRows measures the ingress API's rates.
func ingressRows(ctx context.Context, opts Options) []Row {
	s, err := ingressFigures(ctx, opts.Repeat, opts.IngressRequests)
	r304 := row(RowIngress304, "ingress API: 304 revalidations", "", "req/s", s.NotModified, err, "")
	r200 := row(RowIngress200, "ingress API: 200 full listings", "", "req/s", s.Full, err, "")
	if err == nil {
		note := fmt.Sprintf("%d paths, %d-byte body, %d parallel keep-alive clients on loopback", s.Paths, s.BodyBytes, ingressClients)
		r304.Note, r200.Note = note, note
	}
	return []Row{r304, r200}
}

// row makes a row from samples, or a not-measured row from err.
func row(id, label, size, unit string, samples []float64, err error, reference string) Row {
	r := Row{ID: id, Label: label, Size: size, Unit: unit, Reference: reference}
	switch {
	case err != nil:
		r.NotMeasured = err.Error()
	case len(samples) == 0:
		r.NotMeasured = "no samples were taken"
	default:
		r.Summary = Summarize(samples)
	}
	return r
}

// applyTargets fills Ratio, Target and Met.
func (r *Report) applyTargets(lims map[string]limit) {
	for i := range r.Rows {
		row := &r.Rows[i]
		lim, hasLimit := lims[row.ID]
		if hasLimit {
			row.Target = lim.Text
		}
		if row.NotMeasured != "" {
			continue
		}
		if row.Reference != "" {
			if ref, ok := r.Find(row.Reference, row.Size); ok && ref.NotMeasured == "" && ref.Summary.Median != 0 {
				ratio := row.Summary.Median / ref.Summary.Median
				row.Ratio = &ratio
			}
		}
		if !hasLimit {
			continue
		}
		value := row.Summary.Median
		if lim.OnRatio {
			if row.Ratio == nil {
				continue
			}
			value = *row.Ratio
		}
		met := value <= lim.Max
		row.Met = &met
	}
}

func formatSeries(v []float64) string {
	s := "["
	for i, x := range v {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.1f", x)
	}
	return s + "]"
}

func (o Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "bench: "+format+"\n", args...)
	}
}
