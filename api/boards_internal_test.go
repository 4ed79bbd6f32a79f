package api

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gamequiv/gamequiv/store"
)

// row is a tiny game with a one-dimensional board of four squares.
func row(i int) *store.Game {
	gdl := fmt.Sprintf(`; copy %d
(role p)
(sq 1) (sq 2) (sq 3) (sq 4)
(init (at 1 e)) (init (at 2 e)) (init (at 3 e)) (init (at 4 e))
(<= (legal p (put ?x)) (true (at ?x e)))
(<= (next (at ?x f)) (does p (put ?x)))
(<= (next (at ?x ?c)) (true (at ?x ?c)) (does p (put ?y)) (distinct ?x ?y))
(<= terminal (not (true (at 1 e))) (not (true (at 2 e))) (not (true (at 3 e))) (not (true (at 4 e))))
(<= (goal p 100) terminal)
(<= (goal p 0) (not terminal))
`, i)
	return &store.Game{ID: int64(i + 1), Name: fmt.Sprintf("row %d", i), SHA256: fmt.Sprintf("sha-%d", i), GDL: []byte(gdl)}
}

func TestBoardCache(t *testing.T) {
	c := &boardCache{m: map[string]*gameBoard{}, sem: make(chan struct{}, 1)}
	ctx := context.Background()
	gb := c.get(ctx, row(0))
	if gb.err != nil || gb.board == nil || gb.board.NumCells() != 4 || !gb.board.Full {
		t.Fatalf("get(row) = %+v, want a full board of 4 squares", gb)
	}
	if len(gb.init) != 4 {
		t.Errorf("initial state %v, want 4 propositions", gb.init)
	}
	if again := c.get(ctx, row(0)); again != gb {
		t.Error("the second get computed the board again")
	}
	// At BoardCacheSize games the oldest goes.
	for i := 1; i <= BoardCacheSize; i++ {
		c.get(ctx, row(i))
	}
	if len(c.m) != BoardCacheSize || len(c.order) != BoardCacheSize {
		t.Errorf("cache holds %d games (%d in order), want %d", len(c.m), len(c.order), BoardCacheSize)
	}
	if _, ok := c.m[row(0).SHA256]; ok {
		t.Error("the oldest game was not evicted")
	}
	// A request that goes away is not remembered.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	g := row(BoardCacheSize + 1)
	c.get(cancelled, g)
	if _, ok := c.m[g.SHA256]; ok {
		t.Error("the board of a cancelled request was cached")
	}
	// A game that does not ground says why.
	bad := &store.Game{Name: "bad", SHA256: "bad", GDL: []byte("(role")}
	if gb := c.get(ctx, bad); gb.err == nil || !strings.Contains(gb.err.Error(), "ground bad") {
		t.Errorf("get(bad) err = %v", gb.err)
	}
}
