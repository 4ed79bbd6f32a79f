// Package migrations holds the versioned SQL schema of the gamequiv store,
// one directory per database dialect, embedded into the binary.
//
// The migrations own the schema: package store opens the database, runs them
// with goose (github.com/pressly/goose/v3) and uses gorm only as a query
// builder; gorm's AutoMigrate never runs. Every file is named
// NNNNN_what.sql and carries the goose annotations
//
//	-- +goose Up
//	...
//	-- +goose Down
//	...
//
// Both dialect directories hold the same versions with the same meaning, so
// a database of either kind at version N has the same tables and columns.
// A change to the schema is a new file in each directory (never an edit of an
// applied one), together with the matching change of store's row models; the
// store tests fail when the two drift apart.
package migrations

import "embed"

// Directories of FS, one per dialect.
const (
	// SQLite is the directory of the SQLite migrations.
	SQLite = "sqlite"
	// Postgres is the directory of the PostgreSQL migrations.
	Postgres = "postgres"
)

// FS holds the migrations: sqlite/NNNNN_*.sql and postgres/NNNNN_*.sql.
// Pass fs.Sub(FS, SQLite) or fs.Sub(FS, Postgres) to goose.NewProvider.
//
//go:embed sqlite/*.sql postgres/*.sql
var FS embed.FS
