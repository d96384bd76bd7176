package assembly

import (
	"fmt"
	"testing"
)

// A site with more term pages than one assembly reuses keeps those
// carried by most pages, so the cascade's list of paths stays bounded.
func TestReusedTermsAreBounded(t *testing.T) {
	in := termInputs{terms: map[string]string{}, dirs: map[string]string{}, pages: map[string]int{}}
	placed := &PlacedSite{TermFrame: "frame", Terms: map[string]PlacedTerm{}}
	in.frame = "frame"
	for i := 0; i < maxReusedTerms+10; i++ {
		term := fmt.Sprintf("/tags/t%04d", i)
		file := fmt.Sprintf("tags/t%04d/index.html", i)
		in.terms[term], in.pages[term] = "d"+term, i
		placed.Terms[term] = PlacedTerm{Digest: "d" + term, Files: []string{file}}
		placed.AssemblyFiles = append(placed.AssemblyFiles, FileHash{Rel: file, Hash: "h"})
	}
	reuse := placed.reusableTerms(in)
	if len(reuse) != maxReusedTerms {
		t.Fatalf("reused %d term pages, want %d", len(reuse), maxReusedTerms)
	}
	if _, ok := reuse["/tags/t0000"]; ok {
		t.Error("the term carried by fewest pages was reused before larger ones")
	}
	if _, ok := reuse[fmt.Sprintf("/tags/t%04d", maxReusedTerms+9)]; !ok {
		t.Error("the term carried by most pages was not reused")
	}
	in.frame = "another frame"
	if len(placed.reusableTerms(in)) != 0 {
		t.Error("term pages reused under another frame")
	}
}
