package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/report"
)

// CorpusSchemaVersion is the version of the corpus run's JSON layout.
const CorpusSchemaVersion = 1

// AllRow names the row of the build of every repository in one site.
const AllRow = "all (one site)"

// CorpusOptions is one run of `docweave-bench corpus`.
type CorpusOptions struct {
	// File is the corpus: a docweave configuration whose repositories are
	// the documentation to build. Its other sections apply to every build;
	// its output directory and workspace are replaced by the bench's own.
	File string
	// Binary is the docweave executable, run as a child process per build.
	Binary string
	// WorkDir holds a directory per build (configuration, log, report).
	WorkDir string
	// Only restricts the run to these repositories (all when empty).
	Only []string
	// Together adds the build of all the (selected) repositories in one site.
	Together bool
	// Timeout bounds each build; a build that runs out is killed and
	// reported with exit code -1.
	Timeout time.Duration
	// Keep keeps each build's site and workspace; by default they are
	// removed once measured (real sites are large).
	Keep bool
	// Progress receives a line per build; nil for none.
	Progress io.Writer
}

// CorpusResult is what a corpus run measured.
type CorpusResult struct {
	SchemaVersion int         `json:"schema_version"`
	Corpus        string      `json:"corpus"`
	Docweave      string      `json:"docweave"`
	Machine       Machine     `json:"machine"`
	Rows          []CorpusRow `json:"rows"`
}

// CorpusRow is one build: of one repository alone, or of all in one site.
type CorpusRow struct {
	Name         string   `json:"name"`
	Repositories []string `json:"repositories"`
	ExitCode     int      `json:"exit_code"`
	TimedOut     bool     `json:"timed_out,omitempty"`
	// Error says why a build left no report (from the end of its log);
	// Rendered, LeftOut and Issues then mean nothing.
	Error string `json:"error,omitempty"`
	// Given counts the Markdown files under the repositories' configured
	// paths, hidden ones left out (see readGivenTree).
	Given int `json:"given"`
	// NotPages counts the given files that are not pages by the rules of
	// the tool they were written for; NotPageReasons breaks it down.
	NotPages       int            `json:"not_pages"`
	NotPageReasons map[string]int `json:"not_page_reasons,omitempty"`
	// Rendered is the build report's pages rendered from Markdown files.
	Rendered int `json:"rendered"`
	// LeftOut is Given − NotPages − Rendered: pages a reader never sees.
	// Below zero, docweave rendered files that are not pages.
	LeftOut   int            `json:"left_out"`
	Images    imageCount     `json:"images"`
	Issues    map[string]int `json:"issues"`
	Seconds   float64        `json:"seconds"`
	PeakRSSMB float64        `json:"peak_rss_mb"`
	// Parts are the figures of each repository within the one site.
	Parts []CorpusRow `json:"parts,omitempty"`
}

// corpusRepo is one repository of the corpus: its entry as written and
// as docweave reads it.
type corpusRepo struct {
	raw map[string]any
	cfg config.Repository
	git string // the Git directory its files are counted from
}

// corpus is a loaded corpus file.
type corpus struct {
	top   map[string]any // the file's sections but repositories
	repos []*corpusRepo
}

// loadCorpus reads the corpus file as docweave would (validated, ${VAR}
// expanded) and as written (to write each build's configuration).
func loadCorpus(file string, only []string) (*corpus, error) {
	cfg, err := config.Load(file, config.ModeDirect)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", file, err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", file, err)
	}
	var top map[string]any
	if err := yaml.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("corpus %s: %w", file, err)
	}
	raws, _ := top["repositories"].([]any)
	if len(raws) != len(cfg.Repositories) || len(raws) == 0 {
		return nil, fmt.Errorf("corpus %s: list the repositories under repositories: (forges are not read)", file)
	}
	delete(top, "repositories")
	c := &corpus{top: top}
	for i, r := range cfg.Repositories {
		raw, ok := raws[i].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("corpus %s: repositories[%d] is not a mapping", file, i)
		}
		if len(only) > 0 && !slices.Contains(only, r.Name) {
			continue
		}
		entry := maps.Clone(raw)
		entry["url"] = r.URL // expanded: the build's configuration lives elsewhere
		c.repos = append(c.repos, &corpusRepo{raw: entry, cfg: r})
	}
	for _, name := range only {
		if !slices.ContainsFunc(c.repos, func(r *corpusRepo) bool { return r.cfg.Name == name }) {
			return nil, fmt.Errorf("corpus %s: no repository %q", file, name)
		}
	}
	return c, nil
}

// RunCorpus builds each repository of the corpus alone, then (with
// Together) all of them in one site, and measures every build.
func RunCorpus(ctx context.Context, opts CorpusOptions) (*CorpusResult, error) {
	c, err := loadCorpus(opts.File, opts.Only)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.WorkDir, 0o755); err != nil {
		return nil, fmt.Errorf("corpus work directory: %w", err)
	}
	res := &CorpusResult{SchemaVersion: CorpusSchemaVersion, Corpus: opts.File, Docweave: opts.Binary, Machine: describeMachine()}
	for _, r := range c.repos {
		if r.git, err = gitDirOf(ctx, r.cfg, filepath.Join(opts.WorkDir, "given", r.cfg.Name+".git")); err != nil {
			return nil, err
		}
	}
	builds := make([][]*corpusRepo, 0, len(c.repos)+1)
	for _, r := range c.repos {
		builds = append(builds, []*corpusRepo{r})
	}
	if opts.Together && len(c.repos) > 1 {
		builds = append(builds, c.repos)
	}
	for i, repos := range builds {
		name := repos[0].cfg.Name
		if len(repos) > 1 {
			name = AllRow
		}
		progressf(opts.Progress, "corpus: building %s (%d of %d)…", name, i+1, len(builds))
		row, err := c.build(ctx, opts, name, filepath.Join(opts.WorkDir, fmt.Sprintf("build-%d", i)), repos)
		if err != nil {
			return nil, err
		}
		progressf(opts.Progress, " exit %d, %d of %d pages, %.1f s, %.0f MB\n", row.ExitCode, row.Rendered, row.Given-row.NotPages, row.Seconds, row.PeakRSSMB)
		res.Rows = append(res.Rows, row)
	}
	res.Machine.LoadEnd = loadAverage()
	return res, nil
}

func progressf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}

// build runs one docweave build of repos in dir and measures it.
func (c *corpus) build(ctx context.Context, opts CorpusOptions, name, dir string, repos []*corpusRepo) (CorpusRow, error) {
	row := CorpusRow{Name: name, Issues: map[string]int{}}
	for _, r := range repos {
		row.Repositories = append(row.Repositories, r.cfg.Name)
	}
	out, workspace := filepath.Join(dir, "out"), filepath.Join(dir, "workspace")
	cfgPath := filepath.Join(dir, "docweave.yaml")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return row, fmt.Errorf("build %s: %w", name, err)
	}
	if err := c.writeConfig(cfgPath, repos, out, workspace); err != nil {
		return row, fmt.Errorf("build %s: %w", name, err)
	}
	log, err := os.Create(filepath.Join(dir, "build.log"))
	if err != nil {
		return row, fmt.Errorf("build %s: %w", name, err)
	}
	bctx, cancel := ctx, context.CancelFunc(func() {})
	if opts.Timeout > 0 {
		bctx, cancel = context.WithTimeout(ctx, opts.Timeout)
	}
	run, err := measureChild(bctx, opts.Binary, nil, log, "build", "--config", cfgPath, "--log-format", "json", "--log-level", "warn")
	timedOut := bctx.Err() != nil
	cancel()
	log.Close()
	if err != nil {
		return row, fmt.Errorf("build %s: run %s: %w", name, opts.Binary, err)
	}
	if ctx.Err() != nil {
		return row, ctx.Err()
	}
	row.ExitCode, row.TimedOut = run.ExitCode, timedOut
	row.Seconds, row.PeakRSSMB = run.Wall.Seconds(), float64(run.MaxRSSB)/(1<<20)
	rep, err := readBuildReport(filepath.Join(out, "build-report.json"))
	if err != nil {
		row.Error = buildError(filepath.Join(dir, "build.log"), err)
	}
	if err := measureBuild(ctx, &row, rep, repos, filepath.Join(out, "public")); err != nil {
		return row, fmt.Errorf("build %s: %w", name, err)
	}
	if !opts.Keep {
		for _, d := range []string{out + string(filepath.Separator) + "public", workspace} {
			if err := os.RemoveAll(d); err != nil {
				return row, fmt.Errorf("build %s: %w", name, err)
			}
		}
	}
	return row, nil
}

// writeConfig writes the configuration of a build of repos: the corpus
// file's sections with these repositories, output and workspace in dir.
func (c *corpus) writeConfig(file string, repos []*corpusRepo, out, workspace string) error {
	doc := maps.Clone(c.top)
	list := make([]any, 0, len(repos))
	for _, r := range repos {
		list = append(list, r.raw)
	}
	doc["repositories"] = list
	doc["output"] = withKey(doc["output"], "directory", out)
	doc["build"] = withKey(doc["build"], "workspace_dir", workspace)
	data, err := yaml.Marshal(doc)
	if err != nil {
		return fmt.Errorf("write configuration: %w", err)
	}
	return os.WriteFile(file, data, 0o644)
}

// withKey is a copy of the mapping section (or a new one) with key set.
func withKey(section any, key string, value any) map[string]any {
	m, _ := section.(map[string]any)
	m = maps.Clone(m)
	if m == nil {
		m = map[string]any{}
	}
	m[key] = value
	return m
}

// readBuildReport reads a build's build-report.json; nil when there is none.
func readBuildReport(file string) (*report.Report, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var rep report.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &rep, nil
}

// buildError says why a build left no report: the last error its log
// names, else what reading the report said.
func buildError(logFile string, reportErr error) string {
	data, err := os.ReadFile(logFile)
	if err != nil || len(data) == 0 {
		return reportErr.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		var entry struct {
			Level, Error, Message string
		}
		if json.Unmarshal([]byte(lines[i]), &entry) == nil && entry.Level == "error" {
			return tail(strings.TrimSpace(entry.Message+": "+entry.Error), 500)
		}
	}
	return tail(lines[len(lines)-1], 500)
}

// measureBuild fills in row what the build gave, rendered, reported and
// published. rep is nil for a build that left no report.
func measureBuild(ctx context.Context, row *CorpusRow, rep *report.Report, repos []*corpusRepo, public string) error {
	commits := map[string]string{}
	contentPaths := map[string]string{} // the report's, else docweave's default: the name
	for _, r := range repos {
		contentPaths[r.cfg.Name] = r.cfg.Name
	}
	if rep != nil {
		row.Rendered = rep.RenderedPages
		for _, is := range rep.Issues {
			row.Issues[is.Code]++
		}
		for _, r := range rep.Repositories {
			commits[r.Name], contentPaths[r.Name] = r.Commit, r.ContentPath
		}
	}
	images := map[string]*imageCount{}
	if _, err := os.Stat(public); err == nil {
		var err error
		if images, err = siteImages(public, ownerByContentPath(contentPaths)); err != nil {
			return err
		}
	}
	for _, r := range repos {
		part := CorpusRow{Name: r.cfg.Name, Repositories: []string{r.cfg.Name}, ExitCode: row.ExitCode, Issues: map[string]int{}}
		rev := commits[r.cfg.Name]
		if rev == "" {
			rev = "HEAD"
			if r.cfg.Branch != "" {
				rev = r.cfg.Branch
			}
		}
		g, err := readGivenTree(ctx, r.git, rev, r.cfg.DocPaths())
		if err != nil {
			return err
		}
		part.Given, part.NotPages = len(g.Markdown), len(g.NotPages)
		part.NotPageReasons = map[string]int{}
		for _, reason := range g.NotPages {
			part.NotPageReasons[reason]++
		}
		if rep != nil {
			for _, e := range rep.Repositories {
				if e.Name == r.cfg.Name && e.Render != nil {
					part.Rendered += e.Render.Pages
				}
			}
			for _, is := range rep.Issues {
				if is.Repository == r.cfg.Name {
					part.Issues[is.Code]++
				}
			}
		}
		if im := images[r.cfg.Name]; im != nil {
			part.Images = *im
		}
		part.LeftOut = part.Given - part.NotPages - part.Rendered
		row.Parts = append(row.Parts, part)
		row.Given += part.Given
		row.NotPages += part.NotPages
		row.NotPageReasons = addCounts(row.NotPageReasons, part.NotPageReasons)
	}
	for _, im := range images {
		row.Images.Referenced += im.Referenced
		row.Images.Published += im.Published
		row.Images.External += im.External
		row.Images.Missing = append(row.Images.Missing, im.Missing...)
	}
	if len(row.Images.Missing) > missingShown {
		row.Images.Missing = row.Images.Missing[:missingShown]
	}
	row.LeftOut = row.Given - row.NotPages - row.Rendered
	if len(repos) == 1 {
		row.Parts = nil // the row is its one part
	}
	return nil
}

// addCounts adds b into a (allocating a when nil) and returns it.
func addCounts(a, b map[string]int) map[string]int {
	if a == nil {
		a = map[string]int{}
	}
	for k, v := range b {
		a[k] += v
	}
	return a
}

// ownerByContentPath attributes a site path to the repository whose
// pages it is under (/docs/<content path>/); the site's own pages (home,
// tags) to "".
func ownerByContentPath(contentPaths map[string]string) func(string) string {
	return func(sitePath string) string {
		best, owner := 0, ""
		for name, cp := range contentPaths {
			cp = "/docs/" + strings.Trim(cp, "/") + "/"
			if len(cp) > best && strings.HasPrefix(sitePath, cp) {
				best, owner = len(cp), name
			}
		}
		return owner
	}
}

// gitDirOf is the Git directory the bench counts a repository's files
// from: the repository itself when its URL is local, else a shallow bare
// clone into dest.
func gitDirOf(ctx context.Context, r config.Repository, dest string) (string, error) {
	local := ""
	switch {
	case strings.HasPrefix(r.URL, "file://"):
		local = strings.TrimPrefix(r.URL, "file://")
	case filepath.IsAbs(r.URL):
		local = r.URL
	}
	if local != "" {
		if st, err := os.Stat(filepath.Join(local, ".git")); err == nil && st.IsDir() {
			return filepath.Join(local, ".git"), nil
		}
		return local, nil
	}
	if err := os.RemoveAll(dest); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	args := []string{"clone", "--bare", "--quiet", "--depth", "1", "--no-tags"}
	if r.Branch != "" {
		args = append(args, "--branch", r.Branch)
	}
	if _, err := runChild(ctx, "git", nil, append(args, r.URL, dest)...); err != nil {
		return "", fmt.Errorf("count the files of %s: %w", r.Name, err)
	}
	return dest, nil
}
