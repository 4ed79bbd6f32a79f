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

// SetMaxPruneWords changes the budget of the automorphisms kept only to
// prune. It returns the previous one.
func SetMaxPruneWords(n int64) int64 {
	old := maxPruneWords
	maxPruneWords = n
	return old
}
