// Package spill keeps lists that grow with the site out of messages and
// records (the claim-check pattern): a list too long to carry is stored
// whole in the artifact store, and the message carries its reference, its
// length and a short preview. The broker refuses a message over its
// max_payload (1 MB by default) and key-value values are bounded the same
// way, so nothing that grows with pages, issues or links may ride in one.
package spill

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/docweave/docweave/events"
	"github.com/docweave/docweave/pipeline/artifact"
	"github.com/docweave/docweave/report"
)

// file is the one file of a stored list's tree.
const file = "list.json"

// Issues bounds a list of issues for a message: the list as it is when it
// is short, else a preview with the reference of the whole list, stored
// under scratch's temporary files.
func Issues(ctx context.Context, store artifact.Store, scratch string, issues []report.Issue) (events.IssueList, error) {
	if len(issues) <= events.MaxInlineIssues {
		return events.IssueList{Issues: issues}, nil
	}
	ref, err := Put(ctx, store, scratch, issues)
	if err != nil {
		return events.IssueList{}, fmt.Errorf("store %d issues: %w", len(issues), err)
	}
	return events.IssueList{Issues: events.Preview(issues), IssuesRef: ref, IssuesTotal: len(issues)}, nil
}

// LoadIssues returns the whole list an IssueList stands for.
func LoadIssues(ctx context.Context, store artifact.Store, scratch string, l events.IssueList) ([]report.Issue, error) {
	if l.Whole() {
		return l.Issues, nil
	}
	var issues []report.Issue
	if err := Load(ctx, store, scratch, l.IssuesRef, &issues); err != nil {
		return nil, fmt.Errorf("issues %s: %w", l.IssuesRef, err)
	}
	if len(issues) != l.IssuesTotal {
		return nil, fmt.Errorf("issues %s: %d stored, %d announced", l.IssuesRef, len(issues), l.IssuesTotal)
	}
	return issues, nil
}

// Put stores v as JSON, one tree of one file, and returns its reference.
func Put(ctx context.Context, store artifact.Store, scratch string, v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return PutFiles(ctx, store, scratch, map[string][]byte{file: data})
}

// Load reads what Put stored under ref into v.
func Load(ctx context.Context, store artifact.Store, scratch, ref string, v any) error {
	files, err := ReadFiles(ctx, store, ref, scratch, file)
	if err != nil {
		return err
	}
	data, ok := files[file]
	if !ok {
		return fmt.Errorf("%s holds no %s", ref, file)
	}
	return json.Unmarshal(data, v)
}

// PutFiles stores small files (name → content) as one tree, through a
// temporary directory below scratch, and returns its reference. It is how
// every small artifact is written: lists stored aside, render specs, a
// unit's facts, a site's URLs.
func PutFiles(ctx context.Context, store artifact.Store, scratch string, files map[string][]byte) (string, error) {
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(scratch, "put-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	list := make([]artifact.File, 0, len(files))
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return "", err
		}
		list = append(list, artifact.File{Rel: name, Source: p})
	}
	ref, err := store.PutTree(ctx, list)
	return string(ref), err
}

// ReadFiles reads the named files of a small tree PutFiles stored; a file
// the tree lacks is absent from the result. An error of the store is
// returned as it is (artifact.ErrNotFound for a tree it does not hold).
func ReadFiles(ctx context.Context, store artifact.Store, ref, scratch string, names ...string) (map[string][]byte, error) {
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(scratch, "read-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := store.Materialize(ctx, artifact.Ref(ref), dir); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[name] = data
	}
	return out, nil
}

// Bound stores aside every issue list of ev that is too long to carry
// (events.IssueHolder), leaving its preview and reference, and then checks
// that the encoded message is within events.MaxEventBytes. The runner
// bounds every message a stage returns; a stage whose side effect must not
// happen unless its message can be sent (the assembly that swaps the site
// in) bounds its message itself, first.
func Bound(ctx context.Context, store artifact.Store, scratch string, ev events.Event) error {
	if holder, ok := ev.(events.IssueHolder); ok && store != nil {
		for _, l := range holder.IssueLists() {
			if !l.Whole() || len(l.Issues) <= events.MaxInlineIssues {
				continue
			}
			bounded, err := Issues(ctx, store, scratch, l.Issues)
			if err != nil {
				return err
			}
			*l = bounded
		}
	}
	return events.CheckSize(ev)
}

// PutList stores a list that grows with the site (a build's unit outcomes,
// say) and returns its reference, for a message to carry instead of the
// list.
func PutList[T any](ctx context.Context, store artifact.Store, scratch string, list []T) (string, error) {
	if list == nil {
		list = []T{}
	}
	return Put(ctx, store, scratch, list)
}

// LoadList reads a list PutList stored, and checks that it holds the n
// entries the message announced.
func LoadList[T any](ctx context.Context, store artifact.Store, scratch, ref string, n int) ([]T, error) {
	var list []T
	if err := Load(ctx, store, scratch, ref, &list); err != nil {
		return nil, fmt.Errorf("list %s: %w", ref, err)
	}
	if len(list) != n {
		return nil, fmt.Errorf("list %s: %d stored, %d announced", ref, len(list), n)
	}
	return list, nil
}
