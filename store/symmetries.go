package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// GetSymmetries returns the stored symmetry result of a game, or its
// stored failure (Problem set), or ErrNotFound if there is neither (yet).
func (db *DB) GetSymmetries(ctx context.Context, gameID int64) (*SymmetryResult, error) {
	op := fmt.Sprintf("get symmetries of game %d", gameID)
	var row symmetryRow
	err := db.read(ctx).Where("game_id = ?", gameID).Take(&row).Error
	if err == nil {
		return row.result(), nil
	}
	if !errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, translate(ctx, op, err)
	}
	var fail symmetryFailureRow
	if err := db.read(ctx).Where("game_id = ?", gameID).Take(&fail).Error; err != nil {
		return nil, translate(ctx, op, err)
	}
	return fail.result(), nil
}

// PutSymmetries stores the symmetry result (a JSON document) of a game,
// replacing an earlier result or failure, and returns what is stored. It
// returns ErrNotFound if the game does not exist.
func (db *DB) PutSymmetries(ctx context.Context, gameID int64, result json.RawMessage) (*SymmetryResult, error) {
	op := fmt.Sprintf("put symmetries of game %d", gameID)
	j, err := jsonArg(result, "")
	if err != nil || j == nil {
		return nil, fmt.Errorf("%s: result must be JSON: %w", op, ErrInvalid)
	}
	row := symmetryRow{GameID: gameID, Result: j, CreatedAt: db.now()}
	err = db.tx(ctx, func(tx *gorm.DB) error {
		if err := tx.Where("game_id = ?", gameID).Delete(&symmetryFailureRow{}).Error; err != nil {
			return err
		}
		return tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "game_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"result", "created_at"}),
		}).Create(&row).Error
	})
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	return row.result(), nil
}

// PutSymmetryFailure stores the failure of a game's symmetry computation
// (problem, a JSON document) and returns what is stored. A stored result
// wins: it is returned unchanged. It returns ErrNotFound if the game does
// not exist.
func (db *DB) PutSymmetryFailure(ctx context.Context, gameID int64, problem json.RawMessage) (*SymmetryResult, error) {
	op := fmt.Sprintf("put symmetry failure of game %d", gameID)
	j, err := jsonArg(problem, "")
	if err != nil || j == nil {
		return nil, fmt.Errorf("%s: problem must be JSON: %w", op, ErrInvalid)
	}
	fail := symmetryFailureRow{GameID: gameID, Problem: j, CreatedAt: db.now()}
	var out *SymmetryResult
	err = db.tx(ctx, func(tx *gorm.DB) error {
		var row symmetryRow
		err := tx.Where("game_id = ?", gameID).Take(&row).Error
		if err == nil {
			out = row.result()
			return nil
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
		out = fail.result()
		return tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "game_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"problem", "created_at"}),
		}).Create(&fail).Error
	})
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	return out, nil
}

func (r *symmetryRow) result() *SymmetryResult {
	return &SymmetryResult{GameID: r.GameID, Result: r.Result.raw(), CreatedAt: r.CreatedAt.UTC()}
}

func (r *symmetryFailureRow) result() *SymmetryResult {
	return &SymmetryResult{GameID: r.GameID, Problem: r.Problem.raw(), CreatedAt: r.CreatedAt.UTC()}
}
