package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/docweave/docweave/bench/farm"
	"github.com/docweave/docweave/internal/natstest"
	"github.com/docweave/docweave/pipeline/artifact"
)

// BenchmarkScaleOut20x50 measures issue 9's figure on 20 repositories × 50
// pages: the wall time of a cold build in one process (`docweave build`)
// against the same build through separate stage processes on a three-node
// NATS cluster on this machine (from the control plane's start-up trigger
// to the build's success, and to the site being served by a docs server
// that fetched it), and the bytes the split build stored in the object
// store (each stored tree is then read once by render, the site once by
// each docs server).
//
//	go test -run '^$' -bench ScaleOut20x50 -benchtime 1x ./cmd/docweave
func BenchmarkScaleOut20x50(b *testing.B) {
	repos, err := farm.Generate(farm.Spec{Dir: b.TempDir(), Repos: 20, Pages: 50})
	if err != nil {
		b.Fatal(err)
	}
	var urls []string
	for _, r := range repos {
		urls = append(urls, "file://"+r.Path)
	}
	for b.Loop() {
		dir := b.TempDir()
		var sb strings.Builder
		sb.WriteString("repositories:\n")
		for i, u := range urls {
			fmt.Fprintf(&sb, "  - {name: repo%d, url: %q}\n", i, u)
		}
		fmt.Fprintf(&sb, "output: {directory: %s}\n", filepath.Join(dir, "site"))
		cfg := filepath.Join(dir, "single.yaml")
		writeFile(b, cfg, sb.String())
		start := time.Now()
		if res := run(b, dir, nil, "build", "-c", cfg, "--log-format", "json"); res.code != 0 {
			b.Fatalf("single-process build: %d\n%s", res.code, res.stderr)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "single-ms")

		cluster := natstest.StartCluster(b, 3)
		ports := freePorts(b, 4)
		for _, group := range []string{"discover", "clone,join", "clone,join", "render,assemble,finish,publishreload"} {
			cfgPath, pdir := splitConfig(b, strings.ReplaceAll(group, ",", "-"), cluster.URLs(), urls, ports)
			startProcess(b, pdir, "stage", "--stages", group, "--metrics-addr", "127.0.0.1:0", "-c", cfgPath)
		}
		time.Sleep(2 * time.Second) // let the stage processes provision and subscribe
		cfgPath, pdir := splitConfig(b, "serve", cluster.URLs(), urls, ports)
		start = time.Now()
		startProcess(b, pdir, "serve", "--servers", "admin,docs", "-c", cfgPath)
		status := fmt.Sprintf("http://127.0.0.1:%d/status", ports[2])
		for {
			if code, body := httpGet(status); code == 200 && strings.Contains(body, ">success<") {
				break
			}
			if time.Since(start) > 3*time.Minute {
				b.Fatal("the split start-up build did not succeed within 3 minutes")
			}
			time.Sleep(20 * time.Millisecond)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "split-ms")
		// The docs server of the serve process fetched the published site.
		ready := fmt.Sprintf("http://127.0.0.1:%d/ready", ports[2])
		for code, _ := httpGet(ready); code != 200; code, _ = httpGet(ready) {
			if time.Since(start) > 3*time.Minute {
				b.Fatal("the published site never reached the docs server")
			}
			time.Sleep(20 * time.Millisecond)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "split-served-ms")

		nc, err := nats.Connect(cluster.URLs())
		if err != nil {
			b.Fatal(err)
		}
		js, _ := jetstream.New(nc)
		obs, err := js.ObjectStore(context.Background(), artifact.ObjectStoreBucket)
		if err != nil {
			b.Fatal(err)
		}
		st, err := obs.Status(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Size())/1e6, "objstore-MB")
		nc.Close()
	}
}

// BenchmarkRenderReplicas20x50 measures how a cold build of 20 × 50 spreads
// over render replicas on a three-node NATS cluster on this machine: the
// wall time of the split start-up build with one render replica and with
// two (each rendering one unit at a time), and how many units each replica
// rendered, counted from its log.
//
//	go test -run '^$' -bench RenderReplicas20x50 -benchtime 1x ./cmd/docweave
func BenchmarkRenderReplicas20x50(b *testing.B) {
	repos, err := farm.Generate(farm.Spec{Dir: b.TempDir(), Repos: 20, Pages: 50})
	if err != nil {
		b.Fatal(err)
	}
	var urls []string
	for _, r := range repos {
		urls = append(urls, "file://"+r.Path)
	}
	for b.Loop() {
		for _, replicas := range []int{1, 2} {
			cluster := natstest.StartCluster(b, 3)
			ports := freePorts(b, 4)
			config := func(name string) (string, string) {
				cfgPath, dir := splitConfig(b, name, cluster.URLs(), urls, ports)
				data, err := os.ReadFile(cfgPath)
				if err != nil {
					b.Fatal(err)
				}
				writeFile(b, cfgPath, strings.Replace(string(data), "ack_wait: 3s,", "ack_wait: 3s, render_concurrency: 1,", 1))
				return cfgPath, dir
			}
			var renderers []*process
			for i, group := range []string{"discover", "clone,join", "clone,join", "assemble,finish,publishreload"} {
				cfgPath, pdir := config(fmt.Sprintf("g%d", i))
				startProcess(b, pdir, "stage", "--stages", group, "--metrics-addr", "127.0.0.1:0", "-c", cfgPath)
			}
			for i := 0; i < replicas; i++ {
				cfgPath, pdir := config(fmt.Sprintf("render%d", i))
				renderers = append(renderers, startProcess(b, pdir, "stage", "--stages", "render", "--metrics-addr", "127.0.0.1:0", "-c", cfgPath))
			}
			time.Sleep(2 * time.Second) // let the stage processes provision and subscribe
			cfgPath, pdir := config("serve")
			start := time.Now()
			startProcess(b, pdir, "serve", "--servers", "admin", "-c", cfgPath)
			status := fmt.Sprintf("http://127.0.0.1:%d/status", ports[2])
			for {
				if code, body := httpGet(status); code == 200 && strings.Contains(body, ">success<") {
					break
				}
				if time.Since(start) > 5*time.Minute {
					b.Fatal("the split start-up build did not succeed within 5 minutes")
				}
				time.Sleep(20 * time.Millisecond)
			}
			b.ReportMetric(float64(time.Since(start).Milliseconds()), fmt.Sprintf("%dreplica-ms", replicas))
			total := 0
			for i, r := range renderers {
				n := strings.Count(r.stderr.String(), `"message":"unit rendered"`)
				total += n
				b.ReportMetric(float64(n), fmt.Sprintf("%dreplica-r%d-units", replicas, i+1))
			}
			if total != len(urls) {
				b.Fatalf("%d units rendered by the replicas, want %d", total, len(urls))
			}
		}
	}
}
