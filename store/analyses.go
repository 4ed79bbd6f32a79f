package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// gameAnalysisRow is a row of game_analyses.
type gameAnalysisRow struct {
	GameID    int64     `gorm:"column:game_id;primaryKey;autoIncrement:false"`
	Analysis  jsonText  `gorm:"column:analysis"`
	HasGraph  bool      `gorm:"column:has_graph"`
	UpdatedAt time.Time `gorm:"column:updated_at"`
}

func (gameAnalysisRow) TableName() string { return "game_analyses" }

// PutGameAnalysis stores the analysis document of a game (replacing an
// earlier one) and sets its class keys, as SetGameAnalysis does, in one
// transaction. A document with the graph part never gives way to one
// without it. It returns ErrNotFound if the game does not exist and
// ErrInvalid for keys SetGameAnalysis refuses or a document that is not
// JSON.
func (db *DB) PutGameAnalysis(ctx context.Context, gameID int64, keys Analysis, doc GameAnalysis) error {
	op := fmt.Sprintf("put analysis of game %d", gameID)
	if err := checkAnalysis(keys); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	j, err := jsonArg(doc.Doc, "")
	if err != nil || j == nil {
		return fmt.Errorf("%s: analysis must be JSON: %w", op, ErrInvalid)
	}
	now := db.now()
	err = db.tx(ctx, func(tx *gorm.DB) error {
		var old gameAnalysisRow
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("game_id = ?", gameID).Take(&old).Error
		switch {
		case err == nil && old.HasGraph && !doc.HasGraph:
			return nil // the stored analysis knows more
		case err != nil && !errors.Is(err, gorm.ErrRecordNotFound):
			return err
		}
		res := tx.Model(&gameRow{}).Where("id = ?", gameID).Updates(map[string]any{
			"certificate": ptr(keys.Certificate),
			"invariants":  keys.Invariants,
			"analyzed_at": now,
		})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return gorm.ErrRecordNotFound
		}
		row := gameAnalysisRow{GameID: gameID, Analysis: j, HasGraph: doc.HasGraph, UpdatedAt: now}
		return tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "game_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"analysis", "has_graph", "updated_at"}),
		}).Create(&row).Error
	})
	return translate(ctx, op, err)
}

// GetGameAnalysis returns the stored analysis of a game, or ErrNotFound.
func (db *DB) GetGameAnalysis(ctx context.Context, gameID int64) (*GameAnalysis, error) {
	op := fmt.Sprintf("get analysis of game %d", gameID)
	var row gameAnalysisRow
	if err := db.read(ctx).Where("game_id = ?", gameID).Take(&row).Error; err != nil {
		return nil, translate(ctx, op, err)
	}
	return &GameAnalysis{Doc: json.RawMessage(row.Analysis), HasGraph: row.HasGraph, UpdatedAt: row.UpdatedAt.UTC()}, nil
}

// AwaitingClass returns the games with ids above p.Cursor that have
// neither a class nor an error, in ascending id order, with their GDL
// text; next is the cursor of the following page, 0 after the last. Unlike
// GamesAwaitingClass it pages, so that a classifier can look past the
// games it is already placing.
func (db *DB) AwaitingClass(ctx context.Context, p Page) ([]Game, int64, error) {
	const op = "games awaiting class"
	limit, err := pageLimit(p)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", op, err)
	}
	var rows []gameRow
	err = db.conn(ctx).Where("class_id IS NULL AND error IS NULL AND id > ?", p.Cursor).
		Order("id").Limit(limit + 1).Find(&rows).Error
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

// ClassedWithoutAnalysis returns up to limit games (0 means
// DefaultPageLimit) that have a class but no stored analysis, oldest
// first, with their GDL text: games placed by a merge before their own
// analysis, or classified before the analyses were stored.
func (db *DB) ClassedWithoutAnalysis(ctx context.Context, limit int) ([]Game, error) {
	const op = "classed games without analysis"
	n, err := pageLimit(Page{Limit: limit})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var rows []gameRow
	err = db.conn(ctx).Where("class_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM game_analyses a WHERE a.game_id = games.id)").
		Order("id").Limit(n).Find(&rows).Error
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	games := make([]Game, len(rows))
	for i := range rows {
		games[i] = rows[i].game()
	}
	return games, nil
}
