package site

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/gohugoio/hugo/hugolib"
	"github.com/rs/zerolog"

	"github.com/docweave/docweave/site/internal/hugobuild"
	"github.com/docweave/docweave/site/internal/links"
	"github.com/docweave/docweave/site/internal/model"
)

// maxBuildAttempts bounds how often one render runs Hugo: when a build
// fails on pages the pre-render checks did not catch, those pages are
// rendered again with what broke them shown as text (package pages), or at
// last left out, and the build is run again.
const maxBuildAttempts = 6

// renderProject renders one Hugo project: the project of one unit (see
// unit.go), with role naming it. A page that cannot render does not fail
// the render: it is left out and reported in Result.Issues, with the other
// page problems. It fails when the project as a whole cannot be rendered
// (bad options, a theme error, more than half the pages failing).
//
// The context is checked before each build starts and after it ends; Hugo
// cannot be interrupted midway, so a cancelled render finishes its build
// and then reports ctx's error (the caller discards the staging directory).
func renderProject(ctx context.Context, opts Options, role hugobuild.Role, themeFS fs.FS) (Result, error) {
	res, _, err := renderProjectDetailed(ctx, opts, role, themeFS)
	return res, err
}

// projectDetail is what a batch of units needs to tell its units apart
// after a render (see renderBatch): the Markdown files, those left out, and
// the pages rendered from each directory of content/.
type projectDetail struct {
	markdown []string
	excluded map[string]bool
	pages    map[string]int // content path's first segments → pages; see pagesBelow
	// indexFiles maps a content directory to the file mounted as its
	// _index (hugobuild.ContentScan.IndexFiles): a page's file as Hugo reports it is
	// that file.
	indexFiles map[string]string
	// links are the links to check after rendering, per page file
	// (links.Check).
	links map[string][]links.Check
	// ids are the pages' stable ids (front matter id), by page file.
	ids map[string]string
}

// pagesBelow counts the pages rendered from files below dir (a slash path
// of content/).
func (d projectDetail) pagesBelow(dir string) int {
	n := 0
	for file, count := range d.pages {
		if hasPathPrefix(file, dir) {
			n += count
		}
	}
	return n
}

// renderProjectDetailed is renderProject with what a batch needs to split
// its outcome by unit. In a batch, a unit most of whose pages cannot
// render does not stop the build: the caller fails that unit alone.
func renderProjectDetailed(ctx context.Context, opts Options, role hugobuild.Role, themeFS fs.FS) (Result, projectDetail, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, projectDetail{}, fmt.Errorf("render site: %w", err)
	}
	opts, err := validate(opts)
	if err != nil {
		return Result{}, projectDetail{}, err
	}
	l := hugobuild.NewLayout(opts.ProjectDir, opts.PublishDir)
	log := opts.Logger.With().Str("component", "site").Logger()

	hugobuild.Builds.RLock()
	exclusive := false
	defer func() {
		if exclusive {
			hugobuild.Builds.Unlock()
		} else {
			hugobuild.Builds.RUnlock()
		}
	}()
	start := time.Now()

	content, err := prepareContent(l, themeFS, opts.Repositories, opts.Generator.BaseURL)
	if err != nil {
		return Result{}, projectDetail{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, projectDetail{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}

	var b build
	for attempt := 1; ; attempt++ {
		b, err = runBuild(l, opts, role, content, log)
		if !exclusive && hugobuild.LoggedElsewhere(err, b.logged) {
			log.Info().Err(err).Msg("hugo counted errors this build did not log; building again alone")
			hugobuild.Builds.RUnlock()
			hugobuild.Builds.Lock()
			exclusive = true
			if err := os.RemoveAll(l.PublishDir); err != nil {
				return Result{}, projectDetail{}, fmt.Errorf("render site %s: clear %s for another attempt: %w", l.ProjectDir, l.PublishDir, err)
			}
			b, err = runBuild(l, opts, role, content, log)
		}
		if err == nil {
			break
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return Result{}, projectDetail{}, fmt.Errorf("render site %s: %w", l.ProjectDir, ctxErr)
		}
		culprits := b.culprits
		for rel := range culprits {
			if content.Excluded[rel] {
				delete(culprits, rel) // already left out: not this page's doing
			}
		}
		if len(culprits) == 0 || attempt == maxBuildAttempts {
			return Result{}, projectDetail{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
		}
		// A failing page is rendered again with what broke it shown as
		// text (package pages); only one with no step left is left out. The
		// last attempts leave pages out directly, so that the bound holds.
		var leftOut []string
		for _, rel := range sortedKeys(culprits) {
			if attempt < maxBuildAttempts-1 {
				if is, ok := content.ShowAsText(rel, culprits[rel], func(msg string) string { return shortenHugoMessage(msg, l) }); ok {
					content.Issues = append(content.Issues, is)
					log.Warn().Str("file", rel).Str("code", IssueShownAsText).Msg(is.Message)
					continue
				}
			}
			leftOut = append(leftOut, rel)
		}
		if len(role.Units) <= 1 && len(content.Excluded)+len(leftOut) > len(content.tree.Markdown)/2 {
			return Result{}, projectDetail{}, fmt.Errorf("render site %s: %d of %d pages cannot render, which points at the theme or the configuration rather than the pages: %w",
				l.ProjectDir, len(content.Excluded)+len(leftOut), len(content.tree.Markdown), err)
		}
		for _, rel := range leftOut {
			content.Excluded[rel] = true
			msg := "the page cannot be rendered, even with what broke it shown as text, and is left out: " + shortenHugoMessage(culprits[rel], l)
			content.Issues = append(content.Issues, Issue{Code: IssuePageRenderFailed, Path: rel, Message: msg})
			log.Warn().Str("file", rel).Str("code", IssuePageRenderFailed).Msg(msg)
		}
		if err := os.RemoveAll(l.PublishDir); err != nil {
			return Result{}, projectDetail{}, fmt.Errorf("render site %s: clear %s for another attempt: %w", l.ProjectDir, l.PublishDir, err)
		}
		if err := ctx.Err(); err != nil {
			return Result{}, projectDetail{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, projectDetail{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}

	res := Result{Pages: b.pages, Issues: content.Issues}
	for _, file := range b.scan.Shadowed {
		res.Issues = append(res.Issues, Issue{Code: IssueIndexShadowed, Path: file,
			Message: "not rendered: its directory also has an _index file, which is the directory's page"})
		log.Warn().Str("file", file).Msg("index file not rendered: its directory also has an _index file, which is the directory's page")
	}
	for _, file := range b.scan.Beside {
		dir := strings.TrimSuffix(path.Base(file), path.Ext(file)) + "/"
		msg := "not rendered: the folder " + dir + " beside it has a page of its own at the same URL; rename the file or move it into the folder"
		res.Issues = append(res.Issues, Issue{Code: IssueIndexShadowed, Path: file, Message: msg})
		log.Warn().Str("file", file).Msg(msg)
	}
	model.SortIssues(res.Issues)
	if res.Files, err = hugobuild.CountFiles(l.PublishDir); err != nil {
		return Result{}, projectDetail{}, fmt.Errorf("render site %s: %w", l.ProjectDir, err)
	}
	log.Info().
		Int("pages", res.Pages).
		Int("files", res.Files).
		Int("markdown_files", len(content.tree.Markdown)).
		Int("pages_left_out", len(content.Excluded)).
		Int("pages_adjusted", len(content.Rewritten)).
		Int("issues", len(res.Issues)).
		Int("generated_sections", len(b.scan.Generated)).
		Int("static_files", b.static).
		Int64("duration_ms", time.Since(start).Milliseconds()).
		Str("publish_dir", l.PublishDir).
		Msg("site rendered")
	return res, projectDetail{markdown: content.tree.Markdown, excluded: content.Excluded, pages: b.pagesByFile, indexFiles: b.scan.IndexFiles, links: content.Links, ids: content.IDs}, nil
}

// build is the outcome of one Hugo build.
type build struct {
	pagesByFile map[string]int // pages rendered per Markdown file (slash path of content/)
	logged      int            // errors this build's own loggers recorded
	scan        hugobuild.ContentScan
	pages       int
	static      int
	culprits    map[string]string // on failure: the pages Hugo named, with its message
}

// runBuild plans the sections for the pages not left out, writes the Hugo
// configuration and runs one build into l.PublishDir.
func runBuild(l hugobuild.Layout, opts Options, role hugobuild.Role, content *preparedContent, log zerolog.Logger) (build, error) {
	plan := hugobuild.Plan{
		Scan:      hugobuild.PlanContent(content.tree, opts.Repositories, content.Excluded),
		Excluded:  content.Excluded,
		Rewritten: content.Rewritten,
	}
	hugobuild.FollowAuthorsNav(&plan.Scan, content.Sections, opts.Repositories)
	b := build{scan: plan.Scan}
	if err := os.RemoveAll(l.SectionsDir); err != nil {
		return b, fmt.Errorf("remove generated %s: %w", l.SectionsDir, err)
	}
	if err := hugobuild.WriteSections(l.SectionsDir, plan.Scan.Generated, plan.Scan.Weights); err != nil {
		return b, err
	}
	if err := hugobuild.WriteVersionRedirects(l.SectionsDir, plan.Scan.Redirects); err != nil {
		return b, err
	}
	role.TemplateMetrics = opts.TemplateMetrics != nil
	if err := hugobuild.WriteConfig(l.ConfigFile, hugobuild.Config(opts.Generator, opts.Repositories, l, plan, role)); err != nil {
		return b, err
	}

	hugoErrs := &hugobuild.Errors{}
	sites, err := hugobuild.NewSites(l, nil, log, hugoErrs)
	if err != nil {
		return b, err
	}
	defer func() {
		if cerr := sites.Close(); cerr != nil {
			log.Warn().Err(cerr).Msg("closing hugo sites")
		}
	}()
	if b.static, err = hugobuild.CopyStatic(sites, l.PublishDir); err != nil {
		return b, err
	}
	if err := sites.Build(hugolib.BuildCfg{}); err != nil {
		b.logged = len(hugoErrs.All())
		b.culprits = newPageFinder(l, content.tree, plan.Scan).culprits(err, hugoErrs.All())
		if logged := hugoErrs.String(); logged != "" {
			return b, fmt.Errorf("hugo build: %w (logged: %s)", err, logged)
		}
		return b, fmt.Errorf("hugo build: %w", err)
	}
	if opts.TemplateMetrics != nil && role.Whole && sites.Metrics != nil {
		sites.Metrics.WriteMetrics(opts.TemplateMetrics)
	}
	b.pagesByFile = hugobuild.MarkdownPages(sites, l)
	for _, n := range b.pagesByFile {
		b.pages += n
	}
	return b, nil
}

// shortenHugoMessage makes a Hugo error readable in a build report: file
// names relative to the project, and at most about 400 characters, keeping
// the end, where Hugo puts the cause.
func shortenHugoMessage(msg string, l hugobuild.Layout) string {
	msg = strings.ReplaceAll(msg, l.PagesDir+"/", "")
	msg = strings.ReplaceAll(msg, l.ContentDir+"/", "")
	msg = strings.ReplaceAll(msg, l.ProjectDir+"/", "")
	msg = strings.Join(strings.Fields(msg), " ")
	const head, tail = 120, 280
	if len(msg) > head+tail+3 {
		msg = msg[:head] + " … " + msg[len(msg)-tail:]
	}
	return msg
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
