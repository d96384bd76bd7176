package config

import "time"

// validateBuild checks the build section: enums, counts, retry delays and
// prune globs.
func (c *Config) validateBuild(l *problemList) {
	b := c.Build
	checkEnum(l, "build.clone_strategy", b.CloneStrategy, "fresh", "update", "auto")
	checkEnum(l, "build.retry_backoff", b.RetryBackoff, "fixed", "linear", "exponential")
	checkEnum(l, "build.namespace_forges", b.NamespaceForges, "auto", "always", "never")
	checkEnum(l, "build.broken_links", b.BrokenLinks, BrokenLinksWarn, BrokenLinksFail)
	checkEnum(l, "build.artifact_store", b.ArtifactStore, ArtifactStoreAuto, ArtifactStoreLocal, ArtifactStoreBroker)
	checkDurationRange(l, "build.ack_wait", b.AckWait, time.Second, MaxAckWait)
	checkDurationRange(l, "build.stage_timeout", b.StageTimeout, time.Second, MaxStageTimeout)
	checkDurationRange(l, "build.artifact_retention", b.ArtifactRetention, 0, MaxArtifactRetention)
	if b.StreamReplicas < 1 || b.StreamReplicas > 5 {
		l.add("build.stream_replicas", "%d is out of range; expected 1 to 5 (NATS keeps at most 5 replicas)", b.StreamReplicas)
	}
	checkRange(l, "build.clone_concurrency", b.CloneConcurrency, 1, MaxCloneConcurrency)
	if b.RenderConcurrency < 1 || b.RenderConcurrency > 64 {
		l.add("build.render_concurrency", "%d is out of range; expected 1 to 64 (each render holds one unit's pages in memory)", b.RenderConcurrency)
	}
	checkRange(l, "build.shallow_depth", b.ShallowDepth, 0, MaxShallowDepth)
	checkRange(l, "build.max_retries", b.MaxRetries, 0, MaxRetriesCeiling)
	initialOK := checkDurationRange(l, "build.retry_initial_delay", b.RetryInitialDelay, 0, MaxRetryDelay)
	maxOK := checkDurationRange(l, "build.retry_max_delay", b.RetryMaxDelay, 0, MaxRetryDelay)
	if initialOK && maxOK && b.RetryInitialDelay > b.RetryMaxDelay {
		l.add("build.retry_initial_delay", "%s is longer than build.retry_max_delay (%s); expected at most the maximum delay",
			b.RetryInitialDelay, b.RetryMaxDelay)
	}
	checkGlobs(l, "build.prune_allow", b.PruneAllow)
	checkGlobs(l, "build.prune_deny", b.PruneDeny)
}
