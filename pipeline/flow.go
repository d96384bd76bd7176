package pipeline

import (
	"fmt"
	"sort"
	"strings"
)

// DrawFlow draws the pipeline the stages declare: for each subject, the
// stages that consume it and the subjects each of them publishes. Subjects
// come in the order a build meets them, starting from those no stage
// publishes (the triggers'); stages of one subject in name order. It is
// what docs/events.md shows, so the catalogue's diagram is the code's.
func DrawFlow(stages []Stage) string {
	consumers := map[string][]Stage{}
	published := map[string]bool{}
	for _, st := range stages {
		for _, subj := range st.Subjects {
			consumers[subj] = append(consumers[subj], st)
		}
		for _, p := range st.Publishes {
			published[p] = true
		}
	}
	var queue []string
	for subj := range consumers {
		if !published[subj] {
			queue = append(queue, subj)
		}
	}
	sort.Strings(queue)
	seen := map[string]bool{}
	var b strings.Builder
	for len(queue) > 0 {
		subj := queue[0]
		queue = queue[1:]
		if seen[subj] {
			continue
		}
		seen[subj] = true
		list := consumers[subj]
		if len(list) == 0 {
			continue // consumed outside the pipeline
		}
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		width := 0
		for _, st := range list {
			width = max(width, len(st.Name))
		}
		fmt.Fprintf(&b, "%s\n", subj)
		for _, st := range list {
			out := "(nothing)"
			if len(st.Publishes) > 0 {
				out = strings.Join(st.Publishes, ", ")
			}
			fmt.Fprintf(&b, "  ─%s─►%s %s\n", st.Name, strings.Repeat(" ", width-len(st.Name)), out)
			queue = append(queue, st.Publishes...)
		}
	}
	return b.String()
}
