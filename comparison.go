package gamequiv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Status is the state of a comparison.
type Status string

// Statuses of a comparison. Done, Failed and Cancelled are final.
const (
	StatusQueued    Status = "queued"
	StatusRunning   Status = "running"
	StatusDone      Status = "done"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
)

// Statuses lists every status, in the order a comparison goes through
// them.
var Statuses = []Status{StatusQueued, StatusRunning, StatusDone, StatusFailed, StatusCancelled}

// Final reports whether s is a final status.
func (s Status) Final() bool {
	return s == StatusDone || s == StatusFailed || s == StatusCancelled
}

// Valid reports whether s is one of the statuses.
func (s Status) Valid() bool {
	return s == StatusQueued || s == StatusRunning || s.Final()
}

// Comparison is a comparison of two games: a job of the queue and, once
// done, its result.
type Comparison struct {
	ID int64
	// GameA and GameB are the games compared; the result maps A to B.
	GameA, GameB int64
	// Limits is the canonical JSON of the limits (keys sorted, no spaces).
	Limits json.RawMessage
	// IdemKey is the hex SHA-256 of (GameA, GameB, Limits) that makes
	// submissions idempotent.
	IdemKey string
	Status  Status
	// Progress is the last progress document a Heartbeat wrote, or nil;
	// Phase and Candidates are copies of its main figures.
	Progress   json.RawMessage
	Phase      string
	Candidates int64
	// LeaseOwner and LeaseUntil name the worker of a running job and the
	// end of its lease; LeaseOwner stays set once the job has finished.
	LeaseOwner string
	LeaseUntil time.Time
	// Attempts counts the claims (a released job gives its claim back).
	Attempts int
	// CancelRequested is set when Cancel hit the running job.
	CancelRequested bool
	// Verdict, Result and Error are the outcome given to Finish. Lists leave
	// Result nil.
	Verdict string
	Result  json.RawMessage
	Error   string
	// Reason is the result's "reason" member (why the verdict), kept
	// beside it so that lists carry it; empty without a result.
	Reason string
	// NameA and NameB are the names of GameA and GameB.
	NameA, NameB string
	// Owner is the name of the user who submitted the comparison (see
	// NewContextWithUser); empty if it was submitted without one.
	Owner string
	// CreatedAt is the submission time, StartedAt the start of the last
	// claim, FinishedAt the time the job reached a final status; zero if
	// not yet.
	CreatedAt  time.Time
	StartedAt  time.Time
	FinishedAt time.Time
}

// ComparisonFilter selects comparisons for ListComparisons.
type ComparisonFilter struct {
	// Status, if not empty, keeps only comparisons in that status.
	Status Status
	// GameID, if not 0, keeps only comparisons with that game on either
	// side.
	GameID int64
	Page
}

// Progress is what a worker reports while it runs a job.
type Progress struct {
	// Phase names the pipeline step (ground, graph, search, verify).
	Phase string
	// Candidates counts the candidate mappings examined so far.
	Candidates int64
	// JSON is the full progress document, stored as is; nil keeps the last
	// one.
	JSON json.RawMessage
}

// Outcome is the end of a job, given to Finish.
type Outcome struct {
	// Status is StatusDone, StatusFailed or StatusCancelled.
	Status Status
	// Verdict is the comparison's verdict (equivalent, not_equivalent,
	// unknown), empty if there is none.
	Verdict string
	// Result is the report as JSON, or nil.
	Result json.RawMessage
	// Error says why the job failed, empty if it did not.
	Error string
}

// SymmetryResult is the stored symmetry result of a game: its Result, or,
// when the computation failed on a limit, the Problem (a problem+json
// document) to serve in its place. Exactly one of the two is set.
type SymmetryResult struct {
	GameID    int64
	Result    json.RawMessage
	Problem   json.RawMessage
	CreatedAt time.Time
}

// JobLimits are the limits a client may set on one comparison; the worker
// applies the smaller of each and its own. They are part of the
// comparison's identity: the same games with other limits make another
// comparison.
type JobLimits struct {
	// TimeoutMs bounds the comparison's wall time in milliseconds.
	TimeoutMs int64 `json:"timeout_ms,omitempty"`
	// MaxCandidates bounds the candidate mappings verified.
	MaxCandidates int64 `json:"max_candidates,omitempty"`
}

// ParseJobLimits reads the limits stored with a comparison; empty or null
// input gives the zero JobLimits.
func ParseJobLimits(raw json.RawMessage) (JobLimits, error) {
	var l JobLimits
	if len(bytes.TrimSpace(raw)) == 0 {
		return l, nil
	}
	if err := json.Unmarshal(raw, &l); err != nil {
		return l, fmt.Errorf("comparison limits: %w", err)
	}
	return l, nil
}
