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

// Replicas of the site stages are safe by construction: with two and with
// three processes running assemble and publishreload, each with its own
// output directory, every build reported successful is the one the docs
// server serves, whichever replica assembled it and whichever announced
// it. Before the assembly uploaded the site itself, publishreload on
// another replica than the assembler's found no site (or an older one) in
// its own output directory, and the build was reported successful while
// the docs server kept the old site.
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

			runSplit(t, processConfig(t, base), []string{stages.Discover, stages.Clone, stages.Join, stages.Render, stages.Finish}, nil)
			for range replicas {
				runSplit(t, processConfig(t, base), []string{stages.Assemble, stages.PublishReload}, nil)
			}
			front := runSplit(t, processConfig(t, base), nil, []string{ServerDocs, ServerAdmin})

			const builds = 20
			disagreed := 0
			for i := 1; i <= builds; i++ {
				edition := fmt.Sprintf("Edition %d.", i)
				repo.Commit(t, map[string]string{"docs/guide.md": "---\ntitle: Guide\n---\n" + edition + "\n"}, edition)
				id := askBuild(t, front.Admin)
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
				if (rec.State == report.OutcomeSuccess) != served {
					disagreed++
					t.Errorf("build %d (%s): reported %s, its site served: %v", i, id, rec.State, served)
				}
			}
			t.Logf("%d replicas: %d of %d builds reported otherwise than served", replicas, disagreed, builds)
		})
	}
}
