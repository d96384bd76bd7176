package bench

// coldSeries holds, round by round, what the true floor's rows need of a
// cold build, its floor (our theme) and its true floor (one-line
// templates), taken in turn so a change in the machine's load touches the
// three alike.
type coldSeries struct {
	ColdCPU, FloorCPU       []float64
	TrueFloor, TrueFloorCPU []float64
	// ColdVsTrue and CPUVsTrue are the cold build's wall time and user CPU
	// over the true floor's of the same round.
	ColdVsTrue, CPUVsTrue []float64
}

// add records one round.
func (s *coldSeries) add(c coldSample, fl, tf floorSample) {
	s.ColdCPU, s.FloorCPU = append(s.ColdCPU, c.UserCPUSeconds), append(s.FloorCPU, fl.UserCPUSeconds)
	s.TrueFloor, s.TrueFloorCPU = append(s.TrueFloor, tf.Seconds), append(s.TrueFloorCPU, tf.UserCPUSeconds)
	s.ColdVsTrue = append(s.ColdVsTrue, ratioOf(c.Seconds, tf.Seconds))
	s.CPUVsTrue = append(s.CPUVsTrue, ratioOf(c.UserCPUSeconds, tf.UserCPUSeconds))
}

// ratioOf is a ÷ b, 0 when b is (a figure too small to time).
func ratioOf(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// trueFloorRows are the rows of the true floor: its wall time and user
// CPU, the cold build's user CPU against the floor's, and the two headline
// ratios, the cold build ÷ the true floor in wall time and in user CPU,
// each the median of the rounds' own ratios. err is why the cold builds
// or the floors could not be measured.
func trueFloorRows(label string, s coldSeries, err error) []Row {
	return []Row{
		row(RowColdVsTrueFloor, "cold build ÷ true floor (git clone + Hugo with one-line templates), wall, run by run", label, "×", s.ColdVsTrue, err, ""),
		row(RowColdCPUVsTrueFloor, "cold build ÷ true floor, user CPU, run by run", label, "×", s.CPUVsTrue, err, ""),
		row(RowColdTrueFloor, "true floor: git clone + Hugo with one-line templates in one piece", label, "s", s.TrueFloor, err, ""),
		row(RowColdUserCPU, "cold direct build, user CPU", label, "s", s.ColdCPU, err, RowFloorUserCPU),
		row(RowFloorUserCPU, "floor, user CPU (clones and render)", label, "s", s.FloorCPU, err, ""),
		row(RowTrueFloorUserCPU, "true floor, user CPU (clones and render)", label, "s", s.TrueFloorCPU, err, ""),
	}
}
