package store_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"github.com/gamequiv/gamequiv/store"
	"github.com/gamequiv/gamequiv/store/storetest"
)

// The schema tests migrate an empty database and check that the row models
// and the tables match column by column, in both directions, so that the
// models cannot drift from the SQL migrations (which alone create the
// schema: AutoMigrate never runs).

func TestSchemaSQLite(t *testing.T) {
	checkSchema(t, storetest.OpenSQLite(t))
}

func TestSchemaPostgres(t *testing.T) {
	checkSchema(t, storetest.OpenPostgres(t, postgresURL(t)))
}

func TestMigrateDownUpSQLite(t *testing.T) {
	checkDownUp(t, storetest.OpenSQLite(t))
}

func TestMigrateDownUpPostgres(t *testing.T) {
	checkDownUp(t, storetest.OpenPostgres(t, postgresURL(t)))
}

// columnKind is the kind of value a column holds, as both sides see it.
type columnKind string

const (
	kindInt  columnKind = "integer"
	kindText columnKind = "text"
	kindBool columnKind = "boolean"
	kindTime columnKind = "time"
	kindJSON columnKind = "json"
)

// databaseKinds maps the column types that the migrations use, as the
// catalog names them (upper case), to their kind.
var databaseKinds = map[string]map[string]columnKind{
	store.SQLite: {
		"INTEGER":  kindInt,
		"TEXT":     kindText,
		"BOOLEAN":  kindBool,
		"DATETIME": kindTime,
	},
	store.Postgres: {
		"BIGINT":                   kindInt,
		"TEXT":                     kindText,
		"BOOLEAN":                  kindBool,
		"TIMESTAMP WITH TIME ZONE": kindTime,
		"JSON":                     kindJSON,
	},
}

// compatible reports whether a field of kind f can live in a column of
// kind c. SQLite keeps JSON in TEXT columns (checked by json_valid).
func compatible(dialect string, f, c columnKind) bool {
	return f == c || (dialect == store.SQLite && f == kindJSON && c == kindText)
}

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

// fieldKind returns the kind of a model field, and whether it can hold
// NULL (a pointer, or a JSON type that maps nil to NULL).
func fieldKind(f *schema.Field) (columnKind, bool) {
	t := f.FieldType
	nullable := false
	if t.Kind() == reflect.Pointer {
		t, nullable = t.Elem(), true
	}
	switch {
	case t == timeType:
		return kindTime, nullable
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && t.ConvertibleTo(rawType):
		return kindJSON, true
	case t.Kind() == reflect.Int64, t.Kind() == reflect.Int:
		return kindInt, nullable
	case t.Kind() == reflect.String:
		return kindText, nullable
	case t.Kind() == reflect.Bool:
		return kindBool, nullable
	}
	return columnKind("unsupported Go type " + t.String()), nullable
}

func checkSchema(t *testing.T, db *store.DB) {
	g := store.Gorm(db)
	kinds := databaseKinds[db.Dialect()]
	tables := map[string]bool{}
	for _, model := range store.RowModels {
		stmt := &gorm.Statement{DB: g}
		if err := stmt.Parse(model); err != nil {
			t.Fatalf("parse model %T: %v", model, err)
		}
		s := stmt.Schema
		tables[s.Table] = true
		if !g.Migrator().HasTable(s.Table) {
			t.Errorf("model %s: table %s is missing", s.Name, s.Table)
			continue
		}
		cols := catalogColumns(t, db, s.Table)
		byName := map[string]catalogColumn{}
		for _, c := range cols {
			byName[c.Name] = c
		}
		for _, f := range s.Fields {
			if f.DBName == "" {
				continue
			}
			if !g.Migrator().HasColumn(model, f.DBName) {
				t.Errorf("%s.%s (field %s): gorm finds no column", s.Table, f.DBName, f.Name)
			}
			c, ok := byName[f.DBName]
			if !ok {
				t.Errorf("%s.%s (field %s) has no column", s.Table, f.DBName, f.Name)
				continue
			}
			fk, fieldNull := fieldKind(f)
			ck, known := kinds[c.Type]
			if !known {
				t.Errorf("%s.%s: column type %s is not one the models support", s.Table, f.DBName, c.Type)
			} else if !compatible(db.Dialect(), fk, ck) {
				t.Errorf("%s.%s: field %s (%s, %s) does not fit column type %s (%s)", s.Table, f.DBName, f.Name, f.FieldType, fk, c.Type, ck)
			}
			isPtr := f.FieldType.Kind() == reflect.Pointer
			switch {
			case c.Nullable && !fieldNull:
				t.Errorf("%s.%s is nullable, but field %s (%s) cannot hold NULL", s.Table, f.DBName, f.Name, f.FieldType)
			case !c.Nullable && isPtr:
				t.Errorf("%s.%s is NOT NULL, but field %s is a pointer", s.Table, f.DBName, f.Name)
			}
			if c.PrimaryKey != f.PrimaryKey {
				t.Errorf("%s.%s: primary key %v in the table, %v in the model", s.Table, f.DBName, c.PrimaryKey, f.PrimaryKey)
			}
		}
		for _, c := range cols {
			if s.LookUpField(c.Name) == nil {
				t.Errorf("%s.%s has no field in model %s", s.Table, c.Name, s.Name)
			}
		}
	}
	got, err := g.Migrator().GetTables()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range got {
		if !tables[name] && !slices.Contains(bookkeeping, name) {
			t.Errorf("table %s has no model", name)
		}
	}
}

// catalogColumn is a column as the database catalog describes it.
type catalogColumn struct {
	Name       string
	Type       string // upper case
	Nullable   bool
	PrimaryKey bool
}

// catalogColumns reads the columns of table from the database catalog:
// PRAGMA table_info on SQLite, pg_attribute on PostgreSQL (in the schema
// of the search path).
func catalogColumns(t *testing.T, db *store.DB, table string) []catalogColumn {
	t.Helper()
	g := store.Gorm(db)
	var cols []catalogColumn
	switch db.Dialect() {
	case store.SQLite:
		var rows []struct {
			Name    string
			Type    string
			NotNull bool
			PK      int
		}
		if err := g.Raw("SELECT name, type, \"notnull\" AS not_null, pk FROM pragma_table_info(?)", table).Scan(&rows).Error; err != nil {
			t.Fatalf("columns of %s: %v", table, err)
		}
		for _, r := range rows {
			// An INTEGER PRIMARY KEY is the rowid, never NULL, though
			// table_info does not say NOT NULL.
			pk := r.PK > 0
			cols = append(cols, catalogColumn{r.Name, strings.ToUpper(r.Type), !r.NotNull && !(pk && strings.EqualFold(r.Type, "INTEGER")), pk})
		}
	case store.Postgres:
		var rows []struct {
			Name    string
			Type    string
			NotNull bool
			PK      bool
		}
		err := g.Raw(`SELECT a.attname AS name, format_type(a.atttypid, NULL) AS type, a.attnotnull AS not_null,
				EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY (i.indkey)) AS pk
			FROM pg_attribute a
			WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped
			ORDER BY a.attnum`, table).Scan(&rows).Error
		if err != nil {
			t.Fatalf("columns of %s: %v", table, err)
		}
		for _, r := range rows {
			cols = append(cols, catalogColumn{r.Name, strings.ToUpper(r.Type), !r.NotNull, r.PK})
		}
	}
	if len(cols) == 0 {
		t.Fatalf("table %s has no columns in the catalog", table)
	}
	return cols
}

// bookkeeping lists tables that are not the store's: goose's version table
// and SQLite's AUTOINCREMENT counters.
var bookkeeping = []string{"goose_db_version", "sqlite_sequence"}

// checkDownUp migrates the database all the way down and up again.
func checkDownUp(t *testing.T, db *store.DB) {
	ctx := context.Background()
	p := store.Migrator(db)
	if _, _, err := db.CreateGame(ctx, "a", []byte("(role a)"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 0); err != nil {
		t.Fatalf("migrate down: %v", err)
	}
	if err := db.Ready(ctx); err == nil {
		t.Error("Ready after migrating down = nil, want an error")
	}
	for _, m := range store.RowModels {
		if store.Gorm(db).Migrator().HasTable(m) {
			t.Errorf("table of %T still exists after migrating down", m)
		}
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("migrate up again: %v", err)
	}
	if err := db.Ready(ctx); err != nil {
		t.Errorf("Ready after migrating up again = %v", err)
	}
	checkSchema(t, db)
}
