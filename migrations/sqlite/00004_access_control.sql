-- Access control (SQLite): API tokens, and the owner of each game and
-- comparison. Keep it in step with postgres/00004_access_control.sql and
-- with store's row models.

-- +goose Up
-- tokens: the API tokens a lab's members authenticate with. Only the
-- SHA-256 of a token is stored (hash, lower-case hex); the token itself is
-- shown once, when it is created. name is the member the token acts for (a
-- member may hold several tokens, to rotate them); a revoked token keeps its
-- row (revoked_at set), so that the owners it recorded keep their meaning.
CREATE TABLE tokens (
    id         INTEGER  PRIMARY KEY AUTOINCREMENT,
    name       TEXT     NOT NULL,
    hash       TEXT     NOT NULL,
    admin      BOOLEAN  NOT NULL DEFAULT FALSE,
    created_at DATETIME NOT NULL,
    revoked_at DATETIME,
    CONSTRAINT tokens_hash_key UNIQUE (hash)
);
CREATE INDEX tokens_name_idx ON tokens (name);

-- owner: the name of the token holder who stored the game or submitted the
-- comparison; NULL for rows stored while access control was off (only an
-- admin may delete those).
ALTER TABLE games ADD COLUMN owner TEXT;
ALTER TABLE comparisons ADD COLUMN owner TEXT;

-- +goose Down
ALTER TABLE comparisons DROP COLUMN owner;
ALTER TABLE games DROP COLUMN owner;
DROP INDEX tokens_name_idx;
DROP TABLE tokens;
