package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gamequiv/gamequiv/store"
)

// The access-control part of the suite: tokens, owners, and who may
// rename, delete and cancel.

var (
	alice  = &store.User{Name: "alice"}
	bob    = &store.User{Name: "bob"}
	root   = &store.User{Name: "root", Admin: true}
	anyone = &store.User{} // an anonymous reader
)

// as returns a context acting for u.
func as(u *store.User) context.Context { return store.NewContextWithUser(ctx, u) }

func testTokens(t *testing.T, db *store.DB, clk *Clock) {
	tok, secret, err := db.CreateToken(ctx, "alice", false)
	if err != nil {
		t.Fatalf("CreateToken: %v", err)
	}
	if !strings.HasPrefix(secret, store.TokenPrefix) || len(secret) < 40 {
		t.Errorf("CreateToken secret %q: want %s and 256 random bits", secret, store.TokenPrefix)
	}
	want := &store.Token{ID: tok.ID, Name: "alice", CreatedAt: Start}
	if diff := cmp.Diff(want, tok); diff != "" {
		t.Errorf("CreateToken mismatch (-want +got):\n%s", diff)
	}
	_, adminSecret, err := db.CreateToken(ctx, "root", true)
	if err != nil {
		t.Fatal(err)
	}
	_, second, err := db.CreateToken(ctx, "alice", false) // a second token of alice
	if err != nil || second == secret {
		t.Fatalf("CreateToken(alice again) = %q, %v; want another secret", second, err)
	}

	for _, tc := range []struct {
		secret string
		want   *store.User
	}{
		{secret, alice},
		{second, alice},
		{adminSecret, root},
	} {
		u, err := db.Authenticate(ctx, tc.secret)
		if err != nil || *u != *tc.want {
			t.Errorf("Authenticate(%.6s…) = %+v, %v, want %+v", tc.secret, u, err, tc.want)
		}
	}
	for _, bad := range []string{"", "gq_", secret[:len(secret)-1], secret + "x", "x" + secret[1:], strings.ToUpper(secret)} {
		_, err := db.Authenticate(ctx, bad)
		wantErr(t, "Authenticate("+bad+")", err, store.ErrNotFound)
	}
	_, _, err = db.CreateToken(ctx, "al ice", false)
	wantErr(t, "CreateToken(name with a space)", err, store.ErrInvalid)
	_, _, err = db.CreateToken(ctx, "", false)
	wantErr(t, "CreateToken(no name)", err, store.ErrInvalid)

	clk.Advance(time.Minute)
	got, err := db.RevokeToken(ctx, tok.ID)
	if err != nil || !got.RevokedAt.Equal(Start.Add(time.Minute)) {
		t.Fatalf("RevokeToken = %+v, %v, want revoked at the clock's time", got, err)
	}
	_, err = db.Authenticate(ctx, secret)
	wantErr(t, "Authenticate(revoked)", err, store.ErrNotFound)
	if u, err := db.Authenticate(ctx, second); err != nil || u.Name != "alice" {
		t.Errorf("Authenticate(alice's other token) = %+v, %v, want alice", u, err)
	}
	clk.Advance(time.Minute)
	if again, err := db.RevokeToken(ctx, tok.ID); err != nil || !again.RevokedAt.Equal(got.RevokedAt) {
		t.Errorf("RevokeToken(revoked) = %+v, %v, want it unchanged", again, err)
	}
	_, err = db.RevokeToken(ctx, tok.ID+100)
	wantErr(t, "RevokeToken(missing)", err, store.ErrNotFound)
	if n, err := db.RevokeUserTokens(ctx, "alice"); err != nil || n != 1 {
		t.Errorf("RevokeUserTokens(alice) = %d, %v, want 1 (the other was revoked already)", n, err)
	}
	_, err = db.Authenticate(ctx, second)
	wantErr(t, "Authenticate(after RevokeUserTokens)", err, store.ErrNotFound)

	list, err := db.ListTokens(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var revoked []bool
	for _, tk := range list {
		revoked = append(revoked, !tk.RevokedAt.IsZero())
	}
	if diff := cmp.Diff([]bool{true, false, true}, revoked); diff != "" {
		t.Errorf("ListTokens revoked flags mismatch (-want +got):\n%s", diff)
	}
}

func testOwners(t *testing.T, db *store.DB, _ *Clock) {
	g, _, err := db.CreateGame(as(alice), "g", []byte("(role g)"), nil)
	if err != nil || g.Owner != "alice" {
		t.Fatalf("CreateGame as alice = %+v, %v, want owner alice", g, err)
	}
	// The same text from bob is alice's game still.
	same, created, err := db.CreateGame(as(bob), "g2", []byte("(role g)"), nil)
	if err != nil || created || same.Owner != "alice" {
		t.Errorf("CreateGame(same text) as bob = %+v, %v, %v, want alice's game", same, created, err)
	}
	h, _, err := db.CreateGame(ctx, "h", []byte("(role h)"), nil)
	if err != nil || h.Owner != "" {
		t.Fatalf("CreateGame without a user = %+v, %v, want no owner", h, err)
	}
	anon, _, err := db.CreateGame(as(anyone), "k", []byte("(role k)"), nil)
	if err != nil || anon.Owner != "" {
		t.Fatalf("CreateGame as anonymous = %+v, %v, want no owner", anon, err)
	}
	c, _, err := db.CreateComparison(as(bob), g.ID, h.ID, nil)
	if err != nil || c.Owner != "bob" {
		t.Fatalf("CreateComparison as bob = %+v, %v, want owner bob", c, err)
	}
	if got := get(t, db, c.ID); got.Owner != "bob" {
		t.Errorf("GetComparison owner %q, want bob", got.Owner)
	}
	cs, _, err := db.ListComparisons(ctx, store.ComparisonFilter{})
	if err != nil || len(cs) != 1 || cs[0].Owner != "bob" {
		t.Errorf("ListComparisons = %+v, %v, want bob's comparison", cs, err)
	}
	games, _, err := db.ListGames(ctx, store.Page{})
	var owners []string
	for _, g := range games {
		owners = append(owners, g.Owner)
	}
	if diff := cmp.Diff([]string{"alice", "", ""}, owners); err != nil || diff != "" {
		t.Errorf("ListGames owners: %v, mismatch (-want +got):\n%s", err, diff)
	}
}

func testCancelOwner(t *testing.T, db *store.DB, _ *Clock) {
	a, b := game(t, db, "a"), game(t, db, "b")
	mine := func(tag int) int64 {
		c, _, err := db.CreateComparison(as(alice), a.ID, b.ID, json.RawMessage(fmt.Sprintf(`{"tag":%d}`, tag)))
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	id := mine(1)
	for _, u := range []*store.User{bob, anyone} {
		_, err := db.Cancel(as(u), id)
		wantErr(t, "Cancel(alice's) as "+u.Name, err, store.ErrForbidden)
	}
	if got := get(t, db, id); got.Status != store.StatusQueued {
		t.Fatalf("a forbidden cancel changed the comparison: %+v", got)
	}
	if c, err := db.Cancel(as(alice), id); err != nil || c.Status != store.StatusCancelled {
		t.Errorf("Cancel as owner = %+v, %v, want cancelled", c, err)
	}
	if c, err := db.Cancel(as(root), mine(2)); err != nil || c.Status != store.StatusCancelled {
		t.Errorf("Cancel as admin = %+v, %v, want cancelled", c, err)
	}
	// Without an owner only an admin may.
	orphan := comparison(t, db, a, b, 3)
	_, err := db.Cancel(as(alice), orphan.ID)
	wantErr(t, "Cancel(no owner) as alice", err, store.ErrForbidden)
	_, err = db.Cancel(as(bob), orphan.ID+100)
	wantErr(t, "Cancel(missing) as bob", err, store.ErrNotFound)
}

func testResubmitCancelled(t *testing.T, db *store.DB, _ *Clock) {
	a, b := game(t, db, "a"), game(t, db, "b")
	c, _, err := db.CreateComparison(as(alice), a.ID, b.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Cancel(as(alice), c.ID); err != nil {
		t.Fatal(err)
	}
	again, created, err := db.CreateComparison(as(bob), a.ID, b.ID, nil)
	if err != nil || !created || again.ID == c.ID || again.Status != store.StatusQueued || again.Owner != "bob" {
		t.Fatalf("CreateComparison(cancelled one) = %+v, %v, %v; want a new queued comparison of bob", again, created, err)
	}
	if again.IdemKey != c.IdemKey {
		t.Errorf("new comparison's key %q, want the cancelled one's %q", again.IdemKey, c.IdemKey)
	}
	old := get(t, db, c.ID)
	if old.Status != store.StatusCancelled || old.IdemKey == c.IdemKey {
		t.Errorf("the cancelled comparison = %+v, want it kept, cancelled, under another key", old)
	}
	// The new one is the answer from now on.
	third, created, err := db.CreateComparison(ctx, a.ID, b.ID, nil)
	if err != nil || created || third.ID != again.ID {
		t.Errorf("CreateComparison again = %+v, %v, %v, want comparison %d", third, created, err, again.ID)
	}
	// A running comparison whose cancel was requested is still the answer.
	claim(t, db, "w", time.Minute)
	if _, err := db.Cancel(ctx, again.ID); err != nil {
		t.Fatal(err)
	}
	fourth, created, err := db.CreateComparison(ctx, a.ID, b.ID, nil)
	if err != nil || created || fourth.ID != again.ID {
		t.Errorf("CreateComparison(cancel requested) = %+v, %v, %v, want comparison %d", fourth, created, err, again.ID)
	}
}

func testRenameGame(t *testing.T, db *store.DB, _ *Clock) {
	g, _, err := db.CreateGame(as(alice), "old", []byte("(role g)"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddGameAlias(ctx, g.ID, "other"); err != nil {
		t.Fatal(err)
	}
	_, err = db.RenameGame(as(bob), g.ID, "bobs")
	wantErr(t, "RenameGame as bob", err, store.ErrForbidden)
	got, err := db.RenameGame(as(alice), g.ID, "other")
	if err != nil || got.Name != "other" || len(got.Aliases) != 0 || got.Owner != "alice" {
		t.Errorf("RenameGame to an alias = %+v, %v, want name other and no aliases", got, err)
	}
	got, err = db.RenameGame(as(root), g.ID, "new")
	if err != nil || got.Name != "new" {
		t.Errorf("RenameGame as admin = %+v, %v, want name new", got, err)
	}
	if gs, _, _ := db.FindGames(ctx, store.GameFilter{Name: "new"}); len(gs) != 1 {
		t.Errorf("FindGames(name new) = %+v, want the renamed game", gs)
	}
	for _, bad := range []string{"", "  ", "a\x00b", "\xff"} {
		_, err := db.RenameGame(as(alice), g.ID, bad)
		wantErr(t, "RenameGame("+bad+")", err, store.ErrInvalid)
	}
	_, err = db.RenameGame(as(root), g.ID+100, "x")
	wantErr(t, "RenameGame(missing)", err, store.ErrNotFound)
}

func testDeleteGame(t *testing.T, db *store.DB, _ *Clock) {
	mk := func(name string, u *store.User) *store.Game {
		g, _, err := db.CreateGame(as(u), name, []byte("(role "+name+")"), nil)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g1, g2, g3, solo, other := mk("g1", alice), mk("g2", alice), mk("g3", bob), mk("solo", alice), mk("other", bob)
	class, err := db.NewClass(ctx, g1.ID) // g1 represents {g1, g2, g3}
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*store.Game{g2, g3} {
		if err := db.AssignClass(ctx, g.ID, class.ID); err != nil {
			t.Fatal(err)
		}
	}
	soloClass, err := db.NewClass(ctx, solo.ID)
	if err != nil {
		t.Fatal(err)
	}
	c12, _, _ := db.CreateComparison(as(bob), g1.ID, other.ID, nil)
	c21, _, _ := db.CreateComparison(as(bob), other.ID, g1.ID, nil)
	keep, _, _ := db.CreateComparison(as(bob), g2.ID, other.ID, nil)
	claim(t, db, "w", time.Minute) // c12 runs
	if _, err := db.PutSymmetries(ctx, g1.ID, json.RawMessage(`{"order":1}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddGameAlias(ctx, g1.ID, "g1-alias"); err != nil {
		t.Fatal(err)
	}

	for _, u := range []*store.User{bob, anyone} {
		wantErr(t, "DeleteGame(alice's) as "+u.Name, db.DeleteGame(as(u), g1.ID), store.ErrForbidden)
	}
	if _, err := db.GetGame(ctx, g1.ID); err != nil {
		t.Fatalf("a forbidden delete removed the game: %v", err)
	}

	// The representative goes: its comparisons (even bob's, even a running
	// one) go with it, and the lowest remaining member represents the class.
	if err := db.DeleteGame(as(alice), g1.ID); err != nil {
		t.Fatalf("DeleteGame as owner: %v", err)
	}
	_, err = db.GetGame(ctx, g1.ID)
	wantErr(t, "GetGame(deleted)", err, store.ErrNotFound)
	for _, id := range []int64{c12.ID, c21.ID} {
		_, err := db.GetComparison(ctx, id)
		wantErr(t, "GetComparison(of the deleted game)", err, store.ErrNotFound)
	}
	if _, err := db.GetComparison(ctx, keep.ID); err != nil {
		t.Errorf("GetComparison(other games): %v", err)
	}
	_, err = db.Heartbeat(ctx, c12.ID, "w", time.Minute, store.Progress{})
	wantErr(t, "Heartbeat(deleted job)", err, store.ErrLeaseLost)
	_, err = db.GetSymmetries(ctx, g1.ID)
	wantErr(t, "GetSymmetries(deleted game)", err, store.ErrNotFound)
	if gs, _, _ := db.FindGames(ctx, store.GameFilter{Name: "g1-alias"}); len(gs) != 0 {
		t.Errorf("FindGames(alias of the deleted game) = %+v", gs)
	}
	got, err := db.GetClass(ctx, class.ID)
	if err != nil || got.Representative != g2.ID || len(got.Members) != 2 {
		t.Errorf("class after deleting its representative = %+v, %v, want representative %d and 2 members", got, err, g2.ID)
	}

	// An admin may delete anyone's game; a plain member leaves the class
	// as it is.
	if err := db.DeleteGame(as(root), g3.ID); err != nil {
		t.Fatalf("DeleteGame as admin: %v", err)
	}
	if got, _ := db.GetClass(ctx, class.ID); got == nil || got.Representative != g2.ID || len(got.Members) != 1 {
		t.Errorf("class after deleting a member = %+v, want only %d", got, g2.ID)
	}
	// The only member goes: so does its class.
	if err := db.DeleteGame(as(alice), solo.ID); err != nil {
		t.Fatal(err)
	}
	_, err = db.GetClass(ctx, soloClass.ID)
	wantErr(t, "GetClass(class of the deleted only member)", err, store.ErrNotFound)
	classes, _, err := db.ListClasses(ctx, store.Page{})
	if err != nil || len(classes) != 1 {
		t.Errorf("ListClasses = %+v, %v, want one class", classes, err)
	}

	wantErr(t, "DeleteGame(deleted)", db.DeleteGame(as(root), g1.ID), store.ErrNotFound)
	// Without a user (access control off) anything goes.
	if err := db.DeleteGame(ctx, other.ID); err != nil {
		t.Errorf("DeleteGame without a user: %v", err)
	}
	_, err = db.GetComparison(ctx, keep.ID)
	wantErr(t, "GetComparison(second game deleted)", err, store.ErrNotFound)
}
