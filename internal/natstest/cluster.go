package natstest

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// How long the harness waits for the cluster. Generous, because a loaded CI
// machine elects leaders slowly; a healthy loopback cluster needs a few
// seconds at most.
const (
	readyTimeout  = 10 * time.Second
	leaderTimeout = 30 * time.Second
	pollInterval  = 25 * time.Millisecond
)

// Cluster is a set of embedded nats-server nodes routed to each other on
// 127.0.0.1, with JetStream on every node. Nodes keep their ports and store
// directories across Shutdown and Restart, so a restarted node rejoins as
// the same peer, as a restarted pod of a StatefulSet would.
type Cluster struct {
	tb    testing.TB
	name  string
	mu    sync.Mutex
	nodes []*node
}

// node is one cluster member: what it needs to start again, and the running
// server when it is up.
type node struct {
	name        string
	storeDir    string
	clientPort  int // -1 until the first start picked one
	clusterPort int
	srv         *server.Server
}

// StartCluster starts n clustered JetStream nodes (n ≥ 1; one node runs
// JetStream without clustering) and waits until a meta leader sees all of
// them, so a test may create replicated streams at once. The cluster is shut
// down by tb.Cleanup; store directories are temporary.
func StartCluster(tb testing.TB, n int) *Cluster {
	tb.Helper()
	if n < 1 {
		tb.Fatalf("natstest: StartCluster needs at least 1 node, got %d", n)
	}
	// The cluster ports are picked free and then bound by the nodes: a
	// test running in parallel may take one in between. A formation that
	// fails for that reason is torn down and tried again on fresh ports.
	var err error
	for attempt := 1; attempt <= formationAttempts; attempt++ {
		var c *Cluster
		if c, err = formCluster(tb, n); err == nil {
			tb.Cleanup(c.shutdownAll)
			c.WaitForJetStream()
			return c
		}
	}
	tb.Fatalf("natstest: %v (after %d attempts)", err, formationAttempts)
	return nil
}

// formationAttempts bounds StartCluster's tries on fresh ports.
const formationAttempts = 3

// formCluster starts the nodes on freshly picked cluster ports and waits
// until each accepts clients; on failure it stops what it started.
func formCluster(tb testing.TB, n int) (*Cluster, error) {
	clusterPorts, err := freePorts(n)
	if err != nil {
		return nil, err
	}
	c := &Cluster{tb: tb, name: fmt.Sprintf("docweave-test-%d", clusterPorts[0])}
	for i := range n {
		c.nodes = append(c.nodes, &node{
			name:        fmt.Sprintf("%s-n%d", c.name, i),
			storeDir:    tb.TempDir(),
			clientPort:  -1,
			clusterPort: clusterPorts[i],
		})
	}
	for i := range c.nodes {
		if err := c.start(i); err != nil {
			c.shutdownAll()
			return nil, err
		}
	}
	for i := range c.nodes {
		if err := c.waitReady(i); err != nil {
			c.shutdownAll()
			return nil, err
		}
	}
	return c, nil
}

// Size is the number of nodes, running or not.
func (c *Cluster) Size() int { return len(c.nodes) }

// Name is the cluster name every node carries (`cluster { name }`).
func (c *Cluster) Name() string { return c.name }

// URLs is every node's client URL, comma-separated: the form of
// daemon.link_verification.broker_url for a cluster. Stopped nodes stay in
// the list, as they would in an operator's configuration; clients skip them.
func (c *Cluster) URLs() string {
	urls := make([]string, len(c.nodes))
	for i := range c.nodes {
		urls[i] = c.ClientURL(i)
	}
	return strings.Join(urls, ",")
}

// ClientURL is node i's client URL (nats://127.0.0.1:<port>), stable across
// Shutdown and Restart.
func (c *Cluster) ClientURL(i int) string {
	n := c.node(i)
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("nats://127.0.0.1:%d", n.clientPort)
}

// Server is node i's running server, or nil while it is stopped; for tests
// that need to ask a node directly (for example which node leads a stream).
func (c *Cluster) Server(i int) *server.Server {
	n := c.node(i)
	c.mu.Lock()
	defer c.mu.Unlock()
	return n.srv
}

// Shutdown stops node i and waits until it is down; stopping a stopped node
// does nothing. The remaining nodes keep serving as long as they are a
// majority.
func (c *Cluster) Shutdown(i int) {
	n := c.node(i)
	c.mu.Lock()
	srv := n.srv
	n.srv = nil
	c.mu.Unlock()
	if srv == nil {
		return
	}
	srv.Shutdown()
	srv.WaitForShutdown()
}

// Restart starts a stopped node i again on its old ports with its old store,
// and waits until it has rejoined: a meta leader sees every running node.
// Restarting a running node fails the test.
func (c *Cluster) Restart(i int) {
	c.tb.Helper()
	if c.Server(i) != nil {
		c.tb.Fatalf("natstest: Restart(%d): node is running; call Shutdown(%d) first", i, i)
	}
	if err := c.start(i); err != nil {
		c.tb.Fatalf("natstest: restart: %v", err)
	}
	if err := c.waitReady(i); err != nil {
		c.tb.Fatalf("natstest: restart: %v", err)
	}
	c.WaitForJetStream()
}

// WaitForJetStream waits until the running nodes have a JetStream meta
// leader that counts every running node as a peer and every running node is
// current with it, or fails the test. Call it after Shutdown before
// creating streams, so the request does not meet an election.
func (c *Cluster) WaitForJetStream() {
	c.tb.Helper()
	if err := c.waitForMetaLeader(leaderTimeout); err != nil {
		c.tb.Fatalf("natstest: %v", err)
	}
}

func (c *Cluster) node(i int) *node {
	if i < 0 || i >= len(c.nodes) {
		c.tb.Fatalf("natstest: node %d does not exist; the cluster has nodes 0 to %d", i, len(c.nodes)-1)
	}
	return c.nodes[i]
}

// start builds fresh options (the server keeps and changes the ones it is
// given) and starts node i without waiting.
func (c *Cluster) start(i int) error {
	n := c.nodes[i]
	opts := &server.Options{
		ServerName: n.name,
		Host:       "127.0.0.1",
		Port:       n.clientPort,
		JetStream:  true,
		StoreDir:   n.storeDir,
		NoLog:      true,
		NoSigs:     true,
	}
	if len(c.nodes) > 1 {
		opts.Cluster = server.ClusterOpts{Name: c.name, Host: "127.0.0.1", Port: n.clusterPort}
		for _, other := range c.nodes {
			// A route to itself is ignored by the server; every node
			// getting the same list mirrors an operator's config file.
			opts.Routes = append(opts.Routes, &url.URL{Scheme: "nats-route", Host: fmt.Sprintf("127.0.0.1:%d", other.clusterPort)})
		}
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return fmt.Errorf("configure node %d (%s): %w", i, n.name, err)
	}
	go srv.Start()
	c.mu.Lock()
	n.srv = srv
	c.mu.Unlock()
	return nil
}

// waitReady waits for node i to accept clients and remembers its client
// port, so a restart comes back on the same URL.
func (c *Cluster) waitReady(i int) error {
	n := c.nodes[i]
	c.mu.Lock()
	srv := n.srv
	c.mu.Unlock()
	if srv == nil || !srv.ReadyForConnections(readyTimeout) {
		return fmt.Errorf("node %d (%s) not accepting clients after %s (client port %d, cluster port %d in use?)",
			i, n.name, readyTimeout, n.clientPort, n.clusterPort)
	}
	addr, ok := srv.Addr().(*net.TCPAddr)
	if !ok {
		return fmt.Errorf("node %d (%s): no TCP client listener", i, n.name)
	}
	c.mu.Lock()
	n.clientPort = addr.Port
	c.mu.Unlock()
	return nil
}

func (c *Cluster) running() []*server.Server {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*server.Server
	for _, n := range c.nodes {
		if n.srv != nil {
			out = append(out, n.srv)
		}
	}
	return out
}

func (c *Cluster) waitForMetaLeader(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		state := c.metaState()
		if state == "" {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("JetStream cluster %s not settled after %s: %s", c.name, timeout, state)
		}
		time.Sleep(pollInterval)
	}
}

// metaState is "" when the cluster is settled, else what is still missing.
func (c *Cluster) metaState() string {
	servers := c.running()
	if len(servers) == 0 {
		return "no node is running"
	}
	if len(c.nodes) == 1 {
		if servers[0].JetStreamEnabled() {
			return ""
		}
		return "JetStream not enabled yet"
	}
	var leader *server.Server
	for _, s := range servers {
		if s.JetStreamIsLeader() {
			leader = s
		}
		if !s.JetStreamIsCurrent() {
			return fmt.Sprintf("node %s is not current with the meta group", s.Name())
		}
	}
	if leader == nil {
		return "no meta leader elected"
	}
	if peers := leader.JetStreamClusterPeers(); len(peers) < len(servers) {
		return fmt.Sprintf("meta leader %s sees %d of %d running nodes", leader.Name(), len(peers), len(servers))
	}
	return ""
}

// shutdownAll stops every node that is still running; registered with
// t.Cleanup before the store directories' removal runs.
func (c *Cluster) shutdownAll() {
	for i := range c.nodes {
		c.Shutdown(i)
	}
}
