package gamequiv

import (
	"context"
	"time"
)

// User is the person a request acts for: the holder of an API token.
type User struct {
	// Name is the token's name; games and comparisons record it as their
	// owner. Empty for an anonymous reader.
	Name string
	// Admin may rename, delete and cancel what others own.
	Admin bool
}

// userKey is the context key of the User.
type userKey struct{}

// NewContextWithUser returns a context that carries u. The storage records
// u.Name as the owner of the games and comparisons created under it, and
// lets only the owner or an admin rename or delete a game or cancel a
// comparison: with another user, or an anonymous one (empty Name), those
// calls return ErrForbidden. A context without a user (access control
// off, or the server's own workers) may do everything.
func NewContextWithUser(ctx context.Context, u *User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// UserFromContext returns the user that ctx carries, or nil.
func UserFromContext(ctx context.Context) *User {
	u, _ := ctx.Value(userKey{}).(*User)
	return u
}

// MayChange reports whether the user u may rename, delete or cancel a row
// owned by owner (empty: stored without an owner): always without a user
// (nil), else if u is an admin or owns the row. An anonymous user (empty
// Name) owns nothing.
func MayChange(u *User, owner string) bool {
	return u == nil || u.Admin || (u.Name != "" && owner == u.Name)
}

// Token is a stored API token, without its secret.
type Token struct {
	ID    int64
	Name  string
	Admin bool
	// CreatedAt is the creation time; RevokedAt the revocation time, zero
	// while the token is valid.
	CreatedAt time.Time
	RevokedAt time.Time
}
