package grounding

// Bit-parallel simulation of a Cone: a vector of W uint64 words holds 64·W
// input assignments, and an AND gate is a word-wise AND of its (possibly
// complemented) fanin vectors.

// ConeSim evaluates a cone on W words of samples. Values are laid out slot
// by slot: slot s occupies Vals[s*W:(s+1)*W]. A ConeSim is not safe for
// concurrent use.
type ConeSim struct {
	Cone *Cone
	W    int
	Vals []uint64
	// FewFlips says that Flips after an Eval mostly reach distinct wide
	// gates (see wideAgain): Flip then re-reads a wide gate on its first
	// flip and builds its zero levels from the second.
	FewFlips bool

	mark  []int32  // Flip: 1 + position in the fanout of a gate slot, or 0
	tmp   []uint64 // Flip: values of the fanout gates
	fo    []int32  // Flip: fanout buffer
	dirty []uint64 // Flip: bitset of the gates with a changed fanin
	// Flip: the changed fanin literals of wide gate gi are
	// chg[gi*(zeroLevels-1):][:nchg[gi]]; nchg[gi] = zeroLevels says more
	// changed than fit.
	chg  []uint32
	nchg []uint8

	// Zero levels of wide gates (see wideFlip), computed on a Flip's first
	// use after an Eval: zero[gi] holds zeroLevels vectors of W words, the
	// j-th set where at least j+1 fanin literals are false; zeroGen[gi] is
	// the Eval they belong to.
	gen     uint32
	zero    [][]uint64
	zeroGen []uint32
	flipGen []uint32 // flipGen[gi]: the Eval after which a Flip last re-evaluated wide gate gi
}

// wideFanin is the fanin from which Flip updates a gate from its zero
// levels instead of re-reading every fanin; zeroLevels is the number of
// levels kept, so up to zeroLevels-1 fanins of one gate may change at once.
const (
	wideFanin  = 24
	zeroLevels = 4
)

// NewConeSim returns a simulator of cn on w words, every slot false.
func NewConeSim(cn *Cone, w int) *ConeSim {
	return &ConeSim{Cone: cn, W: w, Vals: make([]uint64, cn.NumSlots()*w)}
}

// Slot returns the vector of slot x.
func (s *ConeSim) Slot(x int) []uint64 { return s.Vals[x*s.W : (x+1)*s.W] }

// In returns the vector of cone input k, to be set before Eval.
func (s *ConeSim) In(k int) []uint64 { return s.Slot(1 + k) }

// Eval evaluates every gate on all W words and writes the root's vector to
// out[:W]. It returns the gate-word evaluations done.
func (s *ConeSim) Eval(out []uint64) int64 { return s.EvalN(s.W, out) }

// EvalN is Eval on the first wn words only.
func (s *ConeSim) EvalN(wn int, out []uint64) int64 {
	cn := s.Cone
	s.gen++
	if s.W == 64 && wn == 64 {
		s.eval64()
	} else {
		EvalGates(cn, s.Vals, s.W, wn)
	}
	root := s.Vals[int(cn.Root>>1)*s.W:][:wn]
	neg := -uint64(cn.Root & 1)
	for i, x := range root {
		out[i] = x ^ neg
	}
	return int64(len(cn.Gates) * wn)
}

// EvalGates evaluates the gates of cn on the first wn words of vals, laid
// out slot by slot with w words per slot; the constant and input slots must
// be set.
func EvalGates(cn *Cone, vals []uint64, w, wn int) {
	first := cn.FirstGate()
	for gi := range cn.Gates {
		dst := vals[(first+gi)*w:][:wn]
		fan := cn.GateFanin(gi)
		if len(fan) == 0 {
			fillWords(dst, ^uint64(0))
			continue
		}
		l := fan[0]
		src := vals[int(l>>1)*w:][:wn]
		neg := -uint64(l & 1)
		for i := range dst {
			dst[i] = src[i] ^ neg
		}
		for _, l := range fan[1:] {
			src := vals[int(l>>1)*w:][:wn]
			neg := -uint64(l & 1)
			for i := range dst {
				dst[i] &= src[i] ^ neg
			}
		}
	}
}

// eval64 is EvalGates for 64 words: fixed-size vectors, no bounds checks in
// the inner loops.
func (s *ConeSim) eval64() {
	cn := s.Cone
	vals := s.Vals
	first := cn.FirstGate()
	for gi := range cn.Gates {
		dst := (*[64]uint64)(vals[(first+gi)*64:])
		fan := cn.GateFanin(gi)
		if len(fan) == 0 {
			fillWords(dst[:], ^uint64(0))
			continue
		}
		l := fan[0]
		src := (*[64]uint64)(vals[int(l>>1)*64:])
		neg := -uint64(l & 1)
		for i := range dst {
			dst[i] = src[i] ^ neg
		}
		for _, l := range fan[1:] {
			src := (*[64]uint64)(vals[int(l>>1)*64:])
			neg := -uint64(l & 1)
			for i := range dst {
				dst[i] &= src[i] ^ neg
			}
		}
	}
}

// Flip writes to out[:wn] the root's value on the first wn words with cone
// input k negated, re-evaluating only k's fanout against the values of the
// last Eval (which it leaves unchanged). It is event-driven: a gate of the
// fanout is evaluated only when one of its fanins changed on some sample,
// and one whose value came out unchanged changes nothing further (an
// input's flip mostly dies out within a few levels, where re-evaluating
// the whole fanout cost chess's semantic supports a flip of every gate
// downstream). It returns the gate-words of k's fanout, a bound on the
// evaluations done that callers budget by.
func (s *ConeSim) Flip(k, wn int, out []uint64) int64 {
	cn, w := s.Cone, s.W
	fo := cn.CachedFanout(k, s.fo[:0])
	if _, ok := cn.cachedFanout(k); !ok {
		s.fo = fo // the scratch buffer, possibly grown; not cached
	}
	vals := s.Vals
	inSlot := 1 + k
	first := cn.FirstGate()
	if s.mark == nil {
		s.mark = make([]int32, cn.NumSlots())
		s.dirty = make([]uint64, (len(cn.Gates)+63)/64)
		s.chg = make([]uint32, (zeroLevels-1)*len(cn.Gates))
		s.nchg = make([]uint8, len(cn.Gates))
	}
	if cap(s.tmp) < len(fo)*wn {
		// Room for every gate at once: the buffer is allocated once.
		s.tmp = make([]uint64, max(len(fo)*wn, len(cn.Gates)*s.W))
	}
	tmp := s.tmp[:len(fo)*wn]
	// mark[slot] is 1 + the position in fo of a gate whose value changed
	// (its new value in tmp); dirty holds the gates with a changed fanin.
	// A wide gate also gets the changed literals listed (chg), so that
	// wideFlip need not scan its fanin for them (brawl's action classes:
	// 10 of 11 CPU s of wideFlip were that scan, over thousands of fanins).
	dirty, chg, nchg := s.dirty, s.chg, s.nchg
	touch := func(slot int) {
		for u := cn.userStart[slot]; u < cn.userStart[slot+1]; u++ {
			gi := cn.users[u]
			dirty[gi>>6] |= 1 << (gi & 63)
			if cn.Start[gi+1]-cn.Start[gi] >= wideFanin {
				if n := nchg[gi]; n < zeroLevels-1 {
					chg[int(gi)*(zeroLevels-1)+int(n)] = cn.userLit[u]
					nchg[gi]++
				} else {
					nchg[gi] = zeroLevels
				}
			}
		}
	}
	touch(inSlot)
	// value returns the vector of slot and the mask that negates it.
	value := func(slot int) ([]uint64, uint64) {
		if m := int(s.mark[slot]); m > 0 {
			return tmp[(m-1)*wn : m*wn], 0
		}
		if slot == inSlot {
			return vals[slot*w:][:wn], ^uint64(0)
		}
		return vals[slot*w:][:wn], 0
	}
	for i, gi := range fo {
		if dirty[gi>>6]&(1<<(gi&63)) == 0 {
			continue
		}
		dirty[gi>>6] &^= 1 << (gi & 63)
		dst := tmp[i*wn : (i+1)*wn]
		fan := cn.GateFanin(int(gi))
		if !(len(fan) >= wideFanin && (!s.FewFlips || s.wideAgain(int(gi))) && s.wideFlip(int(gi), fan, wn, tmp, dst)) {
			for fi, l := range fan {
				src, neg := value(int(l >> 1))
				neg ^= -uint64(l & 1)
				src = src[:len(dst)]
				if fi == 0 {
					for x := range dst {
						dst[x] = src[x] ^ neg
					}
				} else {
					for x := range dst {
						dst[x] &= src[x] ^ neg
					}
				}
			}
		}
		slot := first + int(gi)
		if !slicesEqual(dst, vals[slot*w:][:wn]) {
			s.mark[slot] = int32(i + 1)
			touch(slot)
		}
	}
	src, neg := value(int(cn.Root >> 1))
	neg ^= -uint64(cn.Root & 1)
	for x := range wn {
		out[x] = src[x] ^ neg
	}
	for _, gi := range fo {
		s.mark[first+int(gi)] = 0
		nchg[gi] = 0
	}
	return int64(len(fo) * wn)
}

// slicesEqual reports whether a and b (of one length) hold the same words.
func slicesEqual(a, b []uint64) bool {
	b = b[:len(a)]
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Simulate evaluates cn on w-word vectors; input(k) is the vector of cone
// input k (nil: constant false). It returns the root's vector in out and the
// slot values in vals (both reused when large enough).
func (cn *Cone) Simulate(w int, input func(k int) []uint64, vals, out []uint64) ([]uint64, []uint64) {
	n := cn.NumSlots() * w
	if cap(vals) < n {
		vals = make([]uint64, n)
	}
	vals = vals[:n]
	clear(vals[:w])
	for k := range cn.Inputs {
		dst := vals[(1+k)*w : (2+k)*w]
		if in := input(k); in != nil {
			copy(dst, in)
		} else {
			clear(dst)
		}
	}
	EvalGates(cn, vals, w, w)
	if cap(out) < w {
		out = make([]uint64, w)
	}
	out = out[:w]
	src := vals[int(cn.Root>>1)*w:][:w]
	neg := -uint64(cn.Root & 1)
	for i := range out {
		out[i] = src[i] ^ neg
	}
	return out, vals
}

func fillWords(s []uint64, x uint64) {
	for i := range s {
		s[i] = x
	}
}

// wideFlip computes into dst (wn words) the value of wide gate gi during a
// Flip, when at most zeroLevels-1 of its fanins
// change (the flipped input, or gates of the fanout, marked, whose new
// values are in tmp; Flip lists them in chg): the gate is true where every
// changed fanin literal is now true and no unchanged one is false, and an
// unchanged one is false exactly where the gate's false fanins outnumber
// the changed fanins that were false. It reports false, doing nothing,
// when more fanins change.
func (s *ConeSim) wideFlip(gi int, fan []uint32, wn int, tmp, dst []uint64) bool {
	nc := int(s.nchg[gi])
	if nc > zeroLevels-1 {
		return false
	}
	var changed [zeroLevels - 1]uint32
	copy(changed[:], s.chg[gi*(zeroLevels-1):][:nc])
	z := s.zeroLevelsOf(gi, fan)
	w := s.W
	vals := s.Vals
	for i := range wn {
		// Old and new values of the changed literals.
		var zc [zeroLevels - 1]uint64 // where each changed literal was false
		now := ^uint64(0)
		for c := range nc {
			l := changed[c]
			slot := int(l >> 1)
			neg := -uint64(l & 1)
			old := vals[slot*w+i] ^ neg
			zc[c] = ^old
			var nw uint64
			if m := int(s.mark[slot]); m > 0 {
				nw = tmp[(m-1)*wn+i] ^ neg
			} else {
				nw = ^vals[slot*w+i] ^ neg // the flipped input
			}
			now &= nw
		}
		// Bit-sliced count of the changed literals that were false (0..3).
		s0 := zc[0] ^ zc[1] ^ zc[2]
		s1 := zc[0]&zc[1] | zc[0]&zc[2] | zc[1]&zc[2]
		otherFalse := ^s0&^s1&z[0*w+i] | s0&^s1&z[1*w+i] | ^s0&s1&z[2*w+i] | s0&s1&z[3*w+i]
		dst[i] = now &^ otherFalse
	}
	return true
}

// wideAgain reports whether a Flip already re-evaluated wide gate gi since
// the last Eval, and records that one does now. Zero levels cost zeroLevels
// passes over every fanin and pay off from a gate's second flip: a gate
// flipped once is cheaper to re-read (amazons' role choices flip 32 inputs
// of as many gates of 1,700 fanins each).
func (s *ConeSim) wideAgain(gi int) bool {
	if s.flipGen == nil {
		s.flipGen = make([]uint32, len(s.Cone.Gates))
	}
	if s.flipGen[gi] == s.gen {
		return true
	}
	s.flipGen[gi] = s.gen
	return false
}

// zeroLevelsOf returns the zero levels of wide gate gi for the values of
// the last Eval, computing them on first use.
func (s *ConeSim) zeroLevelsOf(gi int, fan []uint32) []uint64 {
	if s.zero == nil {
		s.zero = make([][]uint64, len(s.Cone.Gates))
		s.zeroGen = make([]uint32, len(s.Cone.Gates))
	}
	w := s.W
	z := s.zero[gi]
	if z != nil && s.zeroGen[gi] == s.gen {
		return z
	}
	if z == nil {
		z = make([]uint64, zeroLevels*w)
		s.zero[gi] = z
	}
	// Word by word, the levels in registers: level by level in memory,
	// each fanin cost four loads and stores a word (a third of chess's
	// semantic supports went to these levels).
	vals := s.Vals
	for i := range w {
		var z0, z1, z2, z3 uint64
		for _, l := range fan {
			nz := ^(vals[int(l>>1)*w+i] ^ -uint64(l&1))
			z3 |= z2 & nz
			z2 |= z1 & nz
			z1 |= z0 & nz
			z0 |= nz
		}
		z[i], z[w+i], z[2*w+i], z[3*w+i] = z0, z1, z2, z3
	}
	s.zeroGen[gi] = s.gen
	return z
}
