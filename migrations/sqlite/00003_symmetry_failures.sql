-- Symmetry computations that failed on a limit or on the time limit
-- (SQLite), stored so that GET /games/{id}/symmetries serves the failure
-- instead of computing it again. Keep it in step with
-- postgres/00003_symmetry_failures.sql and with store's row models.

-- +goose Up
-- problem: the problem+json document served in place of the result.
CREATE TABLE symmetry_failures (
    game_id    INTEGER  PRIMARY KEY REFERENCES games (id),
    problem    TEXT     NOT NULL CHECK (json_valid(problem)),
    created_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE symmetry_failures;
