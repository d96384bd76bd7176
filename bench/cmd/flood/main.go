// Command flood measures how a running daemon holds up under the two
// floods of issue 16 — a burst of plain requests and a crowd of live-reload
// streams — by probing /health of every server while the flood runs:
//
//	flood -mode burst -n 2000 -target http://127.0.0.1:8080/ \
//	      -health 127.0.0.1:8080,127.0.0.1:8081,127.0.0.1:8082,127.0.0.1:8083
//	flood -mode sse -n 20000 -target http://127.0.0.1:8083/sse -hold 15s \
//	      -health … -trigger http://127.0.0.1:8082/api/build/trigger
//
// The flood comes from -sources loopback addresses (127.0.0.1 upwards:
// one attacker, or a crowd that per-client limits do not stop), the probes
// from 127.0.0.254. It prints one JSON document of figures.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	res, err := run(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "flood:", err)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(res)
}

// options are the command's flags.
type options struct {
	mode, target, trigger string
	health                []string
	n, sources, workers   int
	hold, probeEvery      time.Duration
}

// Result is what one flood measured.
type Result struct {
	Mode    string         `json:"mode"`
	Sources int            `json:"sources"`
	Flood   int            `json:"requests"`
	Outcome map[string]int `json:"outcome"` // "200", "503", "error: …"
	// PeakOpen is the most streams held open at once (sse mode).
	PeakOpen   int     `json:"peak_open_streams,omitempty"`
	FloodSecs  float64 `json:"flood_seconds"`
	Health     Latency `json:"health"`
	TriggerMS  float64 `json:"trigger_ms,omitempty"`
	TriggerErr string  `json:"trigger_error,omitempty"`
}

// Latency summarises the /health probes made during the flood.
type Latency struct {
	Probes   int     `json:"probes"`
	Failures int     `json:"failures"` // errors, timeouts and non-200 answers
	P50MS    float64 `json:"p50_ms"`
	P95MS    float64 `json:"p95_ms"`
	MaxMS    float64 `json:"max_ms"`
}

func run(args []string) (*Result, error) {
	fs := flag.NewFlagSet("flood", flag.ContinueOnError)
	var o options
	var health string
	fs.StringVar(&o.mode, "mode", "burst", "burst (n concurrent GETs) or sse (n streams held open)")
	fs.StringVar(&o.target, "target", "", "URL the flood requests")
	fs.StringVar(&health, "health", "", "comma-separated host:port of the servers whose /health is probed")
	fs.StringVar(&o.trigger, "trigger", "", "admin trigger URL POSTed once while the flood holds (optional)")
	fs.IntVar(&o.n, "n", 2000, "requests or streams")
	fs.IntVar(&o.sources, "sources", 1, "loopback source addresses the flood comes from (1-200)")
	fs.IntVar(&o.workers, "workers", 2000, "connections being opened at once")
	fs.DurationVar(&o.hold, "hold", 10*time.Second, "sse: how long streams are held after the last one opened")
	fs.DurationVar(&o.probeEvery, "probe-every", 100*time.Millisecond, "interval of the /health probes")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if o.target == "" || health == "" || o.sources < 1 || o.sources > 200 {
		return nil, errors.New("-target and -health are required, -sources is 1-200")
	}
	o.health = strings.Split(health, ",")
	return flood(o)
}

// sourceClient dials from 127.0.0.<i+1>, one connection per request.
func sourceClient(i int, timeout time.Duration) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(i+1))}, Timeout: timeout}
	return &http.Client{Timeout: timeout, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true, MaxIdleConnsPerHost: -1}}
}

func flood(o options) (*Result, error) {
	res := &Result{Mode: o.mode, Sources: o.sources, Flood: o.n, Outcome: map[string]int{}}
	var mu sync.Mutex
	count := func(k string) { mu.Lock(); res.Outcome[k]++; mu.Unlock() }

	probeCtx, stopProbes := context.WithCancel(context.Background())
	probed := make(chan Latency, 1)
	go func() { probed <- probe(probeCtx, o.health, o.probeEvery) }()

	clients := make([]*http.Client, o.sources)
	for i := range clients {
		clients[i] = sourceClient(i, 60*time.Second)
	}
	var open, peak atomic.Int64
	release := make(chan struct{})
	var wg sync.WaitGroup
	jobs := make(chan int)
	start := time.Now()
	for range min(o.workers, o.n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				resp, err := clients[i%o.sources].Get(o.target)
				if err != nil {
					count("error: " + errorKind(err))
					continue
				}
				count(fmt.Sprint(resp.StatusCode))
				if o.mode == "sse" && resp.StatusCode == http.StatusOK {
					// Hold the stream: read it in the background until released.
					n := open.Add(1)
					for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
					}
					go func() {
						go io.Copy(io.Discard, bufio.NewReader(resp.Body))
						<-release
						resp.Body.Close()
						open.Add(-1)
					}()
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	for i := range o.n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	res.FloodSecs = time.Since(start).Seconds()
	if o.mode == "sse" {
		if o.trigger != "" {
			res.TriggerMS, res.TriggerErr = trigger(o.trigger)
		}
		time.Sleep(o.hold)
	}
	stopProbes()
	res.Health = <-probed
	res.PeakOpen = int(peak.Load())
	close(release)
	return res, nil
}

// probe GETs /health of every server, each every interval, from 127.0.0.254,
// until ctx ends.
func probe(ctx context.Context, servers []string, every time.Duration) Latency {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext:       (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 254)}, Timeout: 10 * time.Second}).DialContext,
		DisableKeepAlives: true,
	}}
	var mu sync.Mutex
	var times []float64
	failures := 0
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(every)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				t0 := time.Now()
				resp, err := client.Get("http://" + s + "/health")
				ms := float64(time.Since(t0).Microseconds()) / 1000
				ok := err == nil && resp.StatusCode == http.StatusOK
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				mu.Lock()
				times = append(times, ms)
				if !ok {
					failures++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	slices.Sort(times)
	l := Latency{Probes: len(times), Failures: failures}
	if len(times) > 0 {
		l.P50MS = times[len(times)/2]
		l.P95MS = times[len(times)*95/100]
		l.MaxMS = times[len(times)-1]
	}
	return l
}

// trigger POSTs an empty build request and returns how long it took.
func trigger(url string) (float64, string) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 253)}}).DialContext,
	}}
	t0 := time.Now()
	resp, err := client.Post(url, "application/json", strings.NewReader("{}"))
	ms := float64(time.Since(t0).Microseconds()) / 1000
	if err != nil {
		return ms, errorKind(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return ms, fmt.Sprintf("status %d", resp.StatusCode)
	}
	return ms, ""
}

// errorKind shortens an error to what tells floods apart.
func errorKind(err error) string {
	msg := err.Error()
	for _, k := range []string{"too many open files", "connection reset", "connection refused", "Timeout", "timeout", "EOF", "broken pipe", "cannot assign"} {
		if strings.Contains(msg, k) {
			return k
		}
	}
	return msg
}
