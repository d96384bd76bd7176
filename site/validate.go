package site

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/site/internal/hugobuild"
)

// themeVariants are the values of generator.params.themeVariant this theme
// knows (config.ThemeVariants: the configuration is checked against the
// same list when it loads).
var themeVariants = config.ThemeVariants

// LiveReloadPortParam is the theme parameter that turns on the live-reload
// client: the port of the daemon's live-reload server, on the host the page
// was loaded from. The render stage sets it in daemon mode.
const LiveReloadPortParam = "docweaveLiveReloadPort"

// validate checks opts and returns it with ProjectDir made absolute. Every
// error names the option or key at fault and what was expected.
func validate(opts Options) (Options, error) {
	if opts.ProjectDir == "" {
		return opts, errors.New("site: ProjectDir is empty; expected the Hugo project directory holding content/")
	}
	abs, err := filepath.Abs(opts.ProjectDir)
	if err != nil {
		return opts, fmt.Errorf("site: ProjectDir %q: %w", opts.ProjectDir, err)
	}
	opts.ProjectDir = abs
	if st, err := os.Stat(filepath.Join(abs, "content")); err != nil || !st.IsDir() {
		return opts, fmt.Errorf("site: ProjectDir %q has no content/ directory; expected the render stage to write the documentation there first", abs)
	}

	if err := hugobuild.ValidatePublishDir(opts.PublishDir, abs); err != nil {
		return opts, err
	}
	if err := validateRepositories(opts.Repositories); err != nil {
		return opts, err
	}
	if err := validateBaseURL(opts.Generator.BaseURL); err != nil {
		return opts, err
	}
	if err := validateParams(opts.Generator.Params); err != nil {
		return opts, err
	}
	for singular, plural := range opts.Generator.Taxonomies {
		if strings.TrimSpace(singular) == "" || strings.TrimSpace(plural) == "" {
			return opts, fmt.Errorf("generator.taxonomies: %q: %q: expected a non-empty singular name mapped to a non-empty plural name (for example tag: tags)", singular, plural)
		}
	}
	return opts, nil
}

// validateRepositories requires a name and a clean relative content path
// for each repository, with no path used twice, and valid versions for a
// versioned one (validateVersions).
func validateRepositories(repos []Repository) error {
	seen := make(map[string]string, len(repos))
	for i, r := range repos {
		if strings.TrimSpace(r.Name) == "" {
			return fmt.Errorf("site: Repositories[%d]: Name is empty; expected the repository name", i)
		}
		p := r.ContentPath
		if p == "" || strings.Contains(p, `\`) || path.IsAbs(p) || path.Clean(p) != p || p == "." || strings.HasPrefix(p, "../") || p == ".." {
			return fmt.Errorf("site: Repositories[%d] (%s): ContentPath %q: expected a clean relative path under content/, such as %q", i, r.Name, p, r.Name)
		}
		if err := validateEditURL(r.EditURL); err != nil {
			return fmt.Errorf("site: Repositories[%d] (%s): %w", i, r.Name, err)
		}
		if err := validateVersions(r.Versions); err != nil {
			return fmt.Errorf("site: Repositories[%d] (%s): %w", i, r.Name, err)
		}
		key := strings.ToLower(p)
		if other, dup := seen[key]; dup {
			return fmt.Errorf("site: Repositories[%d] (%s): ContentPath %q is also used by %s; expected one path per repository", i, r.Name, p, other)
		}
		seen[key] = r.Name
	}
	return nil
}

// validateEditURL accepts "" or an http(s) URL without credentials that
// holds the {path} placeholder once.
func validateEditURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(strings.Replace(raw, EditURLPlaceholder, "x", 1))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("EditURL: expected an http(s) URL such as https://github.com/o/r/edit/main/docs/%s", EditURLPlaceholder)
	}
	if u.User != nil {
		return errors.New("EditURL: expected a URL without user credentials")
	}
	if strings.Count(raw, EditURLPlaceholder) != 1 {
		return fmt.Errorf("EditURL %s: expected the placeholder %s exactly once, where the page's file path goes", redactURL(u), EditURLPlaceholder)
	}
	return nil
}

// validateBaseURL accepts "", a path such as "/handbook/", or an absolute
// http(s) URL with a host.
func validateBaseURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("generator.base_url: %q is not a URL: %w", raw, err)
	}
	switch {
	case u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/"):
		return nil
	case (u.Scheme == "http" || u.Scheme == "https") && u.Host != "":
		if u.User != nil {
			return errors.New("generator.base_url: expected a URL without user credentials")
		}
		return nil
	}
	return fmt.Errorf("generator.base_url: %q: expected an http(s) URL such as https://docs.example.com/ or a path such as /docs-site/", redactURL(u))
}

// redactURL prints u without any user information, so a mistyped URL that
// carries a password is never echoed into logs.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// validateParams checks the theme parameters this theme interprets and the
// one key docweave reserves. Unknown parameters pass through untouched:
// they are for the theme's later versions and for operators' own use.
func validateParams(params map[string]any) error {
	for key, value := range params {
		switch strings.ToLower(key) {
		case config.ReservedParam:
			return fmt.Errorf("generator.params.%s: this key is reserved for docweave's own use; expected another name", key)
		case "themevariant":
			s, ok := value.(string)
			if !ok || !slices.Contains(themeVariants, strings.ToLower(s)) {
				return fmt.Errorf("generator.params.%s: %v: expected one of %s", key, value, strings.Join(themeVariants, ", "))
			}
		case "disablesearch", "collapsiblemenu", "showvisitedlinks":
			if _, ok := value.(bool); !ok {
				return fmt.Errorf("generator.params.%s: %v: expected true or false", key, value)
			}
		case strings.ToLower(LiveReloadPortParam):
			if !isPort(value) {
				return fmt.Errorf("generator.params.%s: %v: expected a TCP port number from 1 to 65535", key, value)
			}
		}
	}
	return nil
}

// isPort reports whether v is a whole number from 1 to 65535, whichever
// numeric type the configuration decoder produced.
func isPort(v any) bool {
	var n float64
	switch x := v.(type) {
	case int:
		n = float64(x)
	case int64:
		n = float64(x)
	case uint64:
		n = float64(x)
	case float64:
		n = x
	default:
		return false
	}
	return n >= 1 && n <= 65535 && n == float64(int(n))
}

// validateVersions checks the versions of one repository: each with a
// name and a slug that is one URL-safe path segment, no slug used twice
// (Hugo's page paths ignore case, so neither may two slugs differing in
// case), exactly one default, and edit URLs as for Repository.EditURL.
func validateVersions(versions []Version) error {
	if len(versions) == 0 {
		return nil
	}
	seen := make(map[string]string, len(versions))
	defaults := 0
	for i, v := range versions {
		if strings.TrimSpace(v.Name) == "" {
			return fmt.Errorf("Versions[%d]: Name is empty; expected the branch or tag name", i)
		}
		if err := validateSlug(v.Slug); err != nil {
			return fmt.Errorf("Versions[%d] (%s): %w", i, v.Name, err)
		}
		key := strings.ToLower(v.Slug)
		if other, dup := seen[key]; dup {
			return fmt.Errorf("Versions[%d] (%s): Slug %q is also used by version %s; expected one slug per version (letter case does not distinguish them)", i, v.Name, v.Slug, other)
		}
		seen[key] = v.Name
		if err := validateCommit(v.Commit); err != nil {
			return fmt.Errorf("Versions[%d] (%s): %w", i, v.Name, err)
		}
		if err := validateEditURL(v.EditURL); err != nil {
			return fmt.Errorf("Versions[%d] (%s): %w", i, v.Name, err)
		}
		if v.Default {
			defaults++
		}
	}
	if defaults != 1 {
		return fmt.Errorf("Versions: %d marked Default; expected exactly one default version, the one /docs/<ContentPath>/ leads to", defaults)
	}
	return nil
}

// validateSlug accepts one path segment of ASCII letters, digits, ".",
// "_" and "-" that does not start with ".", "_" or "-" (Hugo skips hidden
// directories and gives "_"-names meaning).
func validateSlug(slug string) error {
	const expected = `expected one URL path segment of ASCII letters, digits, ".", "_" and "-", not starting with ".", "_" or "-" (such as "v1.1.0" or "feature-x")`
	if slug == "" {
		return errors.New("Slug is empty; " + expected)
	}
	for i, r := range slug {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok || i == 0 && strings.ContainsRune("._-", r) {
			return fmt.Errorf("Slug %q: %s", slug, expected)
		}
	}
	return nil
}

// validateCommit accepts "" or a hexadecimal commit hash.
func validateCommit(commit string) error {
	if commit == "" {
		return nil
	}
	for _, r := range commit {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return fmt.Errorf("Commit %q: expected a hexadecimal commit hash", commit)
		}
	}
	return nil
}
