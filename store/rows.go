package store

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"
)

// The row models mirror the tables of the migrations column by column; the
// schema test fails when they drift apart. A nullable column has a pointer
// field (or a jsonText, which maps nil to NULL). They never leave the
// package: the exported types are built from them.

// gameRow is a row of games.
type gameRow struct {
	ID          int64      `gorm:"column:id;primaryKey"`
	Name        string     `gorm:"column:name"`
	SHA256      string     `gorm:"column:sha256"`
	GDL         string     `gorm:"column:gdl"`
	Stats       jsonText   `gorm:"column:stats"`
	Certificate *string    `gorm:"column:certificate"`
	Invariants  *string    `gorm:"column:invariants"`
	AnalyzedAt  *time.Time `gorm:"column:analyzed_at"`
	ClassID     *int64     `gorm:"column:class_id"`
	Error       *string    `gorm:"column:error"`
	Owner       *string    `gorm:"column:owner"`
	CreatedAt   time.Time  `gorm:"column:created_at"`
}

func (gameRow) TableName() string { return "games" }

// aliasRow is a row of game_aliases.
type aliasRow struct {
	GameID    int64     `gorm:"column:game_id;primaryKey;autoIncrement:false"`
	Name      string    `gorm:"column:name;primaryKey"`
	CreatedAt time.Time `gorm:"column:created_at"`
}

func (aliasRow) TableName() string { return "game_aliases" }

// classRow is a row of classes.
type classRow struct {
	ID               int64     `gorm:"column:id;primaryKey"`
	RepresentativeID int64     `gorm:"column:representative_id"`
	CreatedAt        time.Time `gorm:"column:created_at"`
}

func (classRow) TableName() string { return "classes" }

// comparisonRow is a row of comparisons.
type comparisonRow struct {
	ID              int64      `gorm:"column:id;primaryKey"`
	GameA           int64      `gorm:"column:game_a"`
	GameB           int64      `gorm:"column:game_b"`
	Limits          jsonText   `gorm:"column:limits"`
	IdemKey         string     `gorm:"column:idem_key"`
	Status          Status     `gorm:"column:status"`
	Progress        jsonText   `gorm:"column:progress"`
	Phase           string     `gorm:"column:phase"`
	Candidates      int64      `gorm:"column:candidates"`
	LeaseOwner      *string    `gorm:"column:lease_owner"`
	LeaseUntil      *time.Time `gorm:"column:lease_until"`
	Attempts        int64      `gorm:"column:attempts"`
	CancelRequested bool       `gorm:"column:cancel_requested"`
	Verdict         *string    `gorm:"column:verdict"`
	Result          jsonText   `gorm:"column:result"`
	Error           *string    `gorm:"column:error"`
	Reason          *string    `gorm:"column:reason"`
	Owner           *string    `gorm:"column:owner"`
	CreatedAt       time.Time  `gorm:"column:created_at"`
	StartedAt       *time.Time `gorm:"column:started_at"`
	FinishedAt      *time.Time `gorm:"column:finished_at"`
}

func (comparisonRow) TableName() string { return "comparisons" }

// symmetryRow is a row of symmetries.
type symmetryRow struct {
	GameID    int64     `gorm:"column:game_id;primaryKey;autoIncrement:false"`
	Result    jsonText  `gorm:"column:result"`
	CreatedAt time.Time `gorm:"column:created_at"`
}

func (symmetryRow) TableName() string { return "symmetries" }

// symmetryFailureRow is a row of symmetry_failures.
type symmetryFailureRow struct {
	GameID    int64     `gorm:"column:game_id;primaryKey;autoIncrement:false"`
	Problem   jsonText  `gorm:"column:problem"`
	CreatedAt time.Time `gorm:"column:created_at"`
}

func (symmetryFailureRow) TableName() string { return "symmetry_failures" }

// tokenRow is a row of tokens.
type tokenRow struct {
	ID        int64      `gorm:"column:id;primaryKey"`
	Name      string     `gorm:"column:name"`
	Hash      string     `gorm:"column:hash"`
	Admin     bool       `gorm:"column:admin"`
	CreatedAt time.Time  `gorm:"column:created_at"`
	RevokedAt *time.Time `gorm:"column:revoked_at"`
}

func (tokenRow) TableName() string { return "tokens" }

// rowModels lists one value of every row model, for the schema test.
var rowModels = []any{&gameRow{}, &aliasRow{}, &classRow{}, &comparisonRow{}, &symmetryRow{}, &symmetryFailureRow{},
	&gameAnalysisRow{}, &tokenRow{}}

// jsonText is a JSON document in a TEXT (SQLite) or JSON (PostgreSQL)
// column. It is written as a string, so that SQLite stores text that
// json_valid accepts rather than a blob, and nil is NULL.
type jsonText []byte

// Value implements driver.Valuer.
func (j jsonText) Value() (driver.Value, error) {
	if j == nil {
		return nil, nil
	}
	return string(j), nil
}

// Scan implements sql.Scanner.
func (j *jsonText) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*j = nil
	case []byte:
		*j = append(jsonText(nil), v...)
	case string:
		*j = jsonText(v)
	default:
		return fmt.Errorf("scan JSON column: unexpected %T", src)
	}
	return nil
}

// raw returns j as a json.RawMessage (nil for NULL).
func (j jsonText) raw() json.RawMessage {
	if j == nil {
		return nil
	}
	return json.RawMessage(j)
}

func (r *gameRow) game() Game {
	g := Game{
		ID:         r.ID,
		Name:       r.Name,
		SHA256:     r.SHA256,
		Stats:      r.Stats.raw(),
		AnalyzedAt: utc(r.AnalyzedAt),
		ClassID:    deref(r.ClassID),
		Error:      deref(r.Error),
		Owner:      deref(r.Owner),
		CreatedAt:  r.CreatedAt.UTC(),
	}
	if r.GDL != "" {
		g.GDL = []byte(r.GDL)
	}
	if r.Invariants != nil {
		g.Analysis = &Analysis{Certificate: deref(r.Certificate), Invariants: *r.Invariants}
	}
	return g
}

func (r *comparisonRow) comparison() Comparison {
	return Comparison{
		ID:              r.ID,
		GameA:           r.GameA,
		GameB:           r.GameB,
		Limits:          r.Limits.raw(),
		IdemKey:         r.IdemKey,
		Status:          r.Status,
		Progress:        r.Progress.raw(),
		Phase:           r.Phase,
		Candidates:      r.Candidates,
		LeaseOwner:      deref(r.LeaseOwner),
		LeaseUntil:      utc(r.LeaseUntil),
		Attempts:        int(r.Attempts),
		CancelRequested: r.CancelRequested,
		Verdict:         deref(r.Verdict),
		Result:          r.Result.raw(),
		Error:           deref(r.Error),
		Reason:          deref(r.Reason),
		Owner:           deref(r.Owner),
		CreatedAt:       r.CreatedAt.UTC(),
		StartedAt:       utc(r.StartedAt),
		FinishedAt:      utc(r.FinishedAt),
	}
}

// deref returns *p, or the zero value for nil.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// ptr returns a pointer to v, or nil for the zero value.
func ptr[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// utc returns *t in UTC, or the zero time for nil.
func utc(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}
