package isomorph_test

import (
	"context"
	"fmt"
	"os"

	"github.com/gamequiv/gamequiv/isomorph"
)

// The directed 4-cycle with two colours has two automorphisms.
func ExampleAutomorphisms() {
	g, err := isomorph.New(4, []int32{1, 0, 1, 0}, [][2]int32{{0, 1}, {1, 2}, {2, 3}, {3, 0}})
	if err != nil {
		panic(err)
	}
	gr, err := isomorph.Automorphisms(context.Background(), g, isomorph.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println("order:", gr.Order)
	fmt.Println("generators:", gr.Generators)
	fmt.Println("orbits:", gr.Orbits)
	// Output:
	// order: 2
	// generators: [(0 2)(1 3)]
	// orbits: [0 1 0 1]
}

// Find returns one isomorphism; All returns all of them.
func ExampleAll() {
	ctx := context.Background()
	g, _ := isomorph.New(4, []int32{1, 0, 1, 0}, [][2]int32{{0, 1}, {1, 2}, {2, 3}, {3, 0}})
	h, _ := isomorph.New(4, []int32{0, 1, 0, 1}, [][2]int32{{3, 0}, {0, 1}, {1, 2}, {2, 3}})
	m, err := isomorph.Find(ctx, g, h, isomorph.Limits{})
	fmt.Println(isomorph.IsIsomorphism(g, h, m), err)
	n := 0
	for m, err := range isomorph.All(ctx, g, h, isomorph.Limits{}) {
		if err != nil {
			panic(err)
		}
		fmt.Println(isomorph.IsIsomorphism(g, h, m))
		n++
	}
	fmt.Println(n, "isomorphisms")
	// Output:
	// true <nil>
	// true
	// true
	// 2 isomorphisms
}

// Certificates are equal exactly for isomorphic graphs, colour values
// included.
func ExampleCanonical() {
	ctx := context.Background()
	arcs := [][2]int32{{0, 1}, {1, 2}, {2, 3}, {3, 0}}
	g, _ := isomorph.New(4, []int32{1, 0, 1, 0}, arcs)
	h, _ := isomorph.New(4, []int32{0, 1, 0, 1}, arcs)
	k, _ := isomorph.New(4, []int32{2, 0, 1, 0}, arcs)
	_, cg, _ := isomorph.Canonical(ctx, g, isomorph.Limits{})
	_, ch, _ := isomorph.Canonical(ctx, h, isomorph.Limits{})
	_, ck, _ := isomorph.Canonical(ctx, k, isomorph.Limits{})
	fmt.Println(cg.Equal(ch), cg.Equal(ck))
	// Output: true false
}

// Search calls the prune hook with each partial mapping; here it only
// accepts mappings that send vertex 0 to vertex 0, so only the identity
// survives.
func ExampleSearch() {
	ctx := context.Background()
	g, _ := isomorph.New(4, nil, [][2]int32{{0, 1}, {1, 2}, {2, 3}, {3, 0}})
	prune := func(m isomorph.Mapping, fixed []int32) bool {
		return m[0] >= 0 && m[0] != 0
	}
	for m, err := range isomorph.Search(ctx, g, g, isomorph.Limits{}, prune) {
		if err != nil {
			panic(err)
		}
		fmt.Println(m)
	}
	// Output: [0 1 2 3]
}

// WriteBliss writes the input of "bliss -directed".
func ExampleWriteBliss() {
	g, _ := isomorph.New(3, []int32{5, 7, 5}, [][2]int32{{0, 1}, {1, 2}})
	isomorph.WriteBliss(os.Stdout, g)
	// Output:
	// p edge 3 2
	// n 2 1
	// e 1 2
	// e 2 3
}

// WriteDreadnaut writes a dreadnaut script in digraph mode.
func ExampleWriteDreadnaut() {
	g, _ := isomorph.New(3, []int32{5, 7, 5}, [][2]int32{{0, 1}, {1, 2}})
	isomorph.WriteDreadnaut(os.Stdout, g)
	// Output:
	// As n=3 $=0 d -a -m *=13 k=0 99
	// g
	// 0: 1
	// 1: 2
	// .
	// f=[0,2|1]
	// x
}

// Refine splits the vertices of a directed path by their position.
func ExampleRefine() {
	g, _ := isomorph.New(4, nil, [][2]int32{{0, 1}, {1, 2}, {2, 3}})
	p, _, _ := isomorph.Refine(g, isomorph.Partition{})
	for i := 0; i < p.Len(); i++ {
		fmt.Print(p.Cell(i), " ")
	}
	fmt.Println()
	// Output: [3] [0] [1] [2]
}
