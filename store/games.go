package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gamequiv/gamequiv"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// gameListColumns are the columns of a game in lists: all but gdl.
var gameListColumns = []string{"id", "name", "sha256", "stats", "certificate", "invariants", "analyzed_at", "class_id", "error", "owner", "created_at"}

// CreateGame stores a game and reports whether it is new. The text is
// stored with its line endings made LF (NormalizeLineEndings), and games
// are deduplicated by its ContentSHA256: a text stored before returns the
// existing game (with its first name, its aliases and stats) unchanged and
// created false, also when several callers store the same text at once;
// AddGameAlias records another name. The user of ctx, if any
// (NewContextWithUser), becomes the owner of a new game. gdl must be non-empty UTF-8 text
// without NUL bytes, name UTF-8, and stats JSON (nil means {}).
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
	gdl = NormalizeLineEndings(gdl)
	row := gameRow{
		Name:      name,
		SHA256:    ContentSHA256(gdl),
		GDL:       string(gdl),
		Stats:     st,
		Owner:     ownerOf(ctx),
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
	g, err := db.GameBySHA256(ctx, row.SHA256)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", op, err)
	}
	return g, false, nil
}

// GetGame returns the game with its GDL text and aliases, or ErrNotFound.
func (db *DB) GetGame(ctx context.Context, id int64) (*Game, error) {
	return db.takeGame(ctx, fmt.Sprintf("get game %d", id), "id = ?", id)
}

// GameBySHA256 returns the game whose ContentSHA256 is sum (lower-case
// hex), with its GDL text and aliases, or ErrNotFound.
func (db *DB) GameBySHA256(ctx context.Context, sum string) (*Game, error) {
	return db.takeGame(ctx, fmt.Sprintf("get game by sha256 %.64q", sum), "sha256 = ?", sum)
}

// takeGame returns the one game the condition selects, with its aliases.
func (db *DB) takeGame(ctx context.Context, op string, cond string, arg any) (*Game, error) {
	var row gameRow
	if err := db.read(ctx).Where(cond, arg).Take(&row).Error; err != nil {
		return nil, translate(ctx, op, err)
	}
	games := []Game{row.game()}
	if err := db.loadAliases(ctx, games); err != nil {
		return nil, translate(ctx, op, err)
	}
	return &games[0], nil
}

// AddGameAlias records name as another name of the game and reports
// whether it is new: it is not if it is the game's name or one of its
// aliases already. It returns ErrNotFound if the game does not exist.
func (db *DB) AddGameAlias(ctx context.Context, gameID int64, name string) (bool, error) {
	op := fmt.Sprintf("add alias of game %d", gameID)
	if name == "" || !validText(name) {
		return false, fmt.Errorf("%s: name must be non-empty UTF-8 without NUL: %w", op, ErrInvalid)
	}
	added := false
	err := db.tx(ctx, func(tx *gorm.DB) error {
		var row gameRow
		if err := tx.Select("id", "name").Where("id = ?", gameID).Take(&row).Error; err != nil {
			return err
		}
		if row.Name == name {
			return nil
		}
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).
			Create(&aliasRow{GameID: gameID, Name: name, CreatedAt: db.now()})
		added = res.RowsAffected == 1
		return res.Error
	})
	if err != nil {
		return false, translate(ctx, op, err)
	}
	return added, nil
}

// ListGames returns one page of games in ascending id order. The games'
// GDL is nil; GetGame returns it. next is the cursor of the following page,
// 0 after the last one.
func (db *DB) ListGames(ctx context.Context, p Page) ([]Game, int64, error) {
	return db.FindGames(ctx, GameFilter{Page: p})
}

// FindGames returns one page of the games f selects, in ascending id
// order, with their aliases and without their GDL. next is the cursor of
// the following page, 0 after the last one.
func (db *DB) FindGames(ctx context.Context, f GameFilter) ([]Game, int64, error) {
	const op = "list games"
	limit, err := pageLimit(f.Page)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", op, err)
	}
	if !validText(f.Name) || !validText(f.NameContains) {
		return nil, 0, fmt.Errorf("%s: name must be UTF-8 without NUL: %w", op, ErrInvalid)
	}
	q := db.read(ctx).Select(gameListColumns).Where("id > ?", f.Cursor)
	if f.SHA256 != "" {
		if !gamequiv.IsContentSHA256(f.SHA256) {
			return nil, 0, fmt.Errorf("%s: sha256 %.70q: want 64 lower-case hex digits: %w", op, f.SHA256, ErrInvalid)
		}
		q = q.Where("sha256 = ?", f.SHA256)
	}
	if f.Name != "" {
		q = q.Where("name = ? OR id IN (SELECT game_id FROM game_aliases WHERE name = ?)", f.Name, f.Name)
	}
	if f.NameContains != "" {
		pat := "%" + likeEscaper.Replace(asciiLower(f.NameContains)) + "%"
		q = q.Where(`LOWER(name) LIKE ? ESCAPE '\' OR id IN (SELECT game_id FROM game_aliases WHERE LOWER(name) LIKE ? ESCAPE '\')`, pat, pat)
	}
	var rows []gameRow
	if err := q.Order("id").Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, 0, translate(ctx, op, err)
	}
	rows, next := pageOf(rows, limit, func(r gameRow) int64 { return r.ID })
	games := make([]Game, len(rows))
	for i := range rows {
		games[i] = rows[i].game()
	}
	if err := db.loadAliases(ctx, games); err != nil {
		return nil, 0, translate(ctx, op, err)
	}
	return games, next, nil
}

// loadAliases fills in the Aliases of games with one query.
func (db *DB) loadAliases(ctx context.Context, games []Game) error {
	if len(games) == 0 {
		return nil
	}
	at := make(map[int64]int, len(games))
	ids := make([]int64, len(games))
	for i, g := range games {
		at[g.ID], ids[i] = i, g.ID
	}
	var rows []aliasRow
	if err := db.read(ctx).Where("game_id IN ?", ids).Order("created_at, name").Find(&rows).Error; err != nil {
		return err
	}
	for _, r := range rows {
		g := &games[at[r.GameID]]
		g.Aliases = append(g.Aliases, r.Name)
	}
	return nil
}

// likeEscaper escapes the wildcards of a LIKE pattern (ESCAPE '\').
var likeEscaper = strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)

// asciiLower lower-cases ASCII letters only, as SQLite's LOWER does.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

// SetGameAnalysis records the class keys of a game, replacing earlier ones.
// a.Invariants must not be empty; a.Certificate may be. Both are at most
// MaxKeyLen bytes. A game that cannot be analysed gets SetGameError.
func (db *DB) SetGameAnalysis(ctx context.Context, gameID int64, a Analysis) error {
	op := fmt.Sprintf("set analysis of game %d", gameID)
	if err := checkAnalysis(a); err != nil {
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
	n, err := pageLimit(Page{Limit: limit})
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

// checkAnalysis validates the keys of an analysis.
func checkAnalysis(a Analysis) error {
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

// pageLimit returns the page size to query, or ErrInvalid.
func pageLimit(p Page) (int, error) {
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
