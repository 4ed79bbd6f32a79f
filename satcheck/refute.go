package satcheck

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/gamequiv/gamequiv/grounding"
)

// Refutes looks for a difference between fa (of A) and fb (of B) under a
// partial mapping, on the assignments where every input of fa's support that
// inputMap leaves unmapped (-1) is false, every input of fb's support outside
// the mapping's image (bMapped[i] false, one entry per input of B) is false,
// and, for a next function, every role makes one of its mapped actions.
//
// If a bijection σ extending the mapping makes fb∘σ equal to fa, then fa and
// fb agree on those assignments: σ maps the unmapped inputs of A exactly onto
// the inputs of B outside the image, so setting the ones false sets the others
// false. A difference there thus proves that no extension works: a search can
// prune on it before every input of fa is mapped. Only the cheap stages run
// (a complete truth table when the space is small, else random simulation),
// so false means "not refuted", never "equal". When some role has no mapped
// action there is no such joint move, and nothing is refuted.
func (c *Checker) Refutes(ctx context.Context, kind grounding.FuncKind, fa, fb grounding.Lit, inputMap []int32, bMapped []bool) (bool, error) {
	refuted, _, err := c.refutes(ctx, kind, fa, fb, inputMap, bMapped, nil)
	return refuted, err
}

// Separation is an assignment on which Refutes found fa and fb to differ,
// for a function of the state: the inputs of A that are true (all mapped)
// and the inputs of B that are true and are images of inputs A's function
// does not read; every other input of either is false. A bijection that
// agrees with the partial mapping on these inputs (and on the preimages of
// the B ones) maps A's state onto B's, so it differs on f whatever it does
// elsewhere: a search can blame the refutation on them alone.
type Separation struct {
	A, B []int32
}

// Rank ranks the variables of a separation: an input aIn of A (bIn -1), or
// an input bIn of B outside what A's function reads (aIn -1).
type Rank func(aIn, bIn int32) int32

// RefutesWitness is Refutes with the separating assignment when one was
// found for a legal, goal or terminal function (nil otherwise: a next
// function's witness also fixes moves). Of the separating assignments it
// simulated it returns one whose highest-ranked true input ranks lowest
// (rank nil: the first). A search ranks inputs by the depth that mapped
// them, so that it blames the refutation on the shallowest depth the
// evaluated rows allow, whatever the order of the rows (which follows
// input numbering): with a complete truth table, the shallowest of all.
func (c *Checker) RefutesWitness(ctx context.Context, kind grounding.FuncKind, fa, fb grounding.Lit, inputMap []int32, bMapped []bool, rank Rank) (bool, *Separation, error) {
	refuted, x, err := c.refutes(ctx, kind, fa, fb, inputMap, bMapped, rank)
	if !refuted || err != nil || x.j == nil || semanticsOf(kind) != noMoves {
		return refuted, nil, err
	}
	w := &Separation{}
	for v, on := range x.at {
		switch jv := x.j.vars[v]; {
		case !on:
		case jv.aIn >= 0:
			w.A = append(w.A, jv.aIn)
		default:
			w.B = append(w.B, jv.bIn)
		}
	}
	return true, w, nil
}

// separation is refutes' separating assignment of j's variables.
type separation struct {
	j  *joint
	at []bool
}

func (c *Checker) refutes(ctx context.Context, kind grounding.FuncKind, fa, fb grounding.Lit, inputMap []int32, bMapped []bool, rank Rank) (bool, separation, error) {
	var none separation
	if len(inputMap) != c.a.numInputs() || len(bMapped) != c.b.numInputs() {
		return false, none, mappingErrorf("input map has %d entries and the image %d, want %d and %d",
			len(inputMap), len(bMapped), c.a.numInputs(), c.b.numInputs())
	}
	if fa.Node() >= c.a.c.NumNodes() || fb.Node() >= c.b.c.NumNodes() {
		return false, none, mappingErrorf("literal out of range (%d of %d nodes, %d of %d nodes)",
			fa, c.a.c.NumNodes(), fb, c.b.c.NumNodes())
	}
	if err := ctx.Err(); err != nil {
		return false, none, err
	}
	sem := semanticsOf(kind)
	if sem != noMoves {
		rank = nil // no Separation is returned
	}
	if sem == oneHot {
		if c.a.emptyRole >= 0 || c.b.emptyRole >= 0 {
			return false, none, nil
		}
		for r := range c.b.p.Roles {
			if c.b.availableActions(int32(r), bMapped) == 0 {
				return false, none, nil
			}
		}
	}
	suppA, err := c.a.support(fa)
	if err != nil {
		return false, none, err
	}
	suppB, err := c.b.support(fb)
	if err != nil {
		return false, none, err
	}
	j, err := buildRestrictedJoint(c.a, c.b, suppA, suppB, inputMap, bMapped, sem)
	if err != nil {
		return false, none, err
	}
	ca, err := c.a.coneOf(fa)
	if err != nil {
		return false, none, err
	}
	cb, err := c.b.coneOf(fb)
	if err != nil {
		return false, none, err
	}
	if j.log2Rows() <= float64(c.opt.ExhaustiveBits) {
		c.stats.exhaustive.Add(1)
		vec, w, rows := j.exhaustiveVectors()
		va, vb := simulatePair(ca, cb, j, vec, w)
		if bit := j.lowestDiff(vec, va, vb, w, rows, rank); bit >= 0 {
			return true, separation{j, assignmentAt(vec, len(j.vars), w, bit)}, nil
		}
		return false, none, nil
	}
	if c.opt.SimWords <= 0 {
		return false, none, nil
	}
	if sem == noMoves {
		if at := c.replayWitnesses(ca, cb, fa, j, rank); at != nil {
			return true, separation{j, at}, nil // A's unmapped inputs read false: a restricted witness
		}
	}
	// Fresh random vectors, not A's shared input vectors: those can make a
	// role take an unmapped action, outside the restricted assignments.
	c.stats.simulations.Add(1)
	w := c.opt.SimWords
	rng := rand.New(rand.NewPCG(c.opt.Seed, uint64(fa)<<32|uint64(fb)))
	vec := j.randomVectors(w, nil, rng)
	if c.a.p == c.b.p {
		// A self-mapping (the subgroup search of Symmetries): f can
		// differ from its image only where the mapping changes the
		// assignment, and a role choosing among thousands of mapped
		// actions almost never picks a moved one (amazons: a coset that
		// swaps two moves whose cell functions differ was never refuted
		// by simulation). Half the words make each role do a moved
		// action, as refuteMoved does for VerifyMoves.
		j.chooseMoved(vec, w, rng)
	}
	va, vb := simulatePair(ca, cb, j, vec, w)
	if bit := j.lowestDiff(vec, va, vb, w, 64*w, rank); bit >= 0 {
		c.stats.simRefuted.Add(1)
		return true, separation{j, assignmentAt(vec, len(j.vars), w, bit)}, nil
	}
	return false, none, nil
}

// lowestDiff returns a row among the first n where va and vb differ (vec
// holds j's variable vectors, w words each), -1 if none: with rank nil the
// first, else one whose highest-ranked true variable ranks lowest. For each
// rank t in ascending order it masks off the rows with a true variable
// ranked above t; the first t that leaves a differing row is the lowest.
func (j *joint) lowestDiff(vec, va, vb []uint64, w, n int, rank Rank) int {
	bit := firstDiff(va, vb, n)
	if bit < 0 || rank == nil {
		return bit
	}
	ranks := make([]int32, len(j.vars))
	for v, jv := range j.vars {
		if jv.aIn >= 0 {
			ranks[v] = rank(jv.aIn, -1)
		} else {
			ranks[v] = rank(-1, jv.bIn)
		}
	}
	levels := slices.Clone(ranks)
	slices.Sort(levels)
	levels = slices.Compact(levels)
	mask := make([]uint64, w)
	for _, t := range levels[:max(len(levels)-1, 0)] {
		for i := range mask {
			mask[i] = va[i] ^ vb[i]
		}
		for v, r := range ranks {
			if r > t {
				for i, x := range vec[v*w : (v+1)*w] {
					mask[i] &^= x
				}
			}
		}
		if b := firstDiff(mask, make([]uint64, w), n); b >= 0 {
			return b
		}
	}
	return bit
}
