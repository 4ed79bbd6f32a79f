-- Symmetry computations that failed on a limit or on the time limit
-- (PostgreSQL), stored so that GET /games/{id}/symmetries serves the
-- failure instead of computing it again. Keep it in step with
-- sqlite/00003_symmetry_failures.sql and with store's row models.

-- +goose Up
-- problem: the problem+json document served in place of the result.
CREATE TABLE symmetry_failures (
    game_id    BIGINT      PRIMARY KEY REFERENCES games (id),
    problem    JSON        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE symmetry_failures;
