package isomorph

// SetTargetHeuristic lets tests and benchmarks compare target-cell
// heuristics. It returns the previous one.
func SetTargetHeuristic(h int) int {
	old := targetHeuristic
	targetHeuristic = h
	return old
}

// SetMaxHeld changes the child-list memory budget. It returns the previous
// one.
func SetMaxHeld(n int) int {
	old := maxHeld
	maxHeld = n
	return old
}
