package natstest

import (
	"context"
	"testing"
	"time"

	"github.com/docweave/docweave/pipeline/natsbroker"
)

// TestURLsServeAsDocweaveBrokerURL checks the harness against docweave's
// own broker code: URLs() is accepted as broker_url, and the pipeline's
// stream and buckets can be provisioned on the cluster with three replicas.
func TestURLsServeAsDocweaveBrokerURL(t *testing.T) {
	c := StartCluster(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	broker, err := natsbroker.Open(ctx, natsbroker.Options{URL: c.URLs(), Name: "natstest"})
	if err != nil {
		t.Fatalf("open broker %s: %v", c.URLs(), err)
	}
	defer broker.Close()
	if err := natsbroker.Provision(ctx, broker.JS, 3); err != nil {
		t.Fatalf("provision on the cluster: %v", err)
	}
	stream, err := broker.JS.Stream(ctx, natsbroker.StreamName)
	if err != nil {
		t.Fatalf("stream %s: %v", natsbroker.StreamName, err)
	}
	info := stream.CachedInfo()
	if info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
		t.Errorf("stream %s: replicas %d, cluster %+v; want a leader and two followers", natsbroker.StreamName, info.Config.Replicas, info.Cluster)
	}
}
