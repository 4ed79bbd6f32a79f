package worker_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/isomorph"
	"github.com/gamequiv/gamequiv/satcheck"
	"github.com/gamequiv/gamequiv/service"
)

// failures are the errors childSymmetries and childGround give for a
// game's name, as the algorithms wrap them.
var failures = map[string]error{
	"ground-limit": fmt.Errorf("ground g: %w", &grounding.LimitError{What: "MaxAtoms", Limit: 10, Got: 11, Where: "relation cell/3"}),
	"search-limit": fmt.Errorf("automorphisms: %w", &isomorph.LimitError{What: "search nodes", Limit: 5, Got: 6}),
	"sat-limit":    fmt.Errorf("verify: %w", &satcheck.LimitError{What: "MaxClauses", Limit: 7, Got: 8}),
	"deadline":     fmt.Errorf("ground graph: %w", context.DeadlineExceeded),
	"invalid":      grounding.ErrorList{{File: "g", Pos: grounding.Pos{Line: 2, Col: 3}, Msg: "unsafe"}, {File: "g", Pos: grounding.Pos{Line: 4, Col: 1}, Msg: "arity"}},
	"one-invalid":  fmt.Errorf("load: %w", &grounding.Error{File: "g", Pos: grounding.Pos{Line: 1, Col: 1}, Msg: "empty"}),
	"domain":       &gamequiv.Error{Code: gamequiv.EINVALID, Message: "bad", Err: errors.New("cause")},
	"other":        errors.New("something else"),
}

func childSymmetries(ctx context.Context, src equiv.Source, lim equiv.Limits) (*equiv.SymmetryReport, error) {
	if src.Name == "hold" {
		<-ctx.Done()
		return nil, fmt.Errorf("held: %w", ctx.Err())
	}
	if err := failures[src.Name]; err != nil {
		return nil, err
	}
	return equiv.Symmetries(ctx, src, lim)
}

func childGround(ctx context.Context, name string, gdl []byte, lim grounding.Limits) (gamequiv.GameStats, error) {
	if err := failures[name]; err != nil {
		return gamequiv.GameStats{}, err
	}
	return service.GroundStats(ctx, name, gdl, lim)
}

// seen is what the service and the API read of an error: its text, and
// the answers of the errors.As and errors.Is they ask.
type seen struct {
	Text     string
	Ground   *grounding.LimitError
	List     grounding.ErrorList
	Source   *grounding.Error
	Deadline bool
	Limit    bool   // equiv.IsLimit, or a *gamequiv.Error ELIMIT with the text
	Domain   string // code and text of a *gamequiv.Error
}

func see(err error) seen {
	s := seen{Text: err.Error(), Deadline: errors.Is(err, context.DeadlineExceeded), Limit: equiv.IsLimit(err)}
	errors.As(err, &s.Ground)
	errors.As(err, &s.List)
	errors.As(err, &s.Source)
	var de *gamequiv.Error
	if errors.As(err, &de) {
		if de.Code == gamequiv.ELIMIT && de.Message == err.Error() && de.Limit == "" {
			s.Limit = true // the service's and the API's reading of a limit they cannot type
		} else {
			s.Domain = de.Code + " " + de.Error()
		}
	}
	return s
}

// TestProcs_ErrorsKeepTheirTypes: an error of a job in a child reads, for
// the service and the API, as the same error in this process: the same
// text, limit (with its name for a grounding limit), time limit, invalid
// game (with its positions) or domain error.
func TestProcs_ErrorsKeepTheirTypes(t *testing.T) {
	p := startProcs(t, 1, nil)
	for name, local := range failures {
		t.Run(name, func(t *testing.T) {
			_, err := p.Symmetries(context.Background(), equiv.Source{Name: name, GDL: []byte("(role r)")}, equiv.Limits{})
			if err == nil {
				t.Fatal("Symmetries: no error")
			}
			if got, want := see(err), see(local); !reflect.DeepEqual(got, want) {
				t.Errorf("Symmetries error in the child reads\n%+v\nin this process\n%+v", got, want)
			}
			_, err = p.Ground(context.Background(), name, []byte("(role r)"), grounding.Limits{})
			if err == nil {
				t.Fatal("Ground: no error")
			}
			if got, want := see(err), see(local); !reflect.DeepEqual(got, want) {
				t.Errorf("Ground error in the child reads\n%+v\nin this process\n%+v", got, want)
			}
		})
	}
}

// TestProcs_SymmetriesAndGround: the answers of a child are those of this
// process.
func TestProcs_SymmetriesAndGround(t *testing.T) {
	p := startProcs(t, 1, nil)
	ctx := context.Background()
	buttons := equiv.Source{Name: "buttons", GDL: []byte(buttonsGDL)}
	want, err := equiv.Symmetries(ctx, buttons, equiv.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Symmetries(ctx, buttons, equiv.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Order != want.Order || got.GraphOrder != want.GraphOrder || len(got.Generators) != len(want.Generators) {
		t.Errorf("Symmetries in the child = %+v, want %+v", got, want)
	}
	wantSt, err := service.GroundStats(ctx, "buttons", buttons.GDL, grounding.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	gotSt, err := p.Ground(ctx, "buttons", buttons.GDL, grounding.Limits{})
	if err != nil || !reflect.DeepEqual(gotSt, wantSt) {
		t.Errorf("Ground in the child = %+v, %v, want %+v", gotSt, err, wantSt)
	}
}

// TestProcs_CallerDeadline: a job stopped by its caller's deadline fails
// with context.DeadlineExceeded, as in this process (the service stores a
// symmetry computation's deadline as its Timeout failure), though the
// child saw only the cancel.
func TestProcs_CallerDeadline(t *testing.T) {
	p := startProcs(t, 1, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := p.Symmetries(ctx, equiv.Source{Name: "hold", GDL: []byte("(role r)")}, equiv.Limits{})
	if !errors.Is(err, context.DeadlineExceeded) || err.Error() != "held: context canceled" {
		t.Errorf("Symmetries past the caller's deadline = %v, want the child's %q matching context.DeadlineExceeded", err, "held: context canceled")
	}
}
