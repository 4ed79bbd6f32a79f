package grounding_test

import (
	"context"
	"fmt"

	"github.com/gamequiv/gamequiv/grounding"
)

// A two-cell game: the player marks a cell, and the game ends when both are
// marked.
const twoCells = `
(role player)
(init (free a)) (init (free b))
(<= (legal player (mark ?c)) (true (free ?c)))
(<= (next (free ?c)) (true (free ?c)) (not (does player (mark ?c))))
(<= terminal (not (true (free a))) (not (true (free b))))
(<= (goal player 100) terminal)
(<= (goal player 0) (not terminal))
`

func ExampleLoad() {
	p, err := grounding.Load(context.Background(), "twocells.kif", []byte(twoCells), grounding.Limits{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Roles, p.Props, p.Actions)
	s := grounding.NewSim(p)
	for !s.Terminal() {
		legal := s.Legal(0)
		fmt.Println("legal:", len(legal), "state:", s.StateProps())
		s.Step([]int{legal[0]})
	}
	fmt.Println("goals:", s.Goals(0))
	// Output:
	// [player] [(free a) (free b)] [[(mark a) (mark b)]]
	// legal: 2 state: [(free a) (free b)]
	// legal: 1 state: [(free b)]
	// goals: [100]
}

func ExampleParse_error() {
	_, err := grounding.Parse("broken.kif", []byte("(role player)\n(<= (legal player x)"))
	fmt.Println(err)
	// Output:
	// broken.kif:2:1: unclosed '(': 1 ')' missing at end of file
}
