package grounding

// EvalWords evaluates the whole circuit on 64·w assignments at once, bit
// by bit: vals holds w words per node (node n at vals[n*w:(n+1)*w], at
// least NumNodes()*w words), the caller sets the inputs' words and
// EvalWords writes the constant's and every gate's.
func (c *Circuit) EvalWords(vals []uint64, w int) {
	n := c.NumNodes()
	vals = vals[:n*w]
	clear(vals[:w])
	for g := c.NumInputs + 1; g < n; g++ {
		dst := vals[g*w : (g+1)*w]
		for i := range dst {
			dst[i] = ^uint64(0)
		}
		for _, l := range c.Fanin[c.Start[g]:c.Start[g+1]] {
			src := vals[l.Node()*w:][:w]
			neg := -uint64(l & 1)
			for i := range dst {
				dst[i] &= src[i] ^ neg
			}
		}
	}
}

// WordsOf returns literal l's w words from node values computed by
// EvalWords, complemented when l is negated, appended to dst.
func WordsOf(dst, vals []uint64, w int, l Lit) []uint64 {
	neg := -uint64(l & 1)
	for _, x := range vals[l.Node()*w : (l.Node()+1)*w] {
		dst = append(dst, x^neg)
	}
	return dst
}
