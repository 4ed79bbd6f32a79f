package gamequiv

// Page selects one page of a list in keyset order: pass the next cursor
// that a list call returned to get the following page.
type Page struct {
	// Limit is the page size: 0 means DefaultPageLimit, more than
	// MaxPageLimit means MaxPageLimit.
	Limit int
	// Cursor is 0 for the first page, or the next cursor of the previous
	// page.
	Cursor int64
}

// Page sizes.
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 500
)
