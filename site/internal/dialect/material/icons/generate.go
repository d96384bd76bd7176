//go:build ignore

// generate packs the SVG icon sets Material for MkDocs ships into sets/,
// one gzipped file per set, a line per icon: its name, its viewBox and
// the SVG's inner markup (comments and titles removed). Run it with the
// sets' npm packages unpacked (npm pack @mdi/svg @primer/octicons
// @fortawesome/fontawesome-free simple-icons; tar xzf each into a folder
// named after its file):
//
//	go run generate.go /path/to/unpacked
package main

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var (
	viewBox = regexp.MustCompile(`viewBox="([^"]*)"`)
	open    = regexp.MustCompile(`(?s)^.*?<svg[^>]*>`)
	drop    = regexp.MustCompile(`(?s)<!--.*?-->|<title>.*?</title>`)
)

func main() {
	base := os.Args[1]
	sets := map[string]string{
		"material":            "mdi-svg-*/package/svg",
		"octicons":            "primer-octicons-*/package/build/svg",
		"fontawesome-brands":  "fortawesome-fontawesome-free-*/package/svgs/brands",
		"fontawesome-solid":   "fortawesome-fontawesome-free-*/package/svgs/solid",
		"fontawesome-regular": "fortawesome-fontawesome-free-*/package/svgs/regular",
		"simple":              "simple-icons-*/package/icons",
	}
	for name, pattern := range sets {
		dirs, _ := filepath.Glob(filepath.Join(base, pattern))
		if len(dirs) != 1 {
			panic(fmt.Sprintf("%s: want one folder for %s, found %v", name, pattern, dirs))
		}
		files, _ := filepath.Glob(filepath.Join(dirs[0], "*.svg"))
		sort.Strings(files)
		out, err := os.Create(filepath.Join("sets", name+".txt.gz"))
		if err != nil {
			panic(err)
		}
		zw, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				panic(err)
			}
			s := string(b)
			vb := viewBox.FindStringSubmatch(s)
			if vb == nil {
				continue
			}
			inner := strings.TrimSuffix(strings.TrimSpace(open.ReplaceAllString(s, "")), "</svg>")
			inner = strings.ReplaceAll(drop.ReplaceAllString(inner, ""), ` fill="currentColor"`, "")
			inner = strings.Join(strings.Fields(inner), " ")
			fmt.Fprintf(zw, "%s\t%s\t%s\n", strings.TrimSuffix(filepath.Base(f), ".svg"), vb[1], strings.TrimSpace(inner))
		}
		zw.Close()
		out.Close()
	}
}
