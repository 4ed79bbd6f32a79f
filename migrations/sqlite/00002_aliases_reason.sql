-- Game aliases, name lookups and the reason of a comparison in lists
-- (SQLite). Keep it in step with postgres/00002_aliases_reason.sql and with
-- store's row models.

-- +goose Up
-- game_aliases: the other names a game's text was uploaded under; games.name
-- stays the first one.
CREATE TABLE game_aliases (
    game_id    INTEGER  NOT NULL REFERENCES games (id),
    name       TEXT     NOT NULL,
    created_at DATETIME NOT NULL,
    PRIMARY KEY (game_id, name)
);
-- Lookups by name: a game's own name or one of its aliases.
CREATE INDEX game_aliases_name_idx ON game_aliases (name);
CREATE INDEX games_name_idx ON games (name);

-- reason: the result's reason, kept beside it so that lists (which leave the
-- result out) can show it.
ALTER TABLE comparisons ADD COLUMN reason TEXT;
UPDATE comparisons SET reason = json_extract(result, '$.reason') WHERE result IS NOT NULL;

-- +goose Down
ALTER TABLE comparisons DROP COLUMN reason;
DROP INDEX games_name_idx;
DROP INDEX game_aliases_name_idx;
DROP TABLE game_aliases;
