package grounding

// GroupBy groups xs by key, the groups in order of their first element and
// each group in the order of xs.
func GroupBy[K comparable](xs []int, key func(x int) K) [][]int {
	index := map[K]int{}
	var groups [][]int
	for _, x := range xs {
		k := key(x)
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], x)
	}
	return groups
}
