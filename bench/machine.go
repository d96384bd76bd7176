package bench

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes where a run happened. Absolute figures only mean
// something next to it; the load averages say how busy the machine was.
type Machine struct {
	CPU       string     `json:"cpu"`
	Cores     int        `json:"cores"`
	MemoryMB  int        `json:"memory_mb"`
	OS        string     `json:"os"`
	Arch      string     `json:"arch"`
	Go        string     `json:"go"`
	LoadStart [3]float64 `json:"load_average_start"`
	LoadEnd   [3]float64 `json:"load_average_end"`
}

// describeMachine reads what Linux tells about the machine; on other
// systems the fields it cannot read stay empty.
func describeMachine() Machine {
	m := Machine{Cores: runtime.NumCPU(), OS: runtime.GOOS, Arch: runtime.GOARCH, Go: runtime.Version()}
	m.CPU = firstField("/proc/cpuinfo", "model name")
	if kb := firstField("/proc/meminfo", "MemTotal"); kb != "" {
		n, _ := strconv.Atoi(strings.Fields(kb)[0])
		m.MemoryMB = n / 1024
	}
	m.LoadStart = loadAverage()
	return m
}

// loadAverage reads the 1, 5 and 15 minute load averages.
func loadAverage() [3]float64 {
	var out [3]float64
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return out
	}
	for i, f := range strings.Fields(string(data)) {
		if i == 3 {
			break
		}
		out[i], _ = strconv.ParseFloat(f, 64)
	}
	return out
}

// firstField returns the value of the first "key: value" line of a /proc file.
func firstField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
