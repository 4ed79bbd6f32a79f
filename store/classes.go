package store

import (
	"context"
	"fmt"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// CandidateClasses returns, in ascending id order, the classes that could
// hold a game with the keys a: those with a member of the same invariants
// whose certificate is equal to a.Certificate or unknown (empty, or of
// another scheme when a.Certificate has one; see Analysis). With an empty
// a.Certificate every class with a member of the same invariants is a
// candidate. The caller compares the game with each candidate's
// representative.
func (db *DB) CandidateClasses(ctx context.Context, a Analysis) ([]Class, error) {
	const op = "candidate classes"
	if err := checkAnalysis(a); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	q := db.read(ctx).Model(&gameRow{}).Distinct("class_id").
		Where("class_id IS NOT NULL AND invariants = ?", a.Invariants)
	if scheme, _, ok := strings.Cut(a.Certificate, ":"); ok {
		q = q.Where(`certificate = ? OR certificate IS NULL OR certificate NOT LIKE ? ESCAPE '\'`,
			a.Certificate, likePrefix(scheme+":"))
	} else if a.Certificate != "" {
		q = q.Where("certificate = ? OR certificate IS NULL", a.Certificate)
	}
	var ids []int64
	if err := q.Pluck("class_id", &ids).Error; err != nil {
		return nil, translate(ctx, op, err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []classRow
	if err := db.read(ctx).Where("id IN ?", ids).Order("id").Find(&rows).Error; err != nil {
		return nil, translate(ctx, op, err)
	}
	classes, err := withMembers(db.read(ctx), rows)
	return classes, translate(ctx, op, err)
}

// NewClass creates a class whose representative and only member is the
// game. It returns ErrNotFound if the game does not exist and ErrConflict
// if it already has a class.
func (db *DB) NewClass(ctx context.Context, gameID int64) (*Class, error) {
	op := fmt.Sprintf("new class for game %d", gameID)
	var c *Class
	err := db.tx(ctx, func(tx *gorm.DB) error {
		var g gameRow
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Select("id", "name", "class_id").
			Where("id = ?", gameID).Take(&g).Error
		if err != nil {
			return err
		}
		if g.ClassID != nil {
			return fmt.Errorf("game is in class %d: %w", *g.ClassID, ErrConflict)
		}
		row := classRow{RepresentativeID: gameID, CreatedAt: db.now()}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		if err := tx.Model(&gameRow{}).Where("id = ?", gameID).Update("class_id", row.ID).Error; err != nil {
			return err
		}
		c = &Class{ID: row.ID, Representative: gameID, Members: []Member{{ID: gameID, Name: g.Name}}, CreatedAt: row.CreatedAt}
		return nil
	})
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	return c, nil
}

// AssignClass places a game in a class. It returns ErrNotFound if either
// does not exist and ErrConflict if the game is in another class (classes
// change only by MergeClasses); assigning the game's own class again is a
// no-op.
func (db *DB) AssignClass(ctx context.Context, gameID, classID int64) error {
	op := fmt.Sprintf("assign game %d to class %d", gameID, classID)
	err := db.tx(ctx, func(tx *gorm.DB) error {
		// A shared lock keeps MergeClasses from deleting the class meanwhile.
		var c classRow
		if err := tx.Clauses(clause.Locking{Strength: "SHARE"}).Where("id = ?", classID).Take(&c).Error; err != nil {
			return err
		}
		res := tx.Model(&gameRow{}).
			Where("id = ? AND (class_id IS NULL OR class_id = ?)", gameID, classID).
			Update("class_id", classID)
		if res.Error != nil || res.RowsAffected == 1 {
			return res.Error
		}
		var g gameRow
		if err := tx.Select("id", "class_id").Where("id = ?", gameID).Take(&g).Error; err != nil {
			return err
		}
		return fmt.Errorf("game is in class %d: %w", deref(g.ClassID), ErrConflict)
	})
	return translate(ctx, op, err)
}

// MergeClasses moves every member of class drop into class keep, deletes
// drop and returns keep with its members; keep's representative stays. It
// returns ErrNotFound if either class does not exist and ErrInvalid if they
// are the same.
func (db *DB) MergeClasses(ctx context.Context, keep, drop int64) (*Class, error) {
	op := fmt.Sprintf("merge class %d into %d", drop, keep)
	if keep == drop {
		return nil, fmt.Errorf("%s: same class: %w", op, ErrInvalid)
	}
	var out *Class
	err := db.tx(ctx, func(tx *gorm.DB) error {
		var rows []classRow
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).
			Where("id IN ?", []int64{keep, drop}).Order("id").Find(&rows).Error
		if err != nil {
			return err
		}
		if len(rows) != 2 {
			return ErrNotFound
		}
		if err := tx.Model(&gameRow{}).Where("class_id = ?", drop).Update("class_id", keep).Error; err != nil {
			return err
		}
		if err := tx.Where("id = ?", drop).Delete(&classRow{}).Error; err != nil {
			return err
		}
		k := rows[0]
		if k.ID != keep {
			k = rows[1]
		}
		classes, err := withMembers(tx, []classRow{k})
		if err != nil {
			return err
		}
		out = &classes[0]
		return nil
	})
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	return out, nil
}

// GetClass returns the class with its members, or ErrNotFound.
func (db *DB) GetClass(ctx context.Context, id int64) (*Class, error) {
	op := fmt.Sprintf("get class %d", id)
	var row classRow
	if err := db.read(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, translate(ctx, op, err)
	}
	classes, err := withMembers(db.read(ctx), []classRow{row})
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	return &classes[0], nil
}

// ListClasses returns one page of classes with their members in ascending
// id order; next is the cursor of the following page, 0 after the last.
func (db *DB) ListClasses(ctx context.Context, p Page) ([]Class, int64, error) {
	const op = "list classes"
	limit, err := pageLimit(p)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", op, err)
	}
	return classPage(ctx, op, db.read(ctx), p.Cursor, limit)
}

// classPage returns the classes that q selects with ids above cursor, at
// most limit of them in ascending id order with all their members, and the
// next cursor.
func classPage(ctx context.Context, op string, q *gorm.DB, cursor int64, limit int) ([]Class, int64, error) {
	var rows []classRow
	if err := q.Where("id > ?", cursor).Order("id").Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, 0, translate(ctx, op, err)
	}
	rows, next := pageOf(rows, limit, func(r classRow) int64 { return r.ID })
	classes, err := withMembers(q.Session(&gorm.Session{NewDB: true}), rows)
	if err != nil {
		return nil, 0, translate(ctx, op, err)
	}
	return classes, next, nil
}

// withMembers returns the classes of rows, in order, with their members.
func withMembers(q *gorm.DB, rows []classRow) ([]Class, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rows))
	byID := make(map[int64]int, len(rows))
	classes := make([]Class, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
		byID[r.ID] = i
		classes[i] = Class{ID: r.ID, Representative: r.RepresentativeID, Members: []Member{}, CreatedAt: r.CreatedAt.UTC()}
	}
	var members []gameRow
	err := q.Select("id", "name", "class_id").Where("class_id IN ?", ids).Order("id").Find(&members).Error
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		i := byID[*m.ClassID]
		classes[i].Members = append(classes[i].Members, Member{ID: m.ID, Name: m.Name})
	}
	return classes, nil
}

// likePrefix is the LIKE pattern of the strings that start with prefix.
func likePrefix(prefix string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(prefix) + "%"
}
