package config

import (
	"fmt"
	"time"
)

// validateLimits checks every limit section: build.limits, the daemon's
// server and stream limits and the ingress server's limits.
func (c *Config) validateLimits(l *problemList) {
	validateInputLimits(l, "build.limits", c.Build.Limits)
	validateServerLimits(l, "daemon.http.limits", c.Daemon.HTTP.Limits)
	s := c.Daemon.HTTP.LiveReloadLimits
	const sk = "daemon.http.livereload_limits"
	// Each stream holds one of the live-reload server's connections.
	streamsOK := checkRange(l, sk+".max_streams", s.MaxStreams, 1, MaxConnectionsCeiling)
	perClientOK := checkRange(l, sk+".max_streams_per_client", s.MaxStreamsPerClient, 1, MaxConnectionsCeiling)
	if streamsOK && perClientOK && s.MaxStreamsPerClient > s.MaxStreams {
		l.add(sk+".max_streams_per_client", "%d is more than %s.max_streams (%d); expected at most the total", s.MaxStreamsPerClient, sk, s.MaxStreams)
	}
	if c.Daemon.HTTP.LiveReloadEnabled && streamsOK && s.MaxStreams > c.Daemon.HTTP.Limits.MaxConnections && c.Daemon.HTTP.Limits.MaxConnections >= 1 {
		l.add(sk+".max_streams", "%d is more than daemon.http.limits.max_connections (%d), and every stream is a connection; expected at most %d",
			s.MaxStreams, c.Daemon.HTTP.Limits.MaxConnections, c.Daemon.HTTP.Limits.MaxConnections)
	}
	validateServerLimits(l, "ingress.limits", c.Ingress.Limits)
}

// validateInputLimits checks the bounds of what a repository may publish.
func validateInputLimits(l *problemList, key string, in InputLimits) {
	fileOK := checkRange(l, key+".max_file_bytes", in.MaxFileBytes, 1, MaxFileBytesCeiling)
	pageOK := checkRange(l, key+".max_page_bytes", in.MaxPageBytes, 1, MaxPageBytesCeiling)
	checkRange(l, key+".max_files", in.MaxFiles, 1, MaxFilesCeiling)
	totalOK := checkRange(l, key+".max_total_bytes", in.MaxTotalBytes, 1, MaxTotalBytesCeiling)
	if fileOK && pageOK && in.MaxPageBytes > in.MaxFileBytes {
		l.add(key+".max_page_bytes", "%d is more than %s.max_file_bytes (%d), and a page is a file; expected at most %d",
			in.MaxPageBytes, key, in.MaxFileBytes, in.MaxFileBytes)
	}
	if fileOK && totalOK && in.MaxFileBytes > in.MaxTotalBytes {
		l.add(key+".max_file_bytes", "%d is more than %s.max_total_bytes (%d); expected at most the total",
			in.MaxFileBytes, key, in.MaxTotalBytes)
	}
}

// validateServerLimits checks one server's connection limits and timeouts.
func validateServerLimits(l *problemList, key string, s ServerLimits) {
	totalOK := checkRange(l, key+".max_connections", s.MaxConnections, 1, MaxConnectionsCeiling)
	perClientOK := checkRange(l, key+".max_connections_per_client", s.MaxConnectionsPerClient, 1, MaxConnectionsCeiling)
	if totalOK && perClientOK && s.MaxConnectionsPerClient > s.MaxConnections {
		l.add(key+".max_connections_per_client", "%d is more than %s.max_connections (%d); expected at most the total",
			s.MaxConnectionsPerClient, key, s.MaxConnections)
	}
	headerOK := checkDurationRange(l, key+".read_header_timeout", s.ReadHeaderTimeout, time.Second, MaxServerTimeout)
	readOK := checkDurationRange(l, key+".read_timeout", s.ReadTimeout, time.Second, MaxServerTimeout)
	checkDurationRange(l, key+".idle_timeout", s.IdleTimeout, time.Second, MaxServerTimeout)
	if headerOK && readOK && s.ReadTimeout < s.ReadHeaderTimeout {
		l.add(key+".read_timeout", "%s is shorter than %s.read_header_timeout (%s), and it covers the headers too; expected at least %s",
			s.ReadTimeout, key, s.ReadHeaderTimeout, s.ReadHeaderTimeout)
	}
}

// checkRange reports a number outside [lo, hi] and says whether it is in
// range.
func checkRange(l *problemList, key string, value, lo, hi int) bool {
	if value < lo || value > hi {
		l.add(key, "%d is out of range; expected %s to %s", value, groupDigits(lo), groupDigits(hi))
		return false
	}
	return true
}

// checkDurationRange reports a duration outside [lo, hi] and says whether
// it is in range.
func checkDurationRange(l *problemList, key string, d, lo, hi time.Duration) bool {
	if d < lo || d > hi {
		l.add(key, "%s is out of range; expected a duration from %s to %s", d, lo, hi)
		return false
	}
	return true
}

// groupDigits writes an integer with thousands separators, so a ceiling
// such as 1,000,000 reads at a glance.
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
