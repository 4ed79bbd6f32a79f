package groundgraph

import (
	"cmp"
	"context"
	"hash/maphash"
	"slices"
)

// Grouping functions by cone shape without holding the keys.
//
// A shape key (grounding.Cone.PropRenamingKey) takes about five bytes per
// fanin of the cone: AlexChess's keys, held all at once to be grouped,
// took 2.5 GB of a Build's heap, and amazons' 662 keys 150 MB until the
// end of the Build. groupByKey keeps short keys as they are and long ones
// as a hash and a length; two long keys with the same hash and length are
// confirmed equal by computing both again, so the groups are exactly those
// of the keys themselves.

// maxShapeKeyBytes bounds the length of the keys groupByKey keeps: the
// small games' keys, whose recomputation would cost more than they weigh.
// The keys kept whole take at most this much per function.
const maxShapeKeyBytes = 4 << 10

// shapeSum hashes a long key; a test makes every key collide.
var shapeSum = maphash.String

// shapeID is what groupByKey keeps of a key: the key itself when it is at
// most maxShapeKeyBytes long, else its hash and length.
type shapeID struct {
	key  string
	sum  uint64
	size int
}

// groupByKey returns, for each k < n, the first k' whose key (keyOf(k'))
// equals k's, and those first positions, ascending. keyOf is called from
// up to workers goroutines at once, and again for a long key whose hash
// and length another one shares.
func groupByKey(ctx context.Context, n, workers int, keyOf func(k int) (string, error)) (repOf, reps []int, err error) {
	seed := maphash.MakeSeed()
	ids := make([]shapeID, n)
	err = parallel(ctx, n, workers, func(k int) error {
		key, err := keyOf(k)
		if err != nil {
			return err
		}
		if len(key) <= maxShapeKeyBytes {
			ids[k] = shapeID{key: key}
		} else {
			ids[k] = shapeID{sum: shapeSum(seed, key), size: len(key)}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	repOf = make([]int, n)
	first := map[shapeID]int{}
	var unconfirmed []int // members of long keys' groups
	for k := range n {
		r, ok := first[ids[k]]
		if !ok {
			r = k
			first[ids[k]] = k
			reps = append(reps, k)
		} else if ids[k].size > 0 {
			unconfirmed = append(unconfirmed, k)
		}
		repOf[k] = r
	}
	slices.SortStableFunc(unconfirmed, func(x, y int) int { return cmp.Compare(repOf[x], repOf[y]) })
	// Confirm each group's members against its first key, one group at a
	// time (one long key held besides the workers'). Members whose key
	// differs (a collision) are a group of their own, confirmed in turn.
	for len(unconfirmed) > 0 {
		r := repOf[unconfirmed[0]]
		end := 1
		for end < len(unconfirmed) && repOf[unconfirmed[end]] == r {
			end++
		}
		members := slices.Clone(unconfirmed[:end])
		unconfirmed = unconfirmed[end:]
		want, err := keyOf(r)
		if err != nil {
			return nil, nil, err
		}
		differs := make([]bool, len(members))
		err = parallel(ctx, len(members), workers, func(j int) error {
			key, err := keyOf(members[j])
			differs[j] = key != want
			return err
		})
		if err != nil {
			return nil, nil, err
		}
		var rest []int
		for j, m := range members {
			if differs[j] {
				rest = append(rest, m)
			}
		}
		if len(rest) > 0 {
			reps = append(reps, rest[0])
			for _, m := range rest {
				repOf[m] = rest[0]
			}
			unconfirmed = append(rest[1:], unconfirmed...)
		}
	}
	slices.Sort(reps)
	return repOf, reps, nil
}
