package github

import (
	"testing"

	"github.com/docweave/docweave/site/internal/dialect"
)

func TestTaskBoxesAreNamedCheckBoxes(t *testing.T) {
	src := "- [x] Pack\n- [ ] Leave\n  1. [X] nested\n> * [ ] quoted\n\n```\n- [x] in code\n```\nNot [x] a task.\n- [y] not a box\n"
	want := "- <input type=\"checkbox\" checked disabled aria-label=\"Done\"> Pack\n" +
		"- <input type=\"checkbox\" disabled aria-label=\"To do\"> Leave\n" +
		"  1. <input type=\"checkbox\" checked disabled aria-label=\"Done\"> nested\n" +
		"> * <input type=\"checkbox\" disabled aria-label=\"To do\"> quoted\n\n```\n- [x] in code\n```\nNot [x] a task.\n- [y] not a box\n"
	d := Dialect{}
	if !d.Marked([]byte(src)) || d.Marked([]byte("Not [x] a task.\n")) {
		t.Error("Marked is wrong")
	}
	got, notes := d.Convert(dialect.Page{Source: []byte(src)})
	if string(got) != want || notes != nil {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
