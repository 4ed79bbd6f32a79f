package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// comparisonListColumns are the columns of a comparison in lists: all but
// result.
var comparisonListColumns = []string{
	"id", "game_a", "game_b", "limits", "idem_key", "status", "progress", "phase", "candidates",
	"lease_owner", "lease_until", "attempts", "cancel_requested", "verdict", "error", "reason",
	"owner", "created_at", "started_at", "finished_at",
}

// CreateComparison queues a comparison of games a and b under limits (a
// JSON document; nil means {}) and reports whether it is new. The same a,
// b and limits (compared as canonical JSON: keys sorted, no spaces) return
// the existing comparison, whatever its status but cancelled, also when
// several callers submit at once; a cancelled one is replaced by a new
// queued comparison (it stays, under another IdemKey). The user of ctx, if
// any (NewContextWithUser), becomes the owner of a new comparison. The order of a and b matters: the result maps a to b. It
// returns ErrNotFound if a game does not exist.
func (db *DB) CreateComparison(ctx context.Context, a, b int64, limits json.RawMessage) (*Comparison, bool, error) {
	op := fmt.Sprintf("create comparison of games %d and %d", a, b)
	canon, err := canonicalJSON(limits)
	if err != nil {
		return nil, false, fmt.Errorf("%s: limits: %w", op, err)
	}
	key := idemKey(a, b, canon)
	var old comparisonRow
	err = db.conn(ctx).Where("idem_key = ?", key).Take(&old).Error
	switch {
	case err == nil && old.Status != StatusCancelled:
		return db.withNames(ctx, op, old.comparison(), false)
	case err == nil:
		// A cancelled comparison is not an answer: it gives up its key
		// (kept, with its id appended, so it stays unique) and a new job
		// is queued. Of two concurrent resubmissions only one retires it.
		err = db.conn(ctx).Model(&comparisonRow{}).Where("id = ? AND idem_key = ?", old.ID, key).
			Update("idem_key", fmt.Sprintf("%s:cancelled:%d", key, old.ID)).Error
		if err != nil {
			return nil, false, translate(ctx, op, err)
		}
	case !errors.Is(err, gorm.ErrRecordNotFound):
		return nil, false, translate(ctx, op, err)
	}
	row := comparisonRow{
		GameA:     a,
		GameB:     b,
		Limits:    jsonText(canon),
		IdemKey:   key,
		Status:    StatusQueued,
		Owner:     ownerOf(ctx),
		CreatedAt: db.now(),
	}
	// A concurrent submission of the same comparison may insert first; then
	// nothing is inserted here and the other row is returned.
	res := db.conn(ctx).
		Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "idem_key"}}, DoNothing: true}).
		Create(&row)
	if res.Error != nil {
		return nil, false, translate(ctx, op, res.Error)
	}
	if res.RowsAffected == 1 {
		return db.withNames(ctx, op, row.comparison(), true)
	}
	if err := db.conn(ctx).Where("idem_key = ?", key).Take(&old).Error; err != nil {
		return nil, false, translate(ctx, op, err)
	}
	return db.withNames(ctx, op, old.comparison(), false)
}

// withNames fills in the game names of one comparison.
func (db *DB) withNames(ctx context.Context, op string, c Comparison, created bool) (*Comparison, bool, error) {
	cs := []Comparison{c}
	if err := db.loadNames(ctx, cs); err != nil {
		return nil, false, translate(ctx, op, err)
	}
	return &cs[0], created, nil
}

// loadNames fills in NameA and NameB of comparisons with one query.
func (db *DB) loadNames(ctx context.Context, cs []Comparison) error {
	if len(cs) == 0 {
		return nil
	}
	ids := make([]int64, 0, 2*len(cs))
	for _, c := range cs {
		ids = append(ids, c.GameA, c.GameB)
	}
	var rows []gameRow
	if err := db.read(ctx).Select("id", "name").Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return err
	}
	names := make(map[int64]string, len(rows))
	for _, r := range rows {
		names[r.ID] = r.Name
	}
	for i := range cs {
		cs[i].NameA, cs[i].NameB = names[cs[i].GameA], names[cs[i].GameB]
	}
	return nil
}

// GetComparison returns the comparison with its result, or ErrNotFound.
// It is the clients' poll, so it is one query: the games' names come by
// a join, not a second round trip.
func (db *DB) GetComparison(ctx context.Context, id int64) (*Comparison, error) {
	op := fmt.Sprintf("get comparison %d", id)
	var row struct {
		Row   comparisonRow `gorm:"embedded"`
		NameA string        `gorm:"column:name_a"`
		NameB string        `gorm:"column:name_b"`
	}
	err := db.read(ctx).Table("comparisons").
		Select("comparisons.*, COALESCE(ga.name, '') AS name_a, COALESCE(gb.name, '') AS name_b").
		Joins("LEFT JOIN games ga ON ga.id = comparisons.game_a").
		Joins("LEFT JOIN games gb ON gb.id = comparisons.game_b").
		Where("comparisons.id = ?", id).Take(&row).Error
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	c := row.Row.comparison()
	c.NameA, c.NameB = row.NameA, row.NameB
	return &c, nil
}

// ListComparisons returns one page of the comparisons that f selects,
// newest (highest id) first, without their Result; next is the cursor of
// the following page, 0 after the last.
func (db *DB) ListComparisons(ctx context.Context, f ComparisonFilter) ([]Comparison, int64, error) {
	const op = "list comparisons"
	limit, err := pageLimit(f.Page)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", op, err)
	}
	q := db.read(ctx).Select(comparisonListColumns)
	if f.Status != "" {
		if !f.Status.Valid() {
			return nil, 0, fmt.Errorf("%s: unknown status %q: %w", op, f.Status, ErrInvalid)
		}
		q = q.Where("status = ?", f.Status)
	}
	if f.GameID != 0 {
		q = q.Where("game_a = ? OR game_b = ?", f.GameID, f.GameID)
	}
	if f.Cursor != 0 {
		q = q.Where("id < ?", f.Cursor)
	}
	var rows []comparisonRow
	if err := q.Order("id DESC").Limit(limit + 1).Find(&rows).Error; err != nil {
		return nil, 0, translate(ctx, op, err)
	}
	rows, next := pageOf(rows, limit, func(r comparisonRow) int64 { return r.ID })
	cs := make([]Comparison, len(rows))
	for i := range rows {
		cs[i] = rows[i].comparison()
	}
	if err := db.loadNames(ctx, cs); err != nil {
		return nil, 0, translate(ctx, op, err)
	}
	return cs, next, nil
}

// Claim gives the oldest claimable comparison to owner: a queued one, or a
// running one whose lease has ended (its worker died). The job becomes
// running, owned by owner until now+lease, and its Attempts grows by one.
// It returns ErrNotFound when there is nothing to claim.
//
// A job whose lease ended is not run again if a cancel was requested (it
// becomes cancelled) or if it has been claimed MaxAttempts times (it
// fails); Claim then looks further.
//
// On PostgreSQL the candidate row is locked FOR UPDATE SKIP LOCKED, so
// concurrent claimers take different jobs; on SQLite the transaction holds
// the write lock from its start.
func (db *DB) Claim(ctx context.Context, owner string, lease time.Duration) (*Comparison, error) {
	const op = "claim comparison"
	if owner == "" || !validText(owner) || lease <= 0 {
		return nil, fmt.Errorf("%s: need an owner and a positive lease: %w", op, ErrInvalid)
	}
	var out *Comparison
	err := db.tx(ctx, func(tx *gorm.DB) error {
		now := db.now()
		for {
			var row comparisonRow
			err := tx.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).
				Where("status = ? OR (status = ? AND lease_until < ?)", StatusQueued, StatusRunning, now).
				Order("id").Take(&row).Error
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return nil // commit the jobs closed so far
			}
			if err != nil {
				return err
			}
			if row.Status == StatusRunning {
				closed, err := db.closeAbandoned(tx, &row, now)
				if err != nil {
					return err
				}
				if closed {
					continue
				}
			}
			until := now.Add(lease)
			err = tx.Model(&comparisonRow{}).Where("id = ?", row.ID).Updates(map[string]any{
				"status":      StatusRunning,
				"lease_owner": owner,
				"lease_until": until,
				"attempts":    gorm.Expr("attempts + 1"),
				"started_at":  now,
			}).Error
			if err != nil {
				return err
			}
			row.Status, row.LeaseOwner, row.LeaseUntil, row.StartedAt = StatusRunning, &owner, &until, &now
			row.Attempts++
			c := row.comparison()
			out = &c
			return nil
		}
	})
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	if out == nil {
		return nil, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	out, _, err = db.withNames(ctx, op, *out, false)
	return out, err
}

// closeAbandoned finishes a running job whose lease has ended if it must
// not run again: as cancelled if a cancel was requested, as failed if it
// used up its attempts. It reports whether it closed the job.
func (db *DB) closeAbandoned(tx *gorm.DB, row *comparisonRow, now time.Time) (bool, error) {
	updates := map[string]any{"lease_until": nil, "finished_at": now}
	switch {
	case row.CancelRequested:
		updates["status"] = StatusCancelled
	case row.Attempts >= int64(db.maxAttempts):
		updates["status"] = StatusFailed
		updates["error"] = "worker lost " + strconv.FormatInt(row.Attempts, 10) + " times (lease expired)"
	default:
		return false, nil
	}
	err := tx.Model(&comparisonRow{}).Where("id = ?", row.ID).Updates(updates).Error
	return err == nil, err
}

// Heartbeat extends the lease of owner's running comparison to now+lease
// and records p (a zero Progress records nothing). It reports whether a
// cancel was requested, in which case the worker should stop and Finish
// with StatusCancelled. It returns ErrLeaseLost if owner no longer runs
// the job. Workers call it at a bounded rate (for example every lease/3),
// which bounds the rate of progress writes too.
func (db *DB) Heartbeat(ctx context.Context, id int64, owner string, lease time.Duration, p Progress) (bool, error) {
	op := fmt.Sprintf("heartbeat comparison %d", id)
	if lease <= 0 || !validText(p.Phase) {
		return false, fmt.Errorf("%s: need a positive lease and a UTF-8 phase: %w", op, ErrInvalid)
	}
	updates := map[string]any{"lease_until": db.now().Add(lease)}
	if p.Phase != "" || p.Candidates != 0 || p.JSON != nil {
		updates["phase"] = p.Phase
		updates["candidates"] = p.Candidates
	}
	if p.JSON != nil {
		j, err := jsonArg(p.JSON, "")
		if err != nil {
			return false, fmt.Errorf("%s: progress: %w", op, err)
		}
		updates["progress"] = j
	}
	var cancel bool
	err := db.tx(ctx, func(tx *gorm.DB) error {
		res := tx.Model(&comparisonRow{}).
			Where("id = ? AND lease_owner = ? AND status = ?", id, owner, StatusRunning).
			Updates(updates)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrLeaseLost
		}
		var row comparisonRow
		if err := tx.Select("id", "cancel_requested").Where("id = ?", id).Take(&row).Error; err != nil {
			return err
		}
		cancel = row.CancelRequested
		return nil
	})
	if err != nil {
		return false, translate(ctx, op, err)
	}
	return cancel, nil
}

// Finish writes the outcome of owner's running comparison: its status
// becomes o.Status (done, failed or cancelled) and the verdict, result
// (and its "reason" member, which lists carry) and error are stored. The result is written exactly once: Finish returns
// ErrLeaseLost, and changes nothing, if the job is not running or is owned
// by another worker (it finished already, or its lease ended and another
// worker claimed it). A worker whose lease ended may still finish while no
// other worker has claimed the job.
func (db *DB) Finish(ctx context.Context, id int64, owner string, o Outcome) error {
	op := fmt.Sprintf("finish comparison %d", id)
	if !o.Status.Final() {
		return fmt.Errorf("%s: status %q is not final: %w", op, o.Status, ErrInvalid)
	}
	if !validText(o.Verdict) || !validText(o.Error) {
		return fmt.Errorf("%s: verdict and error must be UTF-8: %w", op, ErrInvalid)
	}
	result, err := jsonArg(o.Result, "")
	if err != nil {
		return fmt.Errorf("%s: result: %w", op, err)
	}
	res := db.conn(ctx).Model(&comparisonRow{}).
		Where("id = ? AND lease_owner = ? AND status = ?", id, owner, StatusRunning).
		Updates(map[string]any{
			"status":      o.Status,
			"verdict":     ptr(o.Verdict),
			"result":      result,
			"error":       ptr(o.Error),
			"reason":      ptr(reasonOf(o.Result)),
			"lease_until": nil,
			"finished_at": db.now(),
		})
	if res.Error != nil {
		return translate(ctx, op, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("%s: %w", op, ErrLeaseLost)
	}
	return nil
}

// reasonOf returns the "reason" member of a comparison report, or "" if
// it has none.
func reasonOf(result json.RawMessage) string {
	var rep struct {
		Reason string `json:"reason"`
	}
	if len(result) == 0 || json.Unmarshal(result, &rep) != nil || !validText(rep.Reason) {
		return ""
	}
	return rep.Reason
}

// Release gives owner's running comparison back to the queue, for a worker
// that stops before the job is done (a shutdown); the claim does not count
// as an attempt. A job whose cancel was requested becomes cancelled
// instead. It returns ErrLeaseLost if owner does not run the job.
func (db *DB) Release(ctx context.Context, id int64, owner string) error {
	op := fmt.Sprintf("release comparison %d", id)
	err := db.tx(ctx, func(tx *gorm.DB) error {
		res := tx.Model(&comparisonRow{}).
			Where("id = ? AND lease_owner = ? AND status = ? AND cancel_requested", id, owner, StatusRunning).
			Updates(map[string]any{
				"status":      StatusCancelled,
				"lease_until": nil,
				"finished_at": db.now(),
			})
		if res.Error != nil || res.RowsAffected == 1 {
			return res.Error
		}
		res = tx.Model(&comparisonRow{}).Where("id = ? AND lease_owner = ? AND status = ?", id, owner, StatusRunning).
			Updates(map[string]any{
				"status":      StatusQueued,
				"lease_owner": nil,
				"lease_until": nil,
				"attempts":    gorm.Expr("attempts - 1"),
			})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrLeaseLost
		}
		return nil
	})
	return translate(ctx, op, err)
}

// Cancel cancels a comparison: a queued one becomes cancelled at once; a
// running one gets CancelRequested, and its worker finishes it as
// cancelled (or, if the worker died, the next Claim does). Cancelling a
// running job twice is a no-op. It returns the comparison after the change,
// ErrNotFound if it does not exist, ErrForbidden if the user of ctx
// (NewContextWithUser) is neither its owner nor an admin, and ErrConflict
// if it is done, failed or cancelled already.
func (db *DB) Cancel(ctx context.Context, id int64) (*Comparison, error) {
	op := fmt.Sprintf("cancel comparison %d", id)
	var out *Comparison
	err := db.tx(ctx, func(tx *gorm.DB) error {
		var owner comparisonRow
		if err := tx.Clauses(lockUpdate).Select("id", "owner").Where("id = ?", id).Take(&owner).Error; err != nil {
			return err
		}
		if err := authorize(ctx, owner.Owner); err != nil {
			return err
		}
		// Each statement re-checks the status, so a concurrent Claim or
		// Finish cannot slip between the check and the change.
		res := tx.Model(&comparisonRow{}).Where("id = ? AND status = ?", id, StatusQueued).
			Updates(map[string]any{"status": StatusCancelled, "finished_at": db.now()})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			res = tx.Model(&comparisonRow{}).Where("id = ? AND status = ?", id, StatusRunning).
				Update("cancel_requested", true)
			if res.Error != nil {
				return res.Error
			}
		}
		var row comparisonRow
		if err := tx.Where("id = ?", id).Take(&row).Error; err != nil {
			return err
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("comparison is %s: %w", row.Status, ErrConflict)
		}
		c := row.comparison()
		out = &c
		return nil
	})
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	out, _, err = db.withNames(ctx, op, *out, false)
	return out, err
}

// QueueDepth counts the queued comparisons.
func (db *DB) QueueDepth(ctx context.Context) (int64, error) {
	var n int64
	err := db.read(ctx).Model(&comparisonRow{}).Where("status = ?", StatusQueued).Count(&n).Error
	return n, translate(ctx, "queue depth", err)
}

// CountByStatus counts the comparisons of each status; statuses without
// comparisons are absent.
func (db *DB) CountByStatus(ctx context.Context) (map[Status]int64, error) {
	var rows []struct {
		Status Status
		N      int64
	}
	err := db.read(ctx).Model(&comparisonRow{}).Select("status, COUNT(*) AS n").Group("status").Scan(&rows).Error
	if err != nil {
		return nil, translate(ctx, "count comparisons", err)
	}
	out := make(map[Status]int64, len(rows))
	for _, r := range rows {
		out[r.Status] = r.N
	}
	return out, nil
}

// canonicalJSON returns raw with object keys sorted and no insignificant
// space; empty or null input gives {}. Numbers keep their text.
func canonicalJSON(raw json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte("{}"), nil
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("not valid JSON: %w", ErrInvalid)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", ErrInvalid)
	}
	if v == nil {
		return []byte("{}"), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", ErrInvalid)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// idemKey is the hex SHA-256 of a comparison's games and canonical limits.
func idemKey(a, b int64, canonLimits []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "gamequiv comparison v1\x00%d\x00%d\x00", a, b)
	h.Write(canonLimits)
	return hex.EncodeToString(h.Sum(nil))
}
