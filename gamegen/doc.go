// Package gamegen generates GDL descriptions of parameterised board games,
// to grow test corpora beyond the hand-written ggp-base games: Connect-k
// with gravity on any board (ConnectK), and tic-tac-toe on an n x n board
// with k in a row (TicTacToeLike).
//
// The generated text is plain KIF with comments; it parses and grounds with
// package grounding. Lines of k cells are expressed with a succ relation,
// one rule per direction, so the description stays small for any k:
//
//	src := gamegen.ConnectK(4, 7, 6) // standard Connect Four
//	p, err := grounding.Load(ctx, "connect4.kif", src, grounding.Limits{})
//
// TicTacToeLike(3, 3) uses the names of ggp-base's ticTacToe.kif, so the two
// have the same propositions, moves and behaviour.
package gamegen
