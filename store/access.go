package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// lockUpdate locks the rows a query reads until the transaction ends
// (FOR UPDATE on PostgreSQL; SQLite's transactions hold the write lock).
var lockUpdate = clause.Locking{Strength: "UPDATE"}

// ownerOf is the owner to record for rows created under ctx (nil: none).
func ownerOf(ctx context.Context) *string {
	if u := UserFromContext(ctx); u != nil {
		return ptr(u.Name)
	}
	return nil
}

// authorize returns ErrForbidden unless the user of ctx may change a row
// owned by owner (nil: no owner).
func authorize(ctx context.Context, owner *string) error {
	switch {
	case MayChange(UserFromContext(ctx), deref(owner)):
		return nil
	case owner == nil:
		return fmt.Errorf("only an admin may change what was stored without an owner: %w", ErrForbidden)
	}
	return fmt.Errorf("owned by %q: %w", *owner, ErrForbidden)
}

// Token secrets are TokenPrefix and the unpadded base64url of
// tokenSecretBytes random bytes (256 bits): with that much entropy an
// unsalted SHA-256 is a safe way to store them.
const (
	TokenPrefix      = "gq_"
	tokenSecretBytes = 32
	// MaxTokenNameLen bounds the name of a token (a user name).
	MaxTokenNameLen = 64
)

// maxSecretLen bounds what Authenticate hashes.
var maxSecretLen = len(TokenPrefix) + base64.RawURLEncoding.EncodedLen(tokenSecretBytes)

// HashToken returns the stored form of a token secret: the lower-case hex
// of its SHA-256.
func HashToken(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// checkTokenName validates a user name: 1 to MaxTokenNameLen printable
// characters without spaces, so that it reads well as an owner.
func checkTokenName(name string) error {
	if name == "" || utf8.RuneCountInString(name) > MaxTokenNameLen || !utf8.ValidString(name) {
		return fmt.Errorf("token name: want 1 to %d characters: %w", MaxTokenNameLen, ErrInvalid)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return fmt.Errorf("token name %q: want printable characters without spaces: %w", name, ErrInvalid)
		}
	}
	return nil
}

// CreateToken makes a token for the user name (admin: it may change what
// others own) and returns it with its secret. Only the SHA-256 of the
// secret is stored (HashToken).
func (db *DB) CreateToken(ctx context.Context, name string, admin bool) (*Token, string, error) {
	const op = "create token"
	if err := checkTokenName(name); err != nil {
		return nil, "", fmt.Errorf("%s: %w", op, err)
	}
	var b [tokenSecretBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, "", fmt.Errorf("%s: %w", op, err)
	}
	secret := TokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	row := tokenRow{Name: name, Hash: HashToken(secret), Admin: admin, CreatedAt: db.now()}
	if err := db.conn(ctx).Create(&row).Error; err != nil {
		return nil, "", translate(ctx, op, err)
	}
	t := row.token()
	return &t, secret, nil
}

// ListTokens returns every token, revoked ones too, in ascending id order.
func (db *DB) ListTokens(ctx context.Context) ([]Token, error) {
	var rows []tokenRow
	if err := db.read(ctx).Order("id").Find(&rows).Error; err != nil {
		return nil, translate(ctx, "list tokens", err)
	}
	out := make([]Token, len(rows))
	for i := range rows {
		out[i] = rows[i].token()
	}
	return out, nil
}

// RevokeToken revokes the token with this id and returns it. Revoking a
// revoked token changes nothing. It returns ErrNotFound if there is no
// such token.
func (db *DB) RevokeToken(ctx context.Context, id int64) (*Token, error) {
	op := fmt.Sprintf("revoke token %d", id)
	var row tokenRow
	err := db.tx(ctx, func(tx *gorm.DB) error {
		if err := tx.Model(&tokenRow{}).Where("id = ? AND revoked_at IS NULL", id).Update("revoked_at", db.now()).Error; err != nil {
			return err
		}
		return tx.Where("id = ?", id).Take(&row).Error
	})
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	t := row.token()
	return &t, nil
}

// RevokeUserTokens revokes every valid token of the user name and returns
// how many it revoked (0 if there were none).
func (db *DB) RevokeUserTokens(ctx context.Context, name string) (int64, error) {
	res := db.conn(ctx).Model(&tokenRow{}).Where("name = ? AND revoked_at IS NULL", name).Update("revoked_at", db.now())
	if res.Error != nil {
		return 0, translate(ctx, fmt.Sprintf("revoke tokens of %q", name), res.Error)
	}
	return res.RowsAffected, nil
}

// Authenticate returns the user of a token secret, or ErrNotFound if no
// valid token has it (unknown, malformed or revoked). The row is found by
// the secret's hash and the stored hash is compared in constant time: the
// lookup reveals nothing usable, as the hash of a 256-bit secret cannot be
// inverted.
func (db *DB) Authenticate(ctx context.Context, secret string) (*User, error) {
	const op = "authenticate"
	if len(secret) != maxSecretLen || !strings.HasPrefix(secret, TokenPrefix) {
		return nil, fmt.Errorf("%s: malformed token: %w", op, ErrNotFound)
	}
	h := HashToken(secret)
	var row tokenRow
	err := db.read(ctx).Where("hash = ? AND revoked_at IS NULL", h).Take(&row).Error
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	if subtle.ConstantTimeCompare([]byte(row.Hash), []byte(h)) != 1 {
		return nil, fmt.Errorf("%s: %w", op, ErrNotFound)
	}
	return &User{Name: row.Name, Admin: row.Admin}, nil
}

func (r *tokenRow) token() Token {
	return Token{ID: r.ID, Name: r.Name, Admin: r.Admin, CreatedAt: r.CreatedAt.UTC(), RevokedAt: utc(r.RevokedAt)}
}

// RenameGame gives the game a new name and returns it. The new name is no
// longer one of its aliases; the other aliases stay. Only the game's owner
// or an admin may rename it (ErrForbidden); it returns ErrNotFound if
// there is no such game.
func (db *DB) RenameGame(ctx context.Context, id int64, name string) (*Game, error) {
	op := fmt.Sprintf("rename game %d", id)
	if strings.TrimSpace(name) == "" || !validText(name) {
		return nil, fmt.Errorf("%s: name must be non-empty UTF-8 without NUL: %w", op, ErrInvalid)
	}
	err := db.tx(ctx, func(tx *gorm.DB) error {
		row, err := lockGame(tx, id)
		if err != nil {
			return err
		}
		if err := authorize(ctx, row.Owner); err != nil {
			return err
		}
		if err := tx.Model(&gameRow{}).Where("id = ?", id).Update("name", name).Error; err != nil {
			return err
		}
		return tx.Where("game_id = ? AND name = ?", id, name).Delete(&aliasRow{}).Error
	})
	if err != nil {
		return nil, translate(ctx, op, err)
	}
	return db.GetGame(ctx, id)
}

// DeleteGame deletes a game. Only its owner or an admin may
// (ErrForbidden); it returns ErrNotFound if there is no such game, and
// ErrConflict, rarely, if the classifier moved it to another class
// meanwhile (try again). In one transaction it also deletes:
//   - every comparison with the game on either side, whoever submitted it
//     and whatever its status (the worker of a running one loses its lease
//     and stops);
//   - the game's symmetry result or failure, and its aliases;
//   - its class membership: if it represents its class, the member with
//     the lowest id becomes the representative; if it is the only member,
//     the class is deleted. The other members stay equivalent to each
//     other, so the class stays valid.
func (db *DB) DeleteGame(ctx context.Context, id int64) error {
	op := fmt.Sprintf("delete game %d", id)
	err := db.tx(ctx, func(tx *gorm.DB) error {
		// Lock the class before the game, in the order MergeClasses
		// locks them, so that the two cannot deadlock on PostgreSQL.
		var before gameRow
		if err := tx.Select("id", "class_id").Where("id = ?", id).Take(&before).Error; err != nil {
			return err
		}
		if before.ClassID != nil {
			err := tx.Clauses(lockUpdate).Where("id = ?", *before.ClassID).Take(&classRow{}).Error
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return fmt.Errorf("class %d merged meanwhile, retry: %w", *before.ClassID, ErrConflict)
			}
			if err != nil {
				return err
			}
		}
		row, err := lockGame(tx, id)
		if err != nil {
			return err
		}
		if deref(row.ClassID) != deref(before.ClassID) {
			return fmt.Errorf("class of the game changed meanwhile, retry: %w", ErrConflict)
		}
		if err := authorize(ctx, row.Owner); err != nil {
			return err
		}
		if err := tx.Where("game_a = ? OR game_b = ?", id, id).Delete(&comparisonRow{}).Error; err != nil {
			return err
		}
		for _, m := range []any{&symmetryRow{}, &symmetryFailureRow{}, &aliasRow{}, &gameAnalysisRow{}} {
			if err := tx.Where("game_id = ?", id).Delete(m).Error; err != nil {
				return err
			}
		}
		if row.ClassID != nil {
			if err := db.leaveClass(tx, id, *row.ClassID); err != nil {
				return err
			}
		}
		res := tx.Where("id = ?", id).Delete(&gameRow{})
		if res.Error == nil && res.RowsAffected == 0 {
			return ErrNotFound
		}
		return res.Error
	})
	return translate(ctx, op, err)
}

// leaveClass takes game id out of class classID before the game is
// deleted: another member becomes the representative, or the class goes.
func (db *DB) leaveClass(tx *gorm.DB, id, classID int64) error {
	var c classRow
	if err := tx.Clauses(lockUpdate).Where("id = ?", classID).Take(&c).Error; err != nil {
		return err
	}
	if err := tx.Model(&gameRow{}).Where("id = ?", id).Update("class_id", nil).Error; err != nil {
		return err
	}
	if c.RepresentativeID != id {
		return nil
	}
	var next gameRow
	err := tx.Select("id").Where("class_id = ?", classID).Order("id").Take(&next).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return tx.Where("id = ?", classID).Delete(&classRow{}).Error
	case err != nil:
		return err
	}
	return tx.Model(&classRow{}).Where("id = ?", classID).Update("representative_id", next.ID).Error
}

// lockGame reads the game's owner and class, locking its row for the
// transaction on PostgreSQL.
func lockGame(tx *gorm.DB, id int64) (*gameRow, error) {
	var row gameRow
	err := tx.Clauses(lockUpdate).Select("id", "owner", "class_id").Where("id = ?", id).Take(&row).Error
	if err != nil {
		return nil, err
	}
	return &row, nil
}
