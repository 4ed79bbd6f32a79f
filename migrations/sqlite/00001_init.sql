-- The initial schema of the gamequiv store (SQLite). Keep it in step with
-- postgres/00001_init.sql and with store's row models.
--
-- Conventions: ids are 64-bit integers (AUTOINCREMENT, so an id is never
-- reused after a delete); times are DATETIME text written by the store in
-- UTC as "2006-01-02 15:04:05.999999-07:00", which sorts in time order; JSON
-- documents are TEXT checked by json_valid.

-- +goose Up
CREATE TABLE games (
    id          INTEGER  PRIMARY KEY AUTOINCREMENT,
    name        TEXT     NOT NULL,
    -- sha256 is the lower-case hex SHA-256 of gdl: games are deduplicated by it.
    sha256      TEXT     NOT NULL,
    gdl         TEXT     NOT NULL,
    -- stats: roles, propositions, actions, functions, circuit nodes.
    stats       TEXT     NOT NULL DEFAULT '{}' CHECK (json_valid(stats)),
    -- certificate: a digest of the canonical certificate of the game's ground
    -- graph; invariants: a key of cheap invariants. Both index the class search.
    certificate TEXT,
    invariants  TEXT,
    analyzed_at DATETIME,
    class_id    INTEGER  REFERENCES classes (id),
    -- error: why the game could not be analysed.
    error       TEXT,
    created_at  DATETIME NOT NULL,
    CONSTRAINT games_sha256_key UNIQUE (sha256)
);

CREATE TABLE classes (
    id                INTEGER  PRIMARY KEY AUTOINCREMENT,
    representative_id INTEGER  NOT NULL REFERENCES games (id),
    created_at        DATETIME NOT NULL
);

CREATE INDEX games_class_id_idx ON games (class_id);
-- Candidate classes of a new game: members with the same invariants and the
-- same (or an unknown) certificate.
CREATE INDEX games_class_key_idx ON games (invariants, certificate);
-- The classifier's backlog.
CREATE INDEX games_awaiting_class_idx ON games (id) WHERE class_id IS NULL AND error IS NULL;

-- comparisons is also the job queue: queued -> running -> done | failed |
-- cancelled. A running job carries its worker (lease_owner) and the time its
-- lease ends; a running job whose lease has ended belongs to a dead worker
-- and is claimed again.
CREATE TABLE comparisons (
    id               INTEGER  PRIMARY KEY AUTOINCREMENT,
    game_a           INTEGER  NOT NULL REFERENCES games (id),
    game_b           INTEGER  NOT NULL REFERENCES games (id),
    limits           TEXT     NOT NULL DEFAULT '{}' CHECK (json_valid(limits)),
    -- idem_key: hex SHA-256 of (game_a, game_b, canonical limits).
    idem_key         TEXT     NOT NULL,
    status           TEXT     NOT NULL DEFAULT 'queued'
                     CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
    progress         TEXT     CHECK (progress IS NULL OR json_valid(progress)),
    phase            TEXT     NOT NULL DEFAULT '',
    candidates       INTEGER  NOT NULL DEFAULT 0,
    lease_owner      TEXT,
    lease_until      DATETIME,
    attempts         INTEGER  NOT NULL DEFAULT 0,
    cancel_requested BOOLEAN  NOT NULL DEFAULT FALSE,
    verdict          TEXT,
    result           TEXT     CHECK (result IS NULL OR json_valid(result)),
    error            TEXT,
    created_at       DATETIME NOT NULL,
    started_at       DATETIME,
    finished_at      DATETIME,
    CONSTRAINT comparisons_idem_key_key UNIQUE (idem_key),
    CONSTRAINT comparisons_lease_check
        CHECK (status <> 'running' OR (lease_owner IS NOT NULL AND lease_until IS NOT NULL))
);

-- Claim: queued jobs, and running jobs whose lease has ended.
CREATE INDEX comparisons_claim_idx ON comparisons (status, lease_until);
-- Lists filtered by status, newest first.
CREATE INDEX comparisons_status_id_idx ON comparisons (status, id);

CREATE TABLE symmetries (
    game_id    INTEGER  PRIMARY KEY REFERENCES games (id),
    result     TEXT     NOT NULL CHECK (json_valid(result)),
    created_at DATETIME NOT NULL
);

-- +goose Down
UPDATE games SET class_id = NULL;
DROP TABLE symmetries;
DROP TABLE comparisons;
DROP TABLE classes;
DROP TABLE games;
