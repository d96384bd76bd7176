package config

import (
	"strings"
	"testing"
)

func TestRepositoryDescription(t *testing.T) {
	c := mustLoad(t, oneRepo+"    description: The handbook of the platform team.\n", ModeDirect)
	if got := c.Repositories[0].Description; got != "The handbook of the platform team." {
		t.Fatalf("description = %q", got)
	}
	_, err := loadText(t, oneRepo+"    description: "+strings.Repeat("x", MaxDescriptionLength+1)+"\n", ModeDirect)
	requireProblem(t, err, "repositories[0].description", "at most 300")
	_, err = loadText(t, oneRepo+"    description: \"two\\nlines\"\n", ModeDirect)
	requireProblem(t, err, "repositories[0].description", "line break")
}
