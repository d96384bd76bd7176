package hugobuild

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gohugoio/hugo/hugolib"
	"github.com/spf13/afero"
)

// CopyStatic publishes Hugo's static files (the documentation's images and
// attachments, mounted at static/docs, plus any static files of the theme)
// into publishDir. hugolib leaves this step to Hugo's command package,
// which docweave does not use. Hidden files and directories (".github",
// ".gitignore") are repository plumbing, not documentation, and are skipped.
func CopyStatic(sites *hugolib.HugoSites, publishDir string) (int, error) {
	copied := 0
	for _, sfs := range sites.BaseFs.SourceFilesystems.Static {
		dst := filepath.Join(publishDir, sfs.PublishFolder)
		err := afero.Walk(sfs.Fs, string(filepath.Separator), func(p string, info fs.FileInfo, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == string(filepath.Separator) {
				return nil // a project without static files (the assembly's)
			}
			if err != nil {
				return err
			}
			if strings.HasPrefix(info.Name(), ".") && p != string(filepath.Separator) {
				if info.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !info.Mode().IsRegular() {
				return nil
			}
			if err := copyStaticFile(sfs.Fs, p, filepath.Join(dst, p)); err != nil {
				return err
			}
			copied++
			return nil
		})
		if err != nil {
			return copied, fmt.Errorf("copy static files to %s: %w", dst, err)
		}
	}
	return copied, nil
}

func copyStaticFile(src afero.Fs, from, to string) error {
	in, err := src.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", from, err)
	}
	return out.Close()
}
