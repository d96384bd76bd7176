//go:build !unix

package docs

import "errors"

func mkfifo(string) error { return errors.New("fifos are a Unix feature") }
