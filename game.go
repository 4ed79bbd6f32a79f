package gamequiv

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Game is a stored game description.
type Game struct {
	ID   int64
	Name string
	// SHA256 is the lower-case hex SHA-256 of GDL (ContentSHA256).
	SHA256 string
	// GDL is the text as submitted with its line endings made LF
	// (NormalizeLineEndings). Lists leave it nil.
	GDL []byte
	// Aliases are the other names the text was uploaded under, in the
	// order they were added; Name is the first.
	Aliases []string
	// Stats is the JSON document given to CreateGame (roles, propositions,
	// actions, functions, circuit nodes).
	Stats json.RawMessage
	// Analysis holds the class keys; nil until SetGameAnalysis.
	Analysis *Analysis
	// AnalyzedAt is when SetGameAnalysis ran; zero before.
	AnalyzedAt time.Time
	// ClassID is the game's equivalence class; 0 while it has none.
	ClassID int64
	// Error says why the game could not be analysed; empty if it could.
	Error string
	// Owner is the name of the user who stored the game (see
	// NewContextWithUser); empty if it was stored without one.
	Owner     string
	CreatedAt time.Time
}

// Analysis holds the keys that index a game in the class search.
type Analysis struct {
	// Certificate is a digest of the canonical certificate of the game's
	// ground graph, for example the hex of isomorph.Certificate.Sum(); empty
	// if it could not be computed. At most MaxKeyLen bytes. If it contains
	// a colon, the text up to the first colon is its scheme (such as the
	// version of the canonical form): certificates of another scheme, or of
	// none, count as unknown in CandidateClasses, so stored games keep their
	// classes when the canonical form changes.
	Certificate string
	// Invariants is a key of cheap invariants that equivalent games share
	// (for example counts of roles, propositions and actions); required. At
	// most MaxKeyLen bytes.
	Invariants string
}

// MaxKeyLen bounds Analysis.Certificate and Analysis.Invariants: both are
// indexed, and an index entry has a size limit (about 2.7 kB on PostgreSQL).
const MaxKeyLen = 512

// GameFilter selects games for FindGames; its zero value selects all.
type GameFilter struct {
	// Name, if set, selects the games with this name or alias (exactly).
	Name string
	// NameContains, if set, selects the games whose name or an alias
	// contains it, ignoring ASCII case.
	NameContains string
	// SHA256, if set, selects the game with this content hash (lower-case
	// hex, see ContentSHA256).
	SHA256 string
	Page
}

// NormalizeLineEndings returns gdl with every CRLF and every lone CR
// replaced by LF, so that one text saved on Windows, on Unix or read in
// Python's text mode is one game. It returns gdl itself when it has no CR.
func NormalizeLineEndings(gdl []byte) []byte {
	if bytes.IndexByte(gdl, '\r') < 0 {
		return gdl
	}
	out := bytes.ReplaceAll(gdl, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(out, []byte("\r"), []byte("\n"))
}

// ContentSHA256 is the content hash of a game description: the lower-case
// hex SHA-256 of the text after NormalizeLineEndings. Games are
// deduplicated by it, and a client can compute it to look a text up.
func ContentSHA256(gdl []byte) string {
	sum := sha256.Sum256(NormalizeLineEndings(gdl))
	return hex.EncodeToString(sum[:])
}

// IsContentSHA256 reports whether s has the form of a ContentSHA256: 64
// lower-case hex digits.
func IsContentSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// GameStats is the size of a grounded game: what the API stores and
// reports with each game, the pages show, and `gamequiv ground --json`
// prints (with its own extra members).
type GameStats struct {
	Roles        []string       `json:"roles"`
	Propositions int            `json:"propositions"`
	Actions      map[string]int `json:"actions"`
	Functions    int            `json:"functions"`
	CircuitNodes int            `json:"circuit_nodes"`
}

// RoleCount is the number of actions of one role.
type RoleCount struct {
	Role  string
	Count int
}

// ActionCounts returns the action count of each role in role order.
func (s GameStats) ActionCounts() []RoleCount {
	out := make([]RoleCount, 0, len(s.Roles))
	for _, r := range s.Roles {
		out = append(out, RoleCount{Role: r, Count: s.Actions[r]})
	}
	return out
}

// TotalActions returns the number of actions of all roles.
func (s GameStats) TotalActions() int {
	n := 0
	for _, c := range s.Actions {
		n += c
	}
	return n
}
