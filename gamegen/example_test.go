package gamegen_test

import (
	"context"
	"fmt"

	"github.com/gamequiv/gamequiv/gamegen"
	"github.com/gamequiv/gamequiv/grounding"
)

func ExampleConnectK() {
	p, err := grounding.Load(context.Background(), "connect4.kif", gamegen.ConnectK(4, 7, 6), grounding.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Roles, len(p.Props), "propositions")
	fmt.Println(p.Actions[0])
	// Output:
	// [red black] 86 propositions
	// [(drop 1) (drop 2) (drop 3) (drop 4) (drop 5) (drop 6) (drop 7) noop]
}

func ExampleTicTacToeLike() {
	p, err := grounding.Load(context.Background(), "ttt.kif", gamegen.TicTacToeLike(4, 3), grounding.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Roles, len(p.Props), "propositions,", len(p.Actions[0]), "actions each")
	// Output:
	// [xplayer oplayer] 50 propositions, 17 actions each
}
