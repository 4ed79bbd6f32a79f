package store

import (
	"context"
	"fmt"
	"strings"
)

// MaxNameIDs bounds the ids of one GameNames call.
const MaxNameIDs = 1000

// GameNames returns the names of the games with the given ids (at most
// MaxNameIDs); an id with no game is left out of the map.
func (db *DB) GameNames(ctx context.Context, ids []int64) (map[int64]string, error) {
	const op = "game names"
	if len(ids) > MaxNameIDs {
		return nil, fmt.Errorf("%s: %d ids, at most %d: %w", op, len(ids), MaxNameIDs, ErrInvalid)
	}
	out := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []gameRow
	if err := db.read(ctx).Select("id", "name").Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return nil, translate(ctx, op, err)
	}
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, nil
}

// likeContains is the LIKE pattern (escape character \) of the lower-case
// strings that contain s, case folded.
func likeContains(s string) string {
	return "%" + strings.TrimSuffix(likePrefix(strings.ToLower(s)), "%") + "%"
}

// nameMatch is the condition "the game's name contains ?", case-insensitive
// for ASCII letters on both databases.
const nameMatch = `LOWER(name) LIKE ? ESCAPE '\'`

// SearchGames returns one page of the games whose name contains q,
// ignoring ASCII case, in ascending id order and without GDL; an empty q
// matches every game, like ListGames.
func (db *DB) SearchGames(ctx context.Context, q string, p Page) ([]Game, int64, error) {
	const op = "search games"
	limit, err := pageLimit(p)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", op, err)
	}
	if !validText(q) {
		return nil, 0, fmt.Errorf("%s: query must be UTF-8 without NUL: %w", op, ErrInvalid)
	}
	var rows []gameRow
	err = db.read(ctx).Select(gameListColumns).
		Where("id > ?", p.Cursor).Where(nameMatch, likeContains(q)).Order("id").Limit(limit + 1).
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

// SearchClasses returns one page of the classes that have a member whose
// name contains q, ignoring ASCII case, in ascending id order with all
// their members; an empty q matches every class, like ListClasses.
func (db *DB) SearchClasses(ctx context.Context, q string, p Page) ([]Class, int64, error) {
	const op = "search classes"
	limit, err := pageLimit(p)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", op, err)
	}
	if !validText(q) {
		return nil, 0, fmt.Errorf("%s: query must be UTF-8 without NUL: %w", op, ErrInvalid)
	}
	conn := db.read(ctx)
	members := conn.Model(&gameRow{}).Select("class_id").Where("class_id IS NOT NULL").Where(nameMatch, likeContains(q))
	return classPage(ctx, op, conn.Where("id IN (?)", members), p.Cursor, limit)
}
