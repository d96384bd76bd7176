package events

// Rendering in parts: once every unit of a build has its documentation tree
// (build.content_ready), the assemble stage plans the render — one
// unit.render per unit whose output is not stored yet — and the render
// stage's replicas share those jobs. Each answers with unit.rendered; the
// assemble stage records the answers in the build's render join and, when
// every unit has one, assembles and publishes the site (site.rendered).

// Subjects of rendering in parts.
const (
	SubjectUnitRender   = Prefix + "unit.render"
	SubjectUnitRendered = Prefix + "unit.rendered"
)

// Schema versions of the unit messages.
const (
	UnitRenderVersion   = 1
	UnitRenderedVersion = 1
)

// Outcomes of a unit's render.
const (
	UnitOutcomeRendered = "rendered" // rendered by this build
	UnitOutcomeReused   = "reused"   // its address was stored: the stored output is used
	UnitOutcomeFailed   = "failed"   // it could not be rendered
)

// UnitRender asks a render replica to render one unit of a build.
type UnitRender struct {
	Header
	// Unit is the unit's outcome from the build's clone join: its
	// repository, content path, version and documentation tree.
	Unit RepoOutcome `json:"unit"`
	// Spec is the artifact reference of the build's render spec: the site
	// settings and the site's repositories and versions, the same for
	// every unit of the build.
	Spec string `json:"spec"`
	// Address is the unit's content address as the planner computed it;
	// the render stores its output under the address it computes itself,
	// which differs only between processes of different builders.
	Address string `json:"address"`
}

// Subject implements Event.
func (*UnitRender) Subject() string { return SubjectUnitRender }

// Key is the unit's key (UnitKey).
func (m *UnitRender) Key() string { return m.Unit.Key() }

// UnitOutcome is what became of one unit's render in one build.
type UnitOutcome struct {
	Key         string `json:"key"`        // the unit's key (UnitKey)
	Repository  string `json:"repository"` // its repository
	Version     string `json:"version,omitempty"`
	ContentPath string `json:"content_path"` // its content path
	Outcome     string `json:"outcome"`      // rendered | reused | failed
	Address     string `json:"address"`      // its content address
	// Output and Facts are the artifact references of the unit's
	// published files and of its facts (page list, search entries); empty
	// when it failed.
	Output string `json:"output,omitempty"`
	Facts  string `json:"facts,omitempty"`
	Pages  int    `json:"pages"`
	Files  int    `json:"files"`
	// Stale is set by the assembly for a failed unit whose last good output
	// (Output, Facts) from an earlier build is on the site instead.
	Stale bool `json:"stale,omitempty"`
	// Error says why the unit failed.
	Error string `json:"error,omitempty"`
	// Issues are the unit's page problems (warnings) and, when it failed,
	// its RENDER_FAILED error.
	IssueList
	DurationMS int64 `json:"duration_ms"`
}

// UnitRendered reports the render of one unit.
type UnitRendered struct {
	Header
	Outcome UnitOutcome `json:"outcome"`
}

// Subject implements Event.
func (*UnitRendered) Subject() string { return SubjectUnitRendered }
