package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// gameListColumns are the columns of a game in lists: all but gdl.
var gameListColumns = []string{"id", "name", "sha256", "stats", "certificate", "invariants", "analyzed_at", "class_id", "error", "created_at"}

// CreateGame stores a game and reports whether it is new. Games are
// deduplicated by the SHA-256 of gdl: a text stored before returns the
// existing game (with its first name and stats) and created false, also
// when several callers store the same text at once. gdl must be non-empty
// UTF-8 text without NUL bytes, name UTF-8, and stats JSON (nil means {}).
func (db *DB) CreateGame(ctx context.Context, name string, gdl []byte, stats json.RawMessage) (*Game, bool, error) {
	const op = "create game"
	if len(gdl) == 0 || !utf8.Valid(gdl) || strings.ContainsRune(string(gdl), 0) {
		return nil, false, fmt.Errorf("%s: GDL must be non-empty UTF-8 text without NUL: %w", op, ErrInvalid)
	}
	if !validText(name) {
		return nil, false, fmt.Errorf("%s: name must be UTF-8 without NUL: %w", op, ErrInvalid)
	}
	st, err := jsonArg(stats, "{}")
	if err != nil {
		return nil, false, fmt.Errorf("%s: stats: %w", op, err)
	}
	sum := sha256.Sum256(gdl)
	row := gameRow{
		Name:      name,
		SHA256:    hex.EncodeToString(sum[:]),
		GDL:       string(gdl),
		Stats:     st,
		CreatedAt: db.now(),
	}
	res := db.conn(ctx).
		Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "sha256"}}, DoNothing: true}).
		Create(&row)
	if res.Error != nil {
		return nil, false, translate(ctx, op, res.Error)
	}
	if res.RowsAffected == 1 {
		g := row.game()
		return &g, true, nil
	}
	var old gameRow
	if err := db.conn(ctx).Where("sha256 = ?", row.SHA256).Take(&old).Error; err != nil {
		return nil, false, translate(ctx, op, err)
	}
	g := old.game()
	return &g, false, nil
}

// GetGame returns the game with its GDL text, or ErrNotFound.
func (db *DB) GetGame(ctx context.Context, id int64) (*Game, error) {
	var row gameRow
	if err := db.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, translate(ctx, fmt.Sprintf("get game %d", id), err)
	}
	g := row.game()
	return &g, nil
}

// ListGames returns one page of games in ascending id order. The games'
// GDL is nil; GetGame returns it. next is the cursor of the following page,
// 0 after the last one.
func (db *DB) ListGames(ctx context.Context, p Page) ([]Game, int64, error) {
	const op = "list games"
	limit, err := p.limit()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", op, err)
	}
	var rows []gameRow
	err = db.conn(ctx).Select(gameListColumns).
		Where("id > ?", p.Cursor).Order("id").Limit(limit + 1).
		Find(&rows).Error
	if err != nil {
		return nil, 0, translate(ctx, op, err)
	}
	rows, next := pageOf(rows, limit, func(r gameRow) int64 { return r.ID })
	games := make([]Game, len(rows))
	for i := range rows {
		games[i] = rows[i].game()
	}
	return games, next, nil
}

// SetGameAnalysis records the class keys of a game, replacing earlier ones.
// a.Invariants must not be empty; a.Certificate may be. Both are at most
// MaxKeyLen bytes. A game that cannot be analysed gets SetGameError.
func (db *DB) SetGameAnalysis(ctx context.Context, gameID int64, a Analysis) error {
	op := fmt.Sprintf("set analysis of game %d", gameID)
	if err := a.check(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	res := db.conn(ctx).Model(&gameRow{}).Where("id = ?", gameID).Updates(map[string]any{
		"certificate": ptr(a.Certificate),
		"invariants":  a.Invariants,
		"analyzed_at": db.now(),
	})
	return rowsOrNotFound(ctx, op, res)
}

// SetGameError records why a game could not be analysed. The game no
// longer awaits a class; it can still be given one.
func (db *DB) SetGameError(ctx context.Context, gameID int64, msg string) error {
	op := fmt.Sprintf("set error of game %d", gameID)
	if msg == "" || !validText(msg) {
		return fmt.Errorf("%s: message must be non-empty UTF-8: %w", op, ErrInvalid)
	}
	res := db.conn(ctx).Model(&gameRow{}).Where("id = ?", gameID).Update("error", msg)
	return rowsOrNotFound(ctx, op, res)
}

// GamesAwaitingClass returns up to limit games (0 means DefaultPageLimit)
// that have neither a class nor an error, oldest first, with their GDL.
func (db *DB) GamesAwaitingClass(ctx context.Context, limit int) ([]Game, error) {
	const op = "games awaiting class"
	n, err := Page{Limit: limit}.limit()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var rows []gameRow
	err = db.conn(ctx).Where("class_id IS NULL AND error IS NULL").Order("id").Limit(n).Find(&rows).Error
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	games := make([]Game, len(rows))
	for i := range rows {
		games[i] = rows[i].game()
	}
	return games, nil
}

// check validates the keys of an analysis.
func (a Analysis) check() error {
	switch {
	case len(a.Certificate) > MaxKeyLen || len(a.Invariants) > MaxKeyLen:
		return fmt.Errorf("class key longer than %d bytes: %w", MaxKeyLen, ErrInvalid)
	case !validText(a.Certificate) || !validText(a.Invariants):
		return fmt.Errorf("class key is not UTF-8 text: %w", ErrInvalid)
	case a.Invariants == "":
		return fmt.Errorf("no invariants: %w", ErrInvalid)
	}
	return nil
}

// validText reports whether s can be stored in a TEXT column of both
// databases: UTF-8 without NUL (PostgreSQL rejects both).
func validText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// jsonArg validates a JSON argument; nil (or empty) gives def, or NULL if
// def is empty.
func jsonArg(raw json.RawMessage, def string) (jsonText, error) {
	if len(raw) == 0 {
		if def == "" {
			return nil, nil
		}
		return jsonText(def), nil
	}
	if !json.Valid(raw) || !utf8.Valid(raw) {
		return nil, fmt.Errorf("not valid JSON: %w", ErrInvalid)
	}
	return jsonText(raw), nil
}

// limit returns the page size to query, or ErrInvalid.
func (p Page) limit() (int, error) {
	switch {
	case p.Cursor < 0 || p.Limit < 0:
		return 0, fmt.Errorf("negative limit or cursor: %w", ErrInvalid)
	case p.Limit == 0:
		return DefaultPageLimit, nil
	case p.Limit > MaxPageLimit:
		return MaxPageLimit, nil
	}
	return p.Limit, nil
}

// pageOf cuts rows, queried with limit+1, to limit and returns the next
// cursor: the key of the last row kept if there are more, else 0.
func pageOf[T any](rows []T, limit int, key func(T) int64) ([]T, int64) {
	if len(rows) <= limit {
		return rows, 0
	}
	rows = rows[:limit]
	return rows, key(rows[limit-1])
}

// rowsOrNotFound translates the result of an update of one row by id:
// no row affected means it does not exist.
func rowsOrNotFound(ctx context.Context, op string, res *gorm.DB) error {
	if res.Error != nil {
		return translate(ctx, op, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	return nil
}
