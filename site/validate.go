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
)

// themeVariants are the values of generator.params.themeVariant this theme
// knows (config.ThemeVariants: the configuration is checked against the
// same list when it loads).
var themeVariants = config.ThemeVariants

// reservedParam is the theme parameter docweave fills itself (the
// repository list for the menu); a configuration may not set it.
const reservedParam = config.ReservedParam

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

	if err := validatePublishDir(opts.PublishDir, abs); err != nil {
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

// validatePublishDir requires an absolute directory that is empty or absent
// and outside the project, so Hugo never mixes a new site with old files or
// reads its own output back as input.
func validatePublishDir(dir, projectDir string) error {
	if dir == "" || !filepath.IsAbs(dir) {
		return fmt.Errorf("site: PublishDir %q: expected an absolute directory path", dir)
	}
	dir = filepath.Clean(dir)
	if dir == projectDir || strings.HasPrefix(dir, filepath.Join(projectDir, "content")+string(filepath.Separator)) || dir == filepath.Join(projectDir, "content") {
		return fmt.Errorf("site: PublishDir %q: expected a directory outside the project's content", dir)
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("site: PublishDir %q: %w", dir, err)
	case len(entries) > 0:
		return fmt.Errorf("site: PublishDir %q is not empty (%d entries); expected an empty or absent staging directory", dir, len(entries))
	}
	return nil
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
		case reservedParam:
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
