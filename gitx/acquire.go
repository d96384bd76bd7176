// Package gitx acquires one Git repository into a working directory for the
// clone stage: a fresh clone, an in-place update of an existing workspace,
// or whichever of the two fits (auto). It speaks Git's upload-pack protocol
// through go-git's transports (HTTP, SSH, file) and writes the checkout
// itself, so it can ask for exactly what a build reads — the
// documentation roots of a sparse request, as a partial clone where the
// remote serves one — and check out folders of any size in linear time.
// docweave needs no git binary at run time (file:// URLs are the
// exception: go-git runs git-upload-pack for them). Transient failures are
// retried with the configured backoff, and every failure is an *Error with
// a stable code and a message free of credentials.
package gitx

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/logging"
)

// Acquisition strategies of build.clone_strategy.
const (
	StrategyFresh  = "fresh"
	StrategyUpdate = "update"
	StrategyAuto   = "auto"
)

// Request says which repository to acquire, where, and how.
type Request struct {
	// URL is the clone URL: https://, http://, ssh://, scp-like
	// git@host:path, file:// or a local path. Credentials embedded in an
	// HTTP(S) URL are used as basic authentication when Auth is empty and
	// never reach go-git's URL, logs or errors.
	URL string
	// Branch is the branch to check out; "" means the remote's default
	// branch (its HEAD). A tag name, or a full "refs/tags/…" or
	// "refs/heads/…" name, is accepted too; a tag is checked out detached.
	Branch string
	// Depth is the shallow clone depth; 0 fetches the full history.
	Depth int
	// Auth holds the credentials (see TokenUser for how tokens are sent).
	Auth config.Auth
	// Dir is the target working directory.
	Dir string
	// Strategy is fresh (remove Dir, clone), update (fetch and hard-reset
	// an existing workspace, clone when Dir is absent or empty) or auto
	// (update a valid workspace of the same URL, else clone fresh); "" means
	// fresh, the configuration default.
	Strategy string
	// HardResetOnDiverge resets a workspace branch that has commits the
	// remote does not (local commits, or a force-push on the remote) instead
	// of failing with DIVERGED.
	HardResetOnDiverge bool
	// CleanUntracked removes untracked files and directories after a
	// successful update (like `git clean -fd`: ignored files stay). Without
	// it an update keeps untracked files.
	CleanUntracked bool
	// KnownHostsPath is the known_hosts file SSH host keys are checked
	// against. Empty means $SSH_KNOWN_HOSTS if set, else the user's
	// ~/.ssh/known_hosts and /etc/ssh/ssh_known_hosts; with none of them
	// present an SSH URL fails with CLONE_AUTH.
	KnownHostsPath string
	// InsecureIgnoreHostKey accepts any SSH host key. Only for tests and
	// throwaway environments: it allows a man in the middle.
	InsecureIgnoreHostKey bool
	// Sparse, when set, limits the checkout to the documentation roots
	// and the top-level entries it names; a remote that serves partial
	// clones then sends only commits, trees and the blobs of those files
	// (see Sparse). Nil checks out and fetches the whole repository.
	Sparse *Sparse
	// Referenced, when set, is asked once the checkout is written which
	// other files of the repository its files reference (the images and
	// downloads of pages, outside the sparse selection or hidden in it):
	// it gets the checkout's directory and returns repository paths. Those
	// that are regular files of the same commit are checked out as well
	// (see Result.Referenced). A path "**/rest" names the one file of the
	// commit whose path is rest or ends with "/rest", and none when
	// several do.
	Referenced func(dir string) []string
	// MaxFileBytes, when positive, is the largest file whose content the
	// checkout reads (build.limits.max_file_bytes): a larger one is never
	// inflated, only stood in for (see oversize.go), so that a refused
	// file costs no memory.
	MaxFileBytes int64
	// AttemptTimeout bounds each attempt (0: no bound beyond ctx). An
	// attempt that runs out of time is a transient CLONE_NETWORK failure and
	// is retried, so a hung server cannot stall a build forever. Over SSH
	// go-git ignores contexts while connecting, so there it bounds the TCP
	// connect (30s when unset) but not an SSH handshake that never ends.
	AttemptTimeout time.Duration
}

// Result describes what Acquire did.
type Result struct {
	// Commit is the commit checked out in Dir.
	Commit string
	// CommitTime is when that commit was made (its committer's time, UTC;
	// zero if the commit could not be read): the "last updated" readers
	// see on the front page.
	CommitTime time.Time
	// Branch is the branch (or tag) checked out, resolved from the remote
	// default when the request named none.
	Branch string
	// Ref is the full reference name, e.g. refs/heads/main.
	Ref string
	// Attempts is how many attempts it took (1 without retries).
	Attempts int
	// Updated is true when an existing workspace was moved to a different
	// commit; false for fresh clones and for workspaces already current.
	Updated bool
	// FellBackToFresh is true when an existing workspace was discarded and
	// cloned again because it was corrupt or a clone of another URL.
	FellBackToFresh bool
	// Partial is true when the remote sent commits and trees and only the
	// file contents of the checkout (a partial clone); false when it sent
	// every file of the commit (no sparse request, or a remote that cannot
	// serve partial clones).
	Partial bool
	// Files is the number of files in the checkout; Written how many of
	// them were written by this acquisition (the others were current).
	Files, Written int
	// Requests is the number of pack requests the last attempt made.
	Requests int
	// Skipped lists the tree entries of the checkout's selection left out
	// because they could not be written safely: names such as "..",
	// ".GIT" or with control characters, and entries that collide with
	// another of the same name.
	Skipped []SkippedPath
	// Referenced are the paths Request.Referenced returned that are files
	// of the checkout, sorted: the documentation's referenced files.
	Referenced []string
}

// Acquire brings req.Dir to the tip of the requested branch, retrying
// transient failures (CLONE_NETWORK) according to retry. Every error is an
// *Error carrying the number of attempts made. Logs go to the zerolog logger
// in ctx (zerolog.Ctx), if any. Acquire does not lock Dir: callers must not
// acquire into the same directory concurrently.
func Acquire(ctx context.Context, req Request, retry RetryPolicy) (Result, error) {
	if err := req.validate(); err != nil {
		return Result{}, withAttempts(newError(CodeFailed, false, err, req.Auth.Token, req.Auth.Password), 0)
	}
	if err := retry.validate(); err != nil {
		return Result{}, withAttempts(newError(CodeFailed, false, err), 0)
	}
	rem, err := newRemote(req.URL, req.Auth, req.hostKeys())
	if err != nil {
		return Result{}, withAttempts(configError(err, req), 0)
	}
	log := zerolog.Ctx(ctx).With().Str(logging.FieldRepository, RedactURL(rem.url)).Str("dir", req.Dir).Logger()

	for attempt := 1; ; attempt++ {
		res, gerr := runAttempt(ctx, req, rem, log)
		if gerr == nil {
			res.Attempts = attempt
			log.Info().Str("commit", res.Commit).Str("branch", res.Branch).Int("attempts", attempt).
				Bool("updated", res.Updated).Bool("fell_back_to_fresh", res.FellBackToFresh).
				Bool("partial", res.Partial).Int("files", res.Files).Int("written", res.Written).
				Int("pack_requests", res.Requests).Msg("repository acquired")
			return res, nil
		}
		gerr.Attempts = attempt
		if !gerr.Transient || attempt > retry.MaxRetries || ctx.Err() != nil {
			log.Warn().Str("code", gerr.Code).Int("attempts", attempt).Str("error", gerr.Err.Error()).Msg("repository acquisition failed")
			return Result{Attempts: attempt}, gerr
		}
		delay := retry.Delay(attempt)
		log.Warn().Str("code", gerr.Code).Int("attempt", attempt).Dur("retry_in", delay).Str("error", gerr.Err.Error()).Msg("transient failure, retrying")
		if err := retry.sleep(ctx, delay); err != nil {
			return Result{Attempts: attempt}, gerr
		}
	}
}

// runAttempt makes one attempt under the per-attempt timeout.
func runAttempt(parent context.Context, req Request, rem *remote, log zerolog.Logger) (Result, *Error) {
	ctx := parent
	if req.AttemptTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(parent, req.AttemptTimeout)
		defer cancel()
	}
	sess, gerr := openSession(parent, ctx, rem)
	if gerr != nil {
		return Result{}, gerr
	}
	defer sess.close()
	sess.log = log
	refs, err := sess.listing()
	if err != nil {
		return Result{}, classify(parent, "list references of "+RedactURL(rem.url), err, rem.secrets...)
	}
	ref, gerr := pickRef(refs, rem, req.Branch)
	if gerr != nil {
		return Result{}, gerr
	}
	op := &operation{parent: parent, ctx: ctx, req: req, rem: rem, ref: ref, sess: sess, log: log, partial: usesPartial(req, sess)}
	if req.Sparse != nil && !op.partial {
		log.Debug().Str("reason", noFilterCapability(sess)).Msg("remote cannot serve a partial clone; fetching whole commits, checking out the documentation only")
	}
	switch req.strategy() {
	case StrategyUpdate:
		ws := inspectWorkspace(req.Dir, rem.url)
		defer ws.release()
		switch {
		case ws.absent:
			return op.freshClone()
		case ws.problem != nil:
			return Result{}, newError(CodeCorruptWorkspace, false,
				fmt.Errorf("workspace %s cannot be updated (use clone_strategy auto or fresh to replace it): %w", req.Dir, ws.problem), rem.secrets...)
		}
		return op.update(ws)
	case StrategyAuto:
		ws := inspectWorkspace(req.Dir, rem.url)
		defer ws.release()
		if ws.absent {
			return op.freshClone()
		}
		if ws.problem == nil {
			res, gerr := op.update(ws)
			if gerr == nil || gerr.Code != CodeCorruptWorkspace {
				return res, gerr
			}
			ws.problem = gerr
		}
		log.Warn().Str("reason", redactText(ws.problem.Error(), rem.secrets...)).Msg("workspace unusable, cloning afresh")
		res, gerr := op.freshClone()
		res.FellBackToFresh = gerr == nil
		return res, gerr
	default:
		return op.freshClone()
	}
}

// operation is one attempt's shared state.
type operation struct {
	parent, ctx context.Context
	req         Request
	rem         *remote
	ref         remoteRef
	sess        *session
	log         zerolog.Logger
	// partial is true while the acquisition fetches commits and trees
	// without blobs; it turns false when the remote refuses blobs by hash.
	partial      bool
	blobRequests int
}

// validate checks what Acquire needs before touching the disk.
func (r *Request) validate() error {
	switch r.Strategy {
	case "", StrategyFresh, StrategyUpdate, StrategyAuto:
	default:
		return fmt.Errorf("clone strategy %q is not one of fresh, update, auto", r.Strategy)
	}
	if r.Depth < 0 {
		return fmt.Errorf("shallow depth %d must be 0 (full history) or positive", r.Depth)
	}
	if r.Dir == "" {
		return errors.New("target directory is empty")
	}
	abs, err := filepath.Abs(r.Dir)
	if err != nil {
		return fmt.Errorf("target directory %s: %w", r.Dir, err)
	}
	if abs == filepath.Dir(abs) {
		return fmt.Errorf("target directory %s is a filesystem root; refusing to replace it", r.Dir)
	}
	r.Dir = abs
	if r.AttemptTimeout < 0 {
		return fmt.Errorf("attempt timeout %s must not be negative", r.AttemptTimeout)
	}
	return nil
}

func (r Request) strategy() string {
	if r.Strategy == "" {
		return StrategyFresh
	}
	return r.Strategy
}

// hostKeys is the SSH host key policy: the request's own fields, else the
// repository's configured auth.known_hosts / auth.insecure_ignore_host_key.
func (r Request) hostKeys() sshPolicy {
	known, insecure := r.KnownHostsPath, r.InsecureIgnoreHostKey
	if known == "" {
		known = r.Auth.KnownHosts
	}
	insecure = insecure || r.Auth.InsecureIgnoreHostKey
	return sshPolicy{knownHostsPath: known, insecure: insecure, dialTimeout: r.AttemptTimeout}
}

// configError reports a request that cannot even be attempted.
func configError(err error, req Request) *Error {
	code := CodeFailed
	var authErr *authSetupError
	if errors.As(err, &authErr) {
		code = CodeAuth
	}
	return newError(code, false, err, req.Auth.Token, req.Auth.Password)
}

func withAttempts(e *Error, n int) *Error {
	e.Attempts = n
	return e
}
