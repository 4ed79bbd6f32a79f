package store

import (
	"github.com/pressly/goose/v3"
	"gorm.io/gorm"
)

// Internals for the external tests of this package.

// RowModels lists one value of every row model.
var RowModels = rowModels

// Gorm returns the gorm handle of db.
func Gorm(db *DB) *gorm.DB { return db.gdb }

// Migrator returns the goose provider of db.
func Migrator(db *DB) *goose.Provider { return db.migrator }

// Reader returns the gorm handle of db's reads (SQLite's read pool).
func Reader(db *DB) *gorm.DB { return db.reader }
