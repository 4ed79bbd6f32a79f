// Package store keeps gamequiv's data in SQLite (the default, one file in the
// data directory) or PostgreSQL (for several server replicas sharing one
// queue): games, equivalence classes, comparisons and symmetry results.
//
// The SQL migrations of package migrations own the schema; Open runs them
// with goose, and gorm is used only as a query builder over row models that
// a test checks against the migrated schema. No gorm type appears in this
// package's API, and gorm's errors never leave it: they become ErrNotFound,
// ErrConflict or ErrInvalid, or an opaque error. Results produced by the
// comparison pipeline are stored as plain columns plus JSON documents
// (json.RawMessage) whose shape belongs to the caller.
//
// # Games and classes
//
// A game is stored once per GDL text (CreateGame deduplicates by SHA-256).
// In the background every game is analysed (SetGameAnalysis records a digest
// of its canonical certificate and a key of cheap invariants) and placed in
// an equivalence class: CandidateClasses lists the classes that could hold
// it, the caller compares the game with their representatives, then calls
// AssignClass or NewClass; MergeClasses joins two classes that a comparison
// proved equal.
//
// # The comparison queue
//
// The comparisons table is the job queue, so jobs survive restarts and are
// shared by every process using the database:
//
//	queued --Claim--> running --Finish--> done | failed | cancelled
//	   |                 |  ^
//	   |                 |  +-- Claim again once the lease has ended (dead worker)
//	   |                 +-- Release --> queued
//	   +-- Cancel --> cancelled        Cancel on running sets CancelRequested
//
// A worker calls Claim with its owner name and a lease, calls Heartbeat
// well within the lease (for instance every lease/3, which also bounds the
// rate of progress writes) and stops when Heartbeat reports a cancel request
// or ErrLeaseLost, and finally calls Finish, which writes the result exactly
// once: only the current owner of a running job can finish it. A job whose
// lease ends is claimed again, at most MaxAttempts times in all; after that,
// or if a cancel was requested, Claim closes it instead.
//
// CreateComparison is idempotent: the same games and the same limits (as
// canonical JSON) give the same comparison, also under concurrent
// submissions; only a cancelled comparison is replaced by a new one.
//
// # Access control
//
// Tokens stores API tokens by the SHA-256 of their secret. A caller that
// authenticated a request puts its User in the context
// (NewContextWithUser): games and comparisons created under it record the
// user as their owner, and RenameGame, DeleteGame and Cancel return
// ErrForbidden unless the user owns the row or is an admin. A context
// without a user (access control off, or the server's own workers) may do
// everything. DeleteGame removes the game's comparisons, symmetries,
// aliases and stored analysis with it and keeps its class consistent.
//
// # Concurrency
//
// A DB is safe for concurrent use. SQLite runs with one connection (WAL,
// foreign keys on, busy timeout, BEGIN IMMEDIATE transactions), so its
// writes are serialized; a SQLite file must be used by one process at a
// time. On PostgreSQL, Claim locks the chosen row with FOR UPDATE SKIP
// LOCKED so that workers of several replicas never take the same job, and
// migrations run under goose's advisory lock.
//
// Times are UTC with microsecond precision, taken from DB.Now.
package store
