package store

import (
	"context"
	"encoding/json"
	"fmt"

	"gorm.io/gorm/clause"
)

// GetSymmetries returns the stored symmetry result of a game, or
// ErrNotFound if there is none (yet).
func (db *DB) GetSymmetries(ctx context.Context, gameID int64) (*SymmetryResult, error) {
	var row symmetryRow
	if err := db.conn(ctx).Where("game_id = ?", gameID).Take(&row).Error; err != nil {
		return nil, translate(ctx, fmt.Sprintf("get symmetries of game %d", gameID), err)
	}
	return row.result(), nil
}

// PutSymmetries stores the symmetry result (a JSON document) of a game,
// replacing an earlier one, and returns what is stored. It returns
// ErrNotFound if the game does not exist.
func (db *DB) PutSymmetries(ctx context.Context, gameID int64, result json.RawMessage) (*SymmetryResult, error) {
	op := fmt.Sprintf("put symmetries of game %d", gameID)
	j, err := jsonArg(result, "")
	if err != nil || j == nil {
		return nil, fmt.Errorf("%s: result must be JSON: %w", op, ErrInvalid)
	}
	row := symmetryRow{GameID: gameID, Result: j, CreatedAt: db.now()}
	err = db.conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "game_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"result", "created_at"}),
	}).Create(&row).Error
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	return row.result(), nil
}

func (r *symmetryRow) result() *SymmetryResult {
	return &SymmetryResult{GameID: r.GameID, Result: r.Result.raw(), CreatedAt: r.CreatedAt.UTC()}
}
