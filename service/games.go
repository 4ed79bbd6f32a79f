package service

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/grounding"
)

// CheckGameName checks the name of a game: at most
// gamequiv.MaxGameNameLen characters of UTF-8 without NUL. field prefixes
// the message ("a." gives "a.name: ...").
func CheckGameName(field, name string) error {
	switch {
	case utf8.RuneCountInString(name) > gamequiv.MaxGameNameLen:
		return gamequiv.Errorf(gamequiv.EINVALID, "%sname: at most %d characters", field, gamequiv.MaxGameNameLen)
	case !utf8.ValidString(name) || strings.ContainsRune(name, 0):
		return gamequiv.Errorf(gamequiv.EINVALID, "%sname: must be UTF-8 without NUL", field)
	}
	return nil
}

// checkRename checks the new name of a game: a game name, not blank.
func checkRename(name string) error {
	if strings.TrimSpace(name) == "" {
		return gamequiv.Errorf(gamequiv.EINVALID, "name: required, not blank")
	}
	return CheckGameName("", name)
}

// upload is a checked upload: its name is set, and unnamed says that it
// was blank (DefaultGameName stands in), so that the upload adds no alias.
type upload struct {
	gamequiv.GameUpload
	unnamed bool
}

// checkUpload checks an upload's name and text; field prefixes the
// messages about the name ("a.", "games[3].").
func checkUpload(field string, u gamequiv.GameUpload) (upload, error) {
	if err := CheckGameName(field, u.Name); err != nil {
		return upload{}, err
	}
	out := upload{GameUpload: u}
	if strings.TrimSpace(u.Name) == "" {
		out.Name, out.unnamed = gamequiv.DefaultGameName, true
	}
	return out, CheckGDLText(out.Name, u.GDL)
}

// CheckGDLText rejects game description text that a client can send but
// the storage and the parser cannot take as GDL: an empty text, a NUL, and
// U+FFFD, which is what a JSON decoder makes of bytes that are not UTF-8
// (and invalid UTF-8 itself). The error is a positioned *grounding.Error,
// so it reads (and is answered) like any other error in a description.
func CheckGDLText(name string, gdl []byte) error {
	text := string(gdl)
	if strings.TrimSpace(text) == "" {
		return &grounding.Error{File: name, Pos: grounding.Pos{Line: 1, Col: 1},
			Msg: "empty game description: no roles: the description has no (role ...) facts"}
	}
	at := func(i int, msg string) error {
		line := 1 + strings.Count(text[:i], "\n")
		col := i - strings.LastIndexByte(text[:i], '\n')
		return &grounding.Error{File: name, Pos: grounding.Pos{Line: line, Col: col}, Msg: msg}
	}
	if i := strings.IndexByte(text, 0); i >= 0 {
		return at(i, "invalid control character U+0000")
	}
	if i := strings.IndexRune(text, utf8.RuneError); i >= 0 {
		return at(i, "invalid UTF-8 byte sequence (read as U+FFFD): a description must be UTF-8")
	}
	return nil
}

// StatsOf is the size of a grounded game.
func StatsOf(p *grounding.Program) gamequiv.GameStats {
	st := gamequiv.GameStats{
		Roles:        p.Roles,
		Propositions: len(p.Props),
		Actions:      make(map[string]int, len(p.Roles)),
		Functions:    p.NumFunctions(),
		CircuitNodes: p.Circuit.NumNodes(),
	}
	for r, as := range p.Actions {
		st.Actions[p.Roles[r]] = len(as)
	}
	return st
}

// GroundStats grounds a game within lim and returns its statistics; it is
// how an upload is validated (in this process or in a child process of a
// server).
func GroundStats(ctx context.Context, name string, gdl []byte, lim grounding.Limits) (gamequiv.GameStats, error) {
	p, err := grounding.Load(ctx, name, gdl, lim)
	if err != nil {
		return gamequiv.GameStats{}, err
	}
	return StatsOf(p), nil
}

// AddGame validates an upload and stores it. A text stored before (the
// same up to line endings) is found by its content hash without grounding
// it again, and a name given with it that the game does not carry yet
// becomes an alias. A new text is validated by grounding it (under a
// heavy slot) and stored with its stats.
func (s *Service) AddGame(ctx context.Context, u gamequiv.GameUpload) (*gamequiv.AddedGame, error) {
	up, err := checkUpload("", u)
	if err != nil {
		return nil, err
	}
	return s.add(ctx, up)
}

// AddGames adds a batch of uploads. Each worker of the batch holds one
// heavy slot for the batch's life: as many as are free, up to one per
// game, at least one (else the batch gets EBUSY). Each game's time limit
// starts when its turn comes, not when the batch arrived.
func (s *Service) AddGames(ctx context.Context, us []gamequiv.GameUpload) ([]gamequiv.AddResult, error) {
	held := 0
	for held < min(s.limits.MaxHeavy, len(us)) && s.tryAcquire() {
		held++
	}
	if held == 0 && len(us) > 0 {
		return nil, s.busy()
	}
	defer func() {
		for range held {
			s.releaseSlot()
		}
	}()
	ctx = context.WithValue(ctx, slotKey{}, true)
	out := make([]gamequiv.AddResult, len(us))
	next := make(chan int)
	var wg sync.WaitGroup
	for range held {
		wg.Go(func() {
			for i := range next {
				up, err := checkUpload(fmt.Sprintf("games[%d].", i), us[i])
				var a *gamequiv.AddedGame
				if err == nil {
					a, err = s.add(ctx, up)
				}
				out[i] = gamequiv.AddResult{Added: a, Err: err}
			}
		})
	}
	for i := range us {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, nil
}

// add stores a checked upload.
func (s *Service) add(ctx context.Context, u upload) (*gamequiv.AddedGame, error) {
	if int64(len(u.GDL)) > s.limits.MaxGDL {
		return nil, gamequiv.Errorf(gamequiv.ETOOLARGE, "gdl: %d bytes; a game description may have at most %d bytes", len(u.GDL), s.limits.MaxGDL)
	}
	g, err := s.store.GameBySHA256(ctx, gamequiv.ContentSHA256(u.GDL))
	switch {
	case err == nil:
		return s.addAlias(ctx, &gamequiv.AddedGame{Game: g}, u)
	case !isNotFound(err):
		return nil, err
	}
	g, created, err := s.groundAndStore(ctx, u.Name, u.GDL)
	if err != nil {
		return nil, err
	}
	return s.addAlias(ctx, &gamequiv.AddedGame{Game: g, Created: created}, u)
}

// addAlias records the upload's name as an alias of a game stored before.
func (s *Service) addAlias(ctx context.Context, a *gamequiv.AddedGame, u upload) (*gamequiv.AddedGame, error) {
	if a.Created || u.unnamed || u.Name == a.Game.Name || slices.Contains(a.Game.Aliases, u.Name) {
		return a, nil
	}
	ok, err := s.store.AddGameAlias(ctx, a.Game.ID, u.Name)
	if err != nil {
		return nil, err
	}
	if ok {
		a.AliasAdded = true
		a.Game.Aliases = append(a.Game.Aliases, u.Name)
	}
	return a, nil
}

// groundAndStore validates a new description by grounding it and stores it
// with its stats.
func (s *Service) groundAndStore(ctx context.Context, name string, gdl []byte) (*gamequiv.Game, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, s.limits.ComputeTimeout)
	defer cancel()
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, false, err
	}
	lim := s.limits.Game.Ground
	if dl, ok := ctx.Deadline(); ok && (lim.Timeout <= 0 || time.Until(dl) < lim.Timeout) {
		lim.Timeout = max(time.Until(dl), time.Millisecond)
	}
	st, err := s.compute.Ground(ctx, name, gdl, lim)
	release()
	if err != nil {
		return nil, false, err
	}
	stats, err := json.Marshal(st)
	if err != nil {
		return nil, false, fmt.Errorf("game stats: %w", err)
	}
	return s.store.CreateGame(ctx, name, gdl, stats)
}
