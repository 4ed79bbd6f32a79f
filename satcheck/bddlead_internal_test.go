package satcheck

import "testing"

// TestBDDLead: BDDs go first after bddLeadAfter pairs in a row that they
// decided once sweeping's budget ran out; a pair that sweeping decides
// breaks the run, and a pair BDDs fail on gives the lead back.
func TestBDDLead(t *testing.T) {
	type step struct {
		event string // "swept", "bdd-after-sweep", "bdd-first", "bdd-failed"
		lead  bool   // leads() after the event
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"two BDD wins in a row", []step{{"bdd-after-sweep", false}, {"bdd-after-sweep", true}, {"bdd-first", true}}},
		{"a sweep between them", []step{{"bdd-after-sweep", false}, {"swept", false}, {"bdd-after-sweep", false}, {"bdd-after-sweep", true}}},
		{"a BDD failure ends the lead", []step{{"bdd-after-sweep", false}, {"bdd-after-sweep", true}, {"bdd-failed", false}, {"bdd-after-sweep", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s bddState
			for i, st := range tc.steps {
				switch st.event {
				case "swept":
					s.swept()
				case "bdd-after-sweep":
					s.tried(true, true)
				case "bdd-first":
					s.tried(true, false)
				case "bdd-failed":
					s.tried(false, !s.leads())
				}
				if got := s.leads(); got != st.lead {
					t.Fatalf("step %d (%s): leads() = %v, want %v", i, st.event, got, st.lead)
				}
			}
		})
	}
}
