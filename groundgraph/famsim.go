package groundgraph

import (
	"cmp"
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"github.com/gamequiv/gamequiv/grounding"
)

// Family simulation. A big game's functions of the state often read one
// shared circuit: each of chess's 7,622 legal functions holds the check
// that the king is safe after the move, over the whole board, so
// simSupport, which flips every input of each function's cone on samples
// of its own, pays for that check once per function and input.
// famSupport simulates the union of the functions' cones once and flips
// each input once for all of them, event-driven (a gate is evaluated again
// only when one of its fanins changed on some sample), and records, for
// every function whose root changed, that the input matters: a witness of
// dependence is exact whatever the samples, so simSupport starts from
// these and decides only the inputs left.

// famWords is the number of 64-sample words of the family's first
// (random) round.
const famWords = 8

// famMinShare: a family is simulated only when its functions' cones hold
// at least this many times the gates of their union. Where cones share
// little, family simulation costs what simSupport's first round does and
// saves nothing.
const famMinShare = 4

// famMaxSlotWords bounds the family's value vectors (slots × words, 8
// bytes each): 2^24 words are 128 MiB. Boundary rounds are as wide as it
// allows, up to boundaryWords.
const famMaxSlotWords = 1 << 24

// famSim is the bit-parallel simulator of the union of some cones of a
// circuit. Slot 0 is the constant false, slots 1..nIn the circuit inputs
// the union reads (ascending), the gates follow in ascending (hence
// topological) order.
type famSim struct {
	node      []int32  // circuit node of each slot
	nIn       int      // inputs
	start     []int32  // gate g = slot nIn+1+g: fanins fanin[start[g]:start[g+1]]
	fanin     []uint32 // slot<<1 | negated
	userStart []int32  // the gates reading slot s: users[userStart[s]:userStart[s+1]] (slots)
	users     []int32
	rootFns   map[int32][]int32 // slot -> the members whose root it is
	w         int
	vals      []uint64
}

// newFamSim returns the simulator of the union of the cones of roots (no
// constant roots), or nil when it would hold more than maxSlotWords words
// or more slots than a famMinShare-th of memberGates, the gates of the
// members' cones added up.
func newFamSim(c *grounding.Circuit, roots []grounding.Lit, memberGates int64, w, maxSlotWords int) *famSim {
	nn := c.NumNodes()
	slotOf := make([]int32, nn) // 1 + slot, 0 outside the union
	var nodes []int32
	var stack []int32
	for _, r := range roots {
		if n := int32(r.Node()); slotOf[n] == 0 {
			slotOf[n] = 1
			stack = append(stack, n)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nodes = append(nodes, n)
		for _, l := range c.Fanin[c.Start[n]:c.Start[n+1]] {
			if m := int32(l.Node()); slotOf[m] == 0 {
				slotOf[m] = 1
				stack = append(stack, m)
			}
		}
	}
	slots := len(nodes) + 1 // and the constant
	if slots*w > maxSlotWords || famMinShare*int64(slots) > memberGates {
		return nil
	}
	nodes = append(nodes, 0)
	slices.Sort(nodes)
	nodes = slices.Compact(nodes)
	fs := &famSim{node: nodes, w: w, rootFns: map[int32][]int32{}}
	for s, n := range nodes {
		slotOf[n] = int32(s) + 1
		if n >= 1 && int(n) <= c.NumInputs {
			fs.nIn++
		}
	}
	nG := len(nodes) - 1 - fs.nIn
	fs.start = make([]int32, nG+1)
	count := make([]int32, len(nodes)+1)
	for g := range nG {
		n := nodes[1+fs.nIn+g]
		for _, l := range c.Fanin[c.Start[n]:c.Start[n+1]] {
			s := slotOf[l.Node()] - 1
			fs.fanin = append(fs.fanin, uint32(s)<<1|uint32(l&1))
			count[s+1]++
		}
		fs.start[g+1] = int32(len(fs.fanin))
	}
	for s := range len(nodes) {
		count[s+1] += count[s]
	}
	fs.userStart = slices.Clone(count)
	fs.users = make([]int32, len(fs.fanin))
	for g := range nG {
		for _, l := range fs.fanin[fs.start[g]:fs.start[g+1]] {
			s := l >> 1
			fs.users[count[s]] = int32(1 + fs.nIn + g)
			count[s]++
		}
	}
	for j, r := range roots {
		s := slotOf[r.Node()] - 1
		fs.rootFns[s] = append(fs.rootFns[s], int32(j))
	}
	fs.vals = make([]uint64, len(nodes)*w)
	return fs
}

// slot returns the vector of slot s.
func (fs *famSim) slot(s int) []uint64 { return fs.vals[s*fs.w : (s+1)*fs.w] }

// eval evaluates every gate on the inputs' vectors.
func (fs *famSim) eval() {
	w := fs.w
	for g := range len(fs.start) - 1 {
		dst := fs.slot(1 + fs.nIn + g)
		fan := fs.fanin[fs.start[g]:fs.start[g+1]]
		if len(fan) == 0 {
			fill(dst, ^uint64(0))
		}
		for i, l := range fan {
			src := fs.slot(int(l >> 1))
			neg := -uint64(l & 1)
			if i == 0 {
				for x := range w {
					dst[x] = src[x] ^ neg
				}
				continue
			}
			for x := range w {
				dst[x] &= src[x] ^ neg
			}
		}
	}
}

// famFlip is one worker's scratch for famSim.flip.
type famFlip struct {
	at      []int32  // 1 + index into buf of a slot's new value, or 0
	queued  []bool   // slot is in the heap
	heap    []int32  // gate slots to evaluate, a min-heap
	buf     []uint64 // new values, w words each
	changed []int32  // slots with a new value
}

func newFamFlip(fs *famSim) *famFlip {
	return &famFlip{at: make([]int32, len(fs.node)), queued: make([]bool, len(fs.node))}
}

// flip negates input slot in on every sample and calls hit(j, old, new)
// for each member j whose root slot changes on some sample (its vectors
// before and after, valid during the call). Gates are evaluated again in
// topological order, and only those with a changed fanin.
func (fs *famSim) flip(sc *famFlip, in int, hit func(j int32, old, new []uint64)) {
	w := fs.w
	sc.buf, sc.changed = sc.buf[:0], sc.changed[:0]
	push := func(s int) {
		for _, u := range fs.users[fs.userStart[s]:fs.userStart[s+1]] {
			if !sc.queued[u] {
				sc.queued[u] = true
				sc.heap = heapPush(sc.heap, u)
			}
		}
	}
	push(in)
	for len(sc.heap) > 0 {
		var s int32
		s, sc.heap = heapPop(sc.heap)
		sc.queued[s] = false
		g := int(s) - 1 - fs.nIn
		off := len(sc.buf)
		sc.buf = slices.Grow(sc.buf, w)[:off+w]
		dst := sc.buf[off : off+w]
		fan := fs.fanin[fs.start[g]:fs.start[g+1]]
		if len(fan) == 0 {
			fill(dst, ^uint64(0))
		}
		for i, l := range fan {
			t := int(l >> 1)
			neg := -uint64(l & 1)
			var src []uint64
			switch {
			case sc.at[t] > 0:
				src = sc.buf[sc.at[t]-1 : sc.at[t]-1+int32(w)]
			case t == in:
				src, neg = fs.slot(t), ^neg
			default:
				src = fs.slot(t)
			}
			if i == 0 {
				for x := range w {
					dst[x] = src[x] ^ neg
				}
				continue
			}
			for x := range w {
				dst[x] &= src[x] ^ neg
			}
		}
		if slices.Equal(dst, fs.slot(int(s))) {
			sc.buf = sc.buf[:off]
			continue
		}
		sc.at[s] = int32(off) + 1
		sc.changed = append(sc.changed, s)
		for _, j := range fs.rootFns[s] {
			hit(j, fs.slot(int(s)), dst)
		}
		push(int(s))
	}
	for _, s := range sc.changed {
		sc.at[s] = 0
	}
}

// heapPush and heapPop keep h a binary min-heap.
func heapPush(h []int32, x int32) []int32 {
	h = append(h, x)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if h[p] <= h[i] {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
	return h
}

func heapPop(h []int32) (int32, []int32) {
	x := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && h[l] < h[m] {
			m = l
		}
		if l+1 < n && h[l+1] < h[m] {
			m = l + 1
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return x, h
}

// famSupport simulates the union of the cones of roots and returns, for
// each root j, the circuit inputs shown to matter to it:
// dep[j*words:(j+1)*words] is a bitset over circuit inputs. It returns nil
// when the union is too big or shared too little (see newFamSim:
// memberGates adds up the gates of the roots' cones).
//
// A first round simulates random samples (biased word by word, as
// simSupport's); boundary rounds follow, as in simSupport: the witnesses
// of the inputs a round showed, with that input flipped, lie on some
// function's boundary, where flipping another input often changes it too,
// and each round simulates them and random neighbours of them until one
// shows nothing new. Workers flip disjoint inputs; ctx is looked at every
// cancelCheckEvery flips.
func famSupport(ctx context.Context, c *grounding.Circuit, roots []grounding.Lit, memberGates int64, workers int, seed uint64) ([]uint64, int, error) {
	fs := newFamSim(c, roots, memberGates, famWords, famMaxSlotWords)
	if fs == nil {
		return nil, 0, nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	for k := range fs.nIn {
		v := fs.slot(1 + k)
		for i := range v {
			v[i] = biasedWord(rng, simBiasBits[i%len(simBiasBits)])
		}
	}
	words := (c.NumInputs + 63) / 64
	dep := make([]uint64, len(roots)*words)
	// The widest boundary round the slot bound allows, up to boundaryWords.
	bw := min(boundaryWords, max(famWords, famMaxSlotWords/len(fs.node)))
	for round := 0; round <= famBoundaryRounds; round++ {
		wits, err := fs.round(ctx, dep, words, workers)
		if err != nil {
			return nil, 0, err
		}
		if len(wits) == 0 || round == famBoundaryRounds {
			break
		}
		// The witnesses as samples (input k flipped), some random
		// neighbours of them (one to three more inputs flipped).
		seeds := fs.witnessSamples(wits, rng, 16*bw)
		cands := slices.Clone(seeds)
		for len(cands) < 64*bw {
			x := slices.Clone(seeds[rng.IntN(len(seeds))])
			for range 1 + rng.IntN(3) {
				k := rng.IntN(fs.nIn)
				x[k/64] ^= 1 << (k % 64)
			}
			cands = append(cands, x)
		}
		fs.load(cands, bw)
	}
	return dep, words, nil
}

// famBoundaryRounds bounds famSupport's boundary rounds.
const famBoundaryRounds = 8

// famWitness: flipping input slot in changed a root on sample bit.
type famWitness struct{ in, bit int32 }

// round evaluates the loaded samples, flips every input, marks in dep the
// inputs each root is shown to depend on, and returns a witness of each
// (root, input) pair shown for the first time, sorted.
func (fs *famSim) round(ctx context.Context, dep []uint64, words, workers int) ([]famWitness, error) {
	fs.eval()
	wits := make([][]famWitness, workers)
	err := parallel(ctx, workers, workers, func(wk int) error {
		sc := newFamFlip(fs)
		for k := wk; k < fs.nIn; k += workers {
			if (k/workers)%cancelCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			in := int(fs.node[1+k]) - 1 // circuit input
			fs.flip(sc, 1+k, func(j int32, old, new []uint64) {
				if atomic.OrUint64(&dep[int(j)*words+in/64], 1<<(in%64))>>(in%64)&1 == 1 {
					return
				}
				for i := range old {
					if d := old[i] ^ new[i]; d != 0 {
						wits[wk] = append(wits[wk], famWitness{int32(1 + k), int32(64*i + bits.TrailingZeros64(d))})
						return
					}
				}
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	all := slices.Concat(wits...)
	slices.SortFunc(all, func(a, b famWitness) int { return cmp.Or(cmp.Compare(a.in, b.in), cmp.Compare(a.bit, b.bit)) })
	return slices.Compact(all), nil
}

// witnessSamples returns up to max of the witnesses (a random choice when
// there are more) as samples over the simulator's inputs (bit k: input
// slot 1+k), with the witness's input flipped.
func (fs *famSim) witnessSamples(wits []famWitness, rng *rand.Rand, max int) []sample {
	if len(wits) > max {
		rng.Shuffle(len(wits), func(i, j int) { wits[i], wits[j] = wits[j], wits[i] })
		wits = wits[:max]
	}
	out := make([]sample, len(wits))
	for j, wt := range wits {
		x := make(sample, (fs.nIn+63)/64)
		for k := range fs.nIn {
			if fs.slot(1 + k)[wt.bit/64]>>(wt.bit%64)&1 == 1 {
				x[k/64] |= 1 << (k % 64)
			}
		}
		k := int(wt.in) - 1
		x[k/64] ^= 1 << (k % 64)
		out[j] = x
	}
	return out
}

// load makes the simulator w words wide and sets its inputs to the
// samples (unused bits repeat the first sample).
func (fs *famSim) load(samples []sample, w int) {
	w = min(w, (len(samples)+63)/64)
	if fs.w != w {
		fs.w = w
		fs.vals = make([]uint64, len(fs.node)*w)
	}
	clear(fs.vals[:(1+fs.nIn)*w])
	for b := range 64 * w {
		x := samples[0]
		if b < len(samples) {
			x = samples[b]
		}
		for i, word := range x {
			for ; word != 0; word &= word - 1 {
				k := 64*i + bits.TrailingZeros64(word)
				fs.vals[(1+k)*w+b/64] |= 1 << (b % 64)
			}
		}
	}
}

// famDeps is what family simulation showed: the circuit inputs that
// matter to each simulated function literal.
type famDeps struct {
	row   map[grounding.Lit]int
	dep   []uint64
	words int
}

// simulateFamily runs famSupport over the functions fs (indices into
// b.funcs, functions of the state whose supports simSupport will decide)
// whose cones hold gates gates in all, and keeps its witnesses for
// simSupport.
func (b *builder) simulateFamily(ctx context.Context, fs []int, gates int64) error {
	if len(fs) < famMinShare {
		return nil
	}
	roots := make([]grounding.Lit, len(fs))
	for j, i := range fs {
		roots[j] = b.funcs[i].Function.Lit
	}
	dep, words, err := famSupport(ctx, &b.p.Circuit, roots, gates, b.opt.Workers, uint64(len(roots)))
	if err != nil || dep == nil {
		return err
	}
	b.fam = &famDeps{row: make(map[grounding.Lit]int, len(roots)), dep: dep, words: words}
	for j, r := range roots {
		b.fam.row[r] = j
	}
	return nil
}

// seed marks in propDep the propositions props (circuit inputs) that
// family simulation showed to matter to lit.
func (fd *famDeps) seed(lit grounding.Lit, props []int32, propDep []bool) {
	if fd == nil {
		return
	}
	j, ok := fd.row[lit]
	if !ok {
		return
	}
	row := fd.dep[j*fd.words : (j+1)*fd.words]
	for k, in := range props {
		if row[in/64]>>(in%64)&1 == 1 {
			propDep[k] = true
		}
	}
}
