package daemon

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docweave/docweave/config"
	"github.com/docweave/docweave/internal/gittest"
	"github.com/docweave/docweave/internal/natstest"
	"github.com/docweave/docweave/report"
	"github.com/docweave/docweave/stages"
)

// Replicas are safe by construction: with two and with three processes
// that each run every stage, each with its own output directory, every
// build reported successful is the one the docs server serves, whichever
// replica assembled it and whichever announced it — also when one replica
// stops in the middle of a build. Before the assembly uploaded the site
// itself, publishreload on another replica than the assembler's found no
// site (or an older one) in its own output directory, and the build was
// reported successful while the docs server kept the old site.
func TestEverySuccessfulBuildIsServedWhateverTheReplica(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 40 builds")
	}
	for _, replicas := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d replicas", replicas), func(t *testing.T) {
			cluster := natstest.StartCluster(t, 1)
			repo := gittest.NewRepo(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\nEdition 0.\n"})
			base := daemonConfig(t, repo.FileURL())
			base.Broker.URL = cluster.URLs()
			base.Site.Name = fmt.Sprintf("replicas%d", replicas)
			base.Build.ArtifactStore = config.ArtifactStoreBroker
			base.Build.AckWait = 3 * time.Second
			// Every build's end prunes the object store of all the served
			// site does not name: the next build, on any replica, still
			// succeeds and is served.
			base.Build.ArtifactRetention = 0

			every := []string{stages.Discover, stages.Clone, stages.Join, stages.Render, stages.Assemble, stages.Finish, stages.PublishReload}
			var stops []func()
			for range replicas {
				_, stop := runStoppable(t, processConfig(t, base), every, nil)
				stops = append(stops, stop)
			}
			front := runSplit(t, processConfig(t, base), nil, []string{ServerDocs, ServerAdmin})

			const builds = 20
			disagreed, succeeded := 0, 0
			for i := 1; i <= builds; i++ {
				edition := fmt.Sprintf("Edition %d.", i)
				repo.Commit(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\n" + edition + "\n"}, edition)
				id := askBuild(t, front.Admin)
				if i == builds/2 {
					// One replica stops while this build runs; the others
					// take its messages over.
					time.Sleep(200 * time.Millisecond)
					stops[0]()
				}
				rec := readBuild(t, front.Admin, id)
				for deadline := time.Now().Add(2 * time.Minute); (rec.State == StateQueued || rec.State == StateRunning) && time.Now().Before(deadline); {
					time.Sleep(50 * time.Millisecond)
					rec = readBuild(t, front.Admin, id)
				}
				served := false
				for deadline := time.Now().Add(10 * time.Second); !served && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
					_, body := get(t, "http://"+front.Docs+"/docs/handbook/guide/")
					served = strings.Contains(body, edition)
				}
				if rec.State == report.OutcomeSuccess {
					succeeded++
				}
				if (rec.State == report.OutcomeSuccess) != served {
					disagreed++
					t.Errorf("build %d (%s): reported %s, its site served: %v", i, id, rec.State, served)
				}
			}
			t.Logf("%d replicas: %d of %d builds succeeded, %d reported otherwise than served", replicas, succeeded, builds, disagreed)
			if succeeded < builds {
				t.Errorf("%d of %d builds succeeded; a replica that stops must not fail a build", succeeded, builds)
			}
		})
	}
}
