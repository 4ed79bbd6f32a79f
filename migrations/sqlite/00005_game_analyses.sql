-- The classifier's analysis of each game (SQLite), computed once and kept:
-- ground sizes, graph invariants and the canonical certificate, as the JSON
-- document of equiv.Analysis. games.certificate and games.invariants stay
-- the indexed keys of the class search. Keep it in step with
-- postgres/00005_game_analyses.sql and with store's row models.

-- +goose Up
-- has_graph: the graph part (graph invariants, certificate) is computed;
-- the classifier computes it only when another game shares the ground keys.
CREATE TABLE game_analyses (
    game_id    INTEGER  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    analysis   TEXT     NOT NULL CHECK (json_valid(analysis)),
    has_graph  BOOLEAN  NOT NULL,
    updated_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE game_analyses;
