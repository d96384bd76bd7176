package verifylinks

import (
	"testing"

	"github.com/docweave/docweave/pipeline/stagetest"
)

// TestVerifyLinksKeepsTheStageContract: verifying a site again (a
// redelivered site.rendered) gives the same links.verified and the same
// broken-link events, under the same IDs, so the broker drops the repeats;
// a cancelled verification is handed back.
func TestVerifyLinksKeepsTheStageContract(t *testing.T) {
	h := newHarness(t, nil)
	h.writeReport("b0")
	h.publish(h.rendered("b0")) // the runner has provisioned the stage's stream and cache
	h.writeReport("b1")
	if out := stagetest.CheckRedelivery(t, h.pipelined, h.rendered("b1")); len(out) < 2 {
		t.Fatalf("%d events, want the broken links and links.verified", len(out))
	}
	h.writeReport("b2")
	stagetest.CheckCancellation(t, h.pipelined, h.rendered("b2"))
}
