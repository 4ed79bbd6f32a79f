package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/gamequiv/gamequiv/store"
)

func init() {
	register("token", "create, list and revoke the API tokens of a server's access control (--auth)", runToken)
}

// Environment variables of the database, the same as the server's.
const (
	envData        = "GAMEQUIV_DATA"
	envDatabaseURL = "GAMEQUIV_DATABASE_URL"
	defaultData    = "./data"
)

// tokenJSON is a token in --json output; Token, the secret, only when it
// is created.
type tokenJSON struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	Admin     bool       `json:"admin"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	Token     string     `json:"token,omitempty"`
}

func newTokenJSON(t *store.Token) tokenJSON {
	out := tokenJSON{ID: t.ID, Name: t.Name, Admin: t.Admin, CreatedAt: t.CreatedAt}
	if !t.RevokedAt.IsZero() {
		out.RevokedAt = &t.RevokedAt
	}
	return out
}

const tokenUsage = `usage: gamequiv token create --name NAME [--admin]
       gamequiv token list
       gamequiv token revoke (ID | --name NAME)

The tokens live in the server's database: pass the server's --data or
--database-url (or set GAMEQUIV_DATA or GAMEQUIV_DATABASE_URL, as for the
server). Only a token's SHA-256 is stored: create prints the token once.
Revoking takes effect at the server's next request.
`

func runToken(ctx context.Context, args []string, io stdio) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(io.err, tokenUsage)
		if len(args) == 0 {
			return exitInvalid
		}
		return exitOK
	}
	sub, args := args[0], args[1:]
	fs := newFlags("token "+sub, "", io)
	fs.Usage = func() {
		fmt.Fprint(io.err, tokenUsage+"\nflags:\n")
		fs.PrintDefaults()
	}
	data := fs.String("data", envOr(envData, defaultData), "the server's data `directory` (SQLite) [env "+envData+"]")
	dbURL := fs.String("database-url", os.Getenv(envDatabaseURL), "the server's database `URL` (postgres://...; empty for SQLite in --data) [env "+envDatabaseURL+"]")
	asJSON := fs.Bool("json", false, "print JSON")
	var name *string
	var admin *bool
	switch sub {
	case "create":
		name = fs.String("name", "", "who the token is for (its owner name: letters, digits, punctuation, no spaces)")
		admin = fs.Bool("admin", false, "the token may rename, delete and cancel what others own")
	case "revoke":
		name = fs.String("name", "", "revoke every token of this name instead of one ID")
	case "list":
	default:
		fmt.Fprintf(io.err, "gamequiv token: unknown subcommand %q\n", sub)
		fs.Usage()
		return exitInvalid
	}
	pos, code, ok := parseArgs(fs, args, 0, 1)
	if !ok {
		return code
	}
	if (sub == "create" && (*name == "" || len(pos) > 0)) || (sub == "list" && len(pos) > 0) ||
		(sub == "revoke" && (len(pos) == 1) == (*name != "")) {
		fs.Usage()
		return exitInvalid
	}

	if _, err := os.Stat(*data); *dbURL == "" && errors.Is(err, os.ErrNotExist) && sub != "create" {
		return fail(io, fmt.Errorf("%w: data directory %s does not exist (is it the server's --data?)", errInvalidInput, *data))
	}
	db, err := store.Open(ctx, store.Config{DataDir: *data, DatabaseURL: *dbURL})
	if err != nil {
		return fail(io, storeErr(err))
	}
	defer db.Close()

	switch sub {
	case "create":
		return createToken(ctx, db, *name, *admin, *asJSON, io)
	case "list":
		return listTokens(ctx, db, *asJSON, io)
	}
	return revokeTokens(ctx, db, pos, *name, *asJSON, io)
}

// envOr returns the environment variable, or def if it is empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// storeErr marks the store's invalid-argument errors as invalid input.
func storeErr(err error) error {
	if errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %v", errInvalidInput, err)
	}
	return err
}

func createToken(ctx context.Context, db *store.DB, name string, admin, asJSON bool, io stdio) int {
	t, secret, err := db.CreateToken(ctx, name, admin)
	if err != nil {
		return fail(io, storeErr(err))
	}
	if asJSON {
		out := newTokenJSON(t)
		out.Token = secret
		return writeJSON(io, out)
	}
	role := ""
	if admin {
		role = " (admin)"
	}
	fmt.Fprintf(io.err, "token %d for %s%s; it is shown only now: keep it secret\n", t.ID, t.Name, role)
	fmt.Fprintln(io.out, secret)
	return exitOK
}

func listTokens(ctx context.Context, db *store.DB, asJSON bool, io stdio) int {
	ts, err := db.ListTokens(ctx)
	if err != nil {
		return fail(io, err)
	}
	if asJSON {
		out := make([]tokenJSON, len(ts))
		for i := range ts {
			out[i] = newTokenJSON(&ts[i])
		}
		return writeJSON(io, map[string]any{"tokens": out})
	}
	w := tabwriter.NewWriter(io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tADMIN\tCREATED\tREVOKED")
	for _, t := range ts {
		revoked := "-"
		if !t.RevokedAt.IsZero() {
			revoked = t.RevokedAt.Format(time.RFC3339)
		}
		fmt.Fprintf(w, "%d\t%s\t%t\t%s\t%s\n", t.ID, t.Name, t.Admin, t.CreatedAt.Format(time.RFC3339), revoked)
	}
	if err := w.Flush(); err != nil {
		return fail(io, err)
	}
	return exitOK
}

func revokeTokens(ctx context.Context, db *store.DB, pos []string, name string, asJSON bool, io stdio) int {
	if name != "" {
		n, err := db.RevokeUserTokens(ctx, name)
		if err != nil {
			return fail(io, err)
		}
		if asJSON {
			return writeJSON(io, map[string]any{"name": name, "revoked": n})
		}
		fmt.Fprintf(io.out, "revoked %d token(s) of %s\n", n, name)
		return exitOK
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || id <= 0 {
		return fail(io, fmt.Errorf("%w: token ID %q: want a positive integer (see gamequiv token list)", errInvalidInput, pos[0]))
	}
	t, err := db.RevokeToken(ctx, id)
	if err != nil {
		return fail(io, storeErr(fmt.Errorf("token %d: %w", id, err)))
	}
	if asJSON {
		return writeJSON(io, newTokenJSON(t))
	}
	fmt.Fprintf(io.out, "revoked token %d of %s\n", t.ID, t.Name)
	return exitOK
}
