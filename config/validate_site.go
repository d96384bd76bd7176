package config

import (
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// knownParamTypes are the theme parameters whose type the theme relies on,
// keyed in lower case because keys are case-insensitive.
var knownParamTypes = map[string]string{
	"themevariant":     "string",
	"disablesearch":    "bool",
	"collapsiblemenu":  "bool",
	"showvisitedlinks": "bool",
}

// ThemeVariants are the values of generator.params.themeVariant docweave's
// theme knows: "auto" follows the reader's system colour scheme. The
// configuration is checked against them when it loads, so a value the
// theme would refuse stops `docweave validate` instead of every build.
var ThemeVariants = []string{"auto", "light", "dark"}

// ReservedParam is the generator.params key docweave fills itself (the
// site's repositories and versions, for the theme); a configuration may
// not set it.
const ReservedParam = "docweave"

// validateSite checks what shapes the rendered site: versioning, generator
// and output.
func (c *Config) validateSite(l *problemList) {
	v := c.Versioning
	checkEnum(l, "versioning.strategy", v.Strategy, "branches_and_tags", "branches_only", "tags_only")
	checkRange(l, "versioning.max_versions_per_repo", v.MaxVersionsPerRepo, 1, MaxVersionsCeiling)
	checkGlobs(l, "versioning.branch_patterns", v.BranchPatterns)
	checkGlobs(l, "versioning.tag_patterns", v.TagPatterns)

	c.validateGenerator(l)
	c.validateOutput(l)
}

func (c *Config) validateGenerator(l *problemList) {
	g := c.Generator
	if g.BaseURL != "" && !validBaseURL(g.BaseURL) {
		l.add("generator.base_url", "%q is neither an absolute http(s) URL nor a path starting with /; expected for example https://docs.example.com/",
			redactUserInfo(g.BaseURL))
	}
	for _, name := range sortedStringKeys(g.Taxonomies) {
		key := "generator.taxonomies." + name
		if !isSafeSegment(name) {
			l.add(key, "singular name %q is not safe as a path segment; %s", name, safeSegmentExpected)
		}
		if !isSafeSegment(g.Taxonomies[name]) {
			l.add(key, "plural name %q is not safe as a path segment; %s", g.Taxonomies[name], safeSegmentExpected)
		}
	}
	for name, value := range g.Params {
		key := "generator.params." + name
		if strings.EqualFold(name, ReservedParam) {
			l.add(key, "this key is reserved for docweave's own use (the site's repositories and versions); choose another name")
			continue
		}
		if s, ok := value.(string); ok && strings.EqualFold(name, "themeVariant") && !slices.Contains(ThemeVariants, strings.ToLower(s)) {
			l.add(key, "%q is not a variant of docweave's theme; expected one of %s (for a Relearn variant such as relearn-dark, use dark)", s, strings.Join(ThemeVariants, ", "))
			continue
		}
		want, known := knownParamTypes[strings.ToLower(name)]
		if !known {
			continue
		}
		switch want {
		case "string":
			if _, ok := value.(string); !ok {
				l.add(key, "wrong type: got %s; expected a string", describeValue(value, false))
			}
		case "bool":
			if _, ok := value.(bool); !ok {
				l.add(key, "wrong type: got %s; expected a boolean (true or false)", describeValue(value, false))
			}
		}
	}
}

func validBaseURL(s string) bool {
	if strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") {
		return true
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// validateOutput checks output.directory: it must be set, and it must not
// be a directory whose loss would hurt (see outputDirectoryProblem), with
// or without output.clean — content/ and public/ are replaced either way.
func (c *Config) validateOutput(l *problemList) {
	dir := c.Output.Directory
	if strings.TrimSpace(dir) == "" {
		l.add("output.directory", "is empty; expected the directory the site is written to, such as ./site")
		return
	}
	if problem := c.outputDirectoryProblem(); problem != "" {
		l.add("output.directory", "%q %s", dir, problem)
	}
}

// isWithin reports whether path is dir or lies below it.
func isWithin(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && (rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))))
}

func sortedStringKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
