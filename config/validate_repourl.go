package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/docweave/docweave/gitx/remote"
)

// repoURLExpected is how problems describe a valid repository URL.
const repoURLExpected = "expected an https://, http://, ssh://, git:// or file:// URL, an scp-like address such as git@host:org/repo.git, or an absolute local path"

// repoSchemes are the URL schemes a repository may be cloned over.
var repoSchemes = []string{"https", "http", "ssh", "git", "file"}

// repoURLProblem explains why s is not a repository URL docweave can
// clone, or returns "". The address is read by remote.Parse, the grammar
// every part of docweave reads remotes by. Control characters are
// reported by validateStrings; the message never repeats user info.
func repoURLProblem(s string) string {
	if strings.TrimSpace(s) == "" {
		return "missing; expected the repository's Git clone URL"
	}
	shown := redactUserInfo(s)
	if strings.ContainsAny(s, " \t\r\n") {
		return fmt.Sprintf("%q contains whitespace; %s (write a space in a URL as %%20)", shown, repoURLExpected)
	}
	a, err := remote.Parse(s)
	if a.Form == remote.URL {
		return schemeURLProblem(a, err, shown)
	}
	if scheme, _, ok := strings.Cut(s, "://"); ok {
		// Not a scheme by RFC 3986, but Git would try to read it as one.
		return fmt.Sprintf("%q has scheme %q, which docweave cannot clone; %s", shown, scheme, repoURLExpected)
	}
	switch {
	case a.Form == remote.SCP && (strings.HasPrefix(a.Path, "-") || strings.HasPrefix(s, "-")):
		return fmt.Sprintf("%q starts with '-', which Git would read as an option; %s", shown, repoURLExpected)
	case a.Form == remote.SCP, strings.HasPrefix(s, "/"):
		return "" // scp-like, or an absolute local path
	}
	return fmt.Sprintf("%q is not a URL; %s", shown, repoURLExpected)
}

// schemeURLProblem checks a URL with a scheme: one of repoSchemes, a host
// for network schemes (with a port in range), a path for file://.
func schemeURLProblem(a remote.Address, err error, shown string) string {
	if !containsFold(repoSchemes, a.Scheme) {
		return fmt.Sprintf("%q has scheme %q, which docweave cannot clone; %s", shown, a.Scheme, repoURLExpected)
	}
	if err != nil {
		return fmt.Sprintf("%q does not parse as a URL; %s", shown, repoURLExpected)
	}
	if a.Scheme == "file" {
		if a.Path == "" || a.Path == "/" {
			return fmt.Sprintf("%q names no repository path; expected file:///absolute/path/to/repo", shown)
		}
		if host := a.HostPort(); host != "" && !strings.EqualFold(host, "localhost") {
			return fmt.Sprintf("%q names host %q; a file:// URL is local, expected file:///absolute/path/to/repo", shown, host)
		}
		return ""
	}
	if a.Host == "" {
		return fmt.Sprintf("%q has no host; %s", shown, repoURLExpected)
	}
	if strings.HasPrefix(a.Host, "-") {
		return fmt.Sprintf("%q has a host starting with '-'; %s", shown, repoURLExpected)
	}
	if p := a.Port; p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("%q has port %s; expected 1-65535", shown, p)
		}
	}
	if a.Path == "" || a.Path == "/" {
		return fmt.Sprintf("%q names no repository (the path is empty); expected for example https://git.example.com/org/repo.git", shown)
	}
	return ""
}

// refNameProblem applies Git's check-ref-format rules to a branch or tag
// name as written in repositories[].branch (short or refs/… form), or
// returns "".
func refNameProblem(name string) string {
	const expected = "expected a Git branch or tag name such as main or release/1.2"
	switch {
	case strings.ContainsAny(name, " ~^:?*[\\"):
		return fmt.Sprintf("%q contains a character Git does not allow in a ref name (space ~ ^ : ? * [ \\); %s", name, expected)
	case strings.HasPrefix(name, "-"):
		return fmt.Sprintf("%q starts with '-'; %s", name, expected)
	case strings.Contains(name, ".."), strings.Contains(name, "@{"), name == "@":
		return fmt.Sprintf("%q contains \"..\" or \"@{\" or is \"@\"; %s", name, expected)
	case strings.HasPrefix(name, "/"), strings.HasSuffix(name, "/"), strings.Contains(name, "//"):
		return fmt.Sprintf("%q has an empty path component; %s", name, expected)
	case strings.HasSuffix(name, "."):
		return fmt.Sprintf("%q ends with '.'; %s", name, expected)
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return fmt.Sprintf("%q has a component starting with '.' or ending with .lock; %s", name, expected)
		}
	}
	return ""
}

// RepositorySourceProblem says why a repository's clone URL or branch
// would not pass validation — control characters, a URL docweave cannot
// clone or that Git would read as an option, a branch name Git refuses —
// or returns "". Forge discovery applies it to what a forge's API
// returns, so a discovered repository meets the same gate as a
// configured one; the message never repeats user info.
func RepositorySourceProblem(url, branch string) string {
	if msg := controlProblem(url, false); msg != "" {
		return "clone URL " + msg
	}
	if msg := repoURLProblem(url); msg != "" {
		return "clone URL " + msg
	}
	if msg := controlProblem(branch, false); msg != "" {
		return "default branch " + msg
	}
	if msg := refNameProblem(branch); msg != "" {
		return "default branch " + msg
	}
	return ""
}
