// Package isomorph is an engine for isomorphisms of vertex-coloured directed
// graphs in the style of nauty, Traces and bliss. It knows nothing about
// games and imports only the standard library.
//
// # Graphs
//
// A *Graph has vertices 0..n-1, an int32 colour per vertex and a set of arcs
// u->v (self-loops allowed, duplicates merged), stored as sorted out- and
// in-lists in compressed sparse row form. Build one with New from an arc
// list, or with Convert from any type with the three methods of Digraph;
// every search function accepts a Digraph and converts it once (a *Graph is
// used as is). Colour values, not only colour classes, belong to a graph:
// an isomorphism must map each vertex to a vertex of the same colour value.
//
// # Refinement
//
// Refine computes the coarsest equitable refinement of an ordered
// partition: two vertices stay together only if they have as many
// out-neighbours and as many in-neighbours in every cell. It uses a queue of
// splitter cells (singletons first) with Hopcroft's "all pieces but the
// largest" rule, splits touched cells in position order into pieces of
// increasing count, and records every split (cell, number of pieces, count
// and size of each piece) as a trace. Cell order and trace depend only on
// the isomorphism class of (graph, partition), so two refinements can be
// run in lockstep on two graphs and compared split by split.
//
// # Search
//
// Automorphisms, Canonize (and Canonical) and Find walk the
// individualization-refinement tree. The root is the refined colour
// partition (cells in increasing colour value); a node's children
// individualize each vertex of its target cell, the first largest
// non-singleton cell that is not free, and refine again; leaves are
// discrete partitions, that is orderings of the vertices, and complete
// nodes.
//
//   - The first leaf reached is the reference for automorphisms: a node whose
//     trace differs from the first path's at the same depth cannot lead to
//     an image of the first leaf, and refinement stops at the first
//     differing split.
//   - A leaf with the first leaf's traces defines a candidate permutation
//     (first leaf's vertex at position i -> this leaf's vertex at i), which
//     is checked against the arcs. An automorphism found there sends the
//     search back to the first-path node where the two paths part, as in
//     nauty.
//   - Below a first-path node, a child with the first path's trace is first
//     tried with a permutation that maps the first path's node at its depth
//     onto it cell by cell: singletons by position, and in each
//     non-singleton cell the vertices of both cells to themselves and the
//     one vertex only in the first path's cell to the one only in the
//     child's (a cell differing in more vertices gives up). If the arcs
//     confirm it, it is an automorphism mapping the first child to this
//     one, found without descending to a leaf. Independent swaps, and swaps
//     of interchangeable parts, cost two nodes each this way instead of a
//     path to a leaf.
//   - Children in the same orbit as an explored child are skipped, under the
//     generators that fix the node's path pointwise: on the first path these
//     are all generators found so far (their orbits are kept incrementally);
//     elsewhere the generators, and the automorphisms found at the best
//     leaf that join no orbits (kept to prune only, within
//     Limits.MaxGenWords), are tested and merged into per-node orbits.
//   - The best leaf is the largest in (trace sequence, relabelled graph). A
//     leaf equal to it gives an automorphism too; the search then leaves the
//     subtree in which the two leaves part. Canonize keeps every node whose
//     trace is not smaller than the best path's; Automorphisms keeps only
//     nodes with the first path's trace and uses the best leaf among those
//     leaves, which finds the automorphisms of subtrees that hold no image
//     of the first leaf.
//   - A leaf with the first leaf's trace that is no image of it is compared
//     with an earlier such leaf below the same child of the first path (the
//     local leaf). If the arcs confirm the mapping between them, it is an
//     automorphism, kept to prune, and the search leaves the subtree in
//     which the two leaves part: without it a subtree holding no image of
//     the first or best leaf was searched leaf by leaf (a renumbered
//     colonelBlotto graph).
//
// A cell C of an equitable partition is free when, for every cell D
// (C included), the arcs from C to D, and from D to C, are all present
// or all absent (inside C: between distinct vertices, and the
// self-loops on all of C or none). Every permutation of C fixing the
// other vertices is then an automorphism, C stays free in every finer
// partition, and individualizing in C splits nothing else. A node whose
// non-singleton cells are all free is complete: its subtree holds
// |C_1|!...|C_k|! leaves that are all images of each other, so the
// search takes its current order as its one leaf and ends its trace
// with a marker. At the first leaf the symmetric groups of the free
// cells join the group (transpositions of neighbours in each cell, and
// the cell minus its last vertex added to the base). Without this, a free
// cell of k vertices (k twins, such as k isolated vertices of one colour)
// costs k levels of search and about k^2/2 nodes.
//
// The generators found form a strong generating set relative to the first
// path followed by the free cells' base points (the base): when the search leaves the first-path node at depth i,
// the orbit of its first child under the generators is the orbit under the
// stabiliser of the path above, so Group.Order, the product of these orbit
// lengths, is exact. Group.Elements enumerates the group from the Schreier
// trees of that chain.
//
// Generators are kept sparse (Sparse: the vertices moved and their
// images), and what walks them (orbits, the pruning of children, the
// Schreier trees and products of their coset representatives) costs the
// points they move, not n per generator: a big graph's group often has
// thousands of generators that each swap a few vertices.
// Limits.MaxGenWords bounds their total size.
//
// The canonical form is the graph relabelled by the best leaf. Its
// Certificate is a byte string (colour values, then sorted out-lists in
// canonical order), equal for two graphs exactly when they are isomorphic.
//
// # Isomorphisms
//
// Find compares cheap invariants, then the canonical forms of both graphs,
// and returns one isomorphism or ErrNotIsomorphic. All streams every
// isomorphism g->h as f∘a for one isomorphism f and each automorphism a of
// g. Search streams the same set by walking h's tree against a reference
// path of g's, and calls a PruneFunc at each node with the partial mapping
// fixed so far, so that a caller can check a property of the mapping as
// soon as the vertices it depends on are fixed and cut the whole subtree
// when it fails. SearchNodes hands the check the whole node instead: every
// isomorphism below a node maps g's cell at position q onto h's cell at
// position q (the traces agree, so the cell boundaries do), and
// Node.CellsG and Node.CellH let a caller test properties of cells before
// their vertices are singletons. Group.SubgroupNodes does the same for the
// cosets of a subgroup search: a coset rep∘G_j maps each orbit of G_j onto
// its image under rep (Coset.Cells).
//
// # Limits and cancellation
//
// Limits bounds the nodes of each search (the zero value means
// DefaultMaxNodes); exceeding it returns a *LimitError that matches
// ErrLimit. Every search checks its context every 1024 nodes and during
// long refinements, and returns ctx.Err() when it is cancelled. Stats (in
// Group and Canon) counts nodes, leaves and generators.
//
// # External tools
//
// WriteDreadnaut and WriteBliss write a graph for nauty's dreadnaut and for
// bliss -directed, to cross-check group orders (external_test.go does so
// when both are installed).
//
// # Example
//
// The directed 4-cycle 0->1->2->3->0 with vertices 0 and 2 coloured 1 has
// the automorphism group {identity, rotation by two}:
//
//	g, err := isomorph.New(4, []int32{1, 0, 1, 0}, [][2]int32{{0, 1}, {1, 2}, {2, 3}, {3, 0}})
//	if err != nil { ... }
//	gr, err := isomorph.Automorphisms(ctx, g, isomorph.Limits{})
//	// gr.Order = 2, gr.Generators = [(0 2)(1 3)] (isomorph.Sparse, as cycles)
//
// Relabelling it by 0->3, 1->0, 2->1, 3->2 gives h with arcs 3->0->1->2->3
// and vertices 3 and 1 coloured 1. Find(ctx, g, h, Limits{}) returns one of
// the two isomorphisms, say [3 0 1 2], and All yields both [3 0 1 2] and
// [1 2 3 0]. Canonical gives g and h the same certificate; colouring vertex
// 0 of g with 2 instead of 1 makes the certificate (and Find) tell them
// apart.
package isomorph
