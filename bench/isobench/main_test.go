package main

import (
	"errors"
	"math/big"
	"testing"

	"github.com/gamequiv/gamequiv/isomorph"
)

var checkOrdersTests = []struct {
	name                         string
	iso, blissLib, nauty, traces string
	wantErr                      bool
}{
	{"OK", "120", "120", "120", "120", false},
	{"OKScientific", "276758070352436477637369519850030455940240263124726169401380915118080000000000000000", "276758070352436477637369519850030455940240263124726169401380915118080000000000000000", "2.767580703524e83", "2.767580703524e83", false},
	{"ErrBliss", "120", "240", "120", "120", true},
	{"ErrNauty", "120", "120", "60", "120", true},
	{"ErrTraces", "120", "120", "120", "1.2e3", true},
	{"ErrScientific", "276758070352436477637369519850030455940240263124726169401380915118080000000000000000", "276758070352436477637369519850030455940240263124726169401380915118080000000000000000", "2.767590703524e83", "2.767580703524e83", true},
}

// TestCheckOrders checks that the benchmark fails on any |Aut| disagreement.
func TestCheckOrders(t *testing.T) {
	g, err := isomorph.New(3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := func(aut string) measurement { return measurement{Ran: true, Aut: aut} }
	for _, tc := range checkOrdersTests {
		t.Run(tc.name, func(t *testing.T) {
			bg := &benchGraph{Name: tc.name, G: g, iso: m(tc.iso), blissLib: m(tc.blissLib), blissBin: m(tc.blissLib), nauty: m(tc.nauty), traces: m(tc.traces)}
			err := checkOrders(bg)
			if got := errors.Is(err, errDisagree); got != tc.wantErr {
				t.Fatalf("checkOrders = %v, want disagreement %v", err, tc.wantErr)
			}
			if err == nil && bg.order.Cmp(new(big.Int).SetBytes(nil)) == 0 {
				t.Fatalf("checkOrders set no order")
			}
		})
	}
}

// TestCheckOrdersSkipsFailures checks that a tool that timed out takes no
// part in the comparison.
func TestCheckOrdersSkipsFailures(t *testing.T) {
	g, err := isomorph.New(1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	bg := &benchGraph{Name: "x", G: g, iso: measurement{Ran: true, Aut: "2"}, nauty: measurement{Ran: true, TimeOut: true, Aut: "3"}}
	if err := checkOrders(bg); err != nil {
		t.Fatalf("checkOrders = %v, want nil", err)
	}
}
