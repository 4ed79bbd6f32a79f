package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gamequiv/gamequiv"
)

// gameRef is one side of POST /comparisons: a stored game's id, or an
// inline game stored first; the zero value (absent or null) is no game.
type gameRef gamequiv.GameRef

// UnmarshalJSON accepts a positive integer or a {"gdl","name"} object.
func (r *gameRef) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*r = gameRef{}
	switch {
	case len(b) > 0 && b[0] == '{':
		var g gameRequest
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&g); err != nil {
			return gamequiv.Errorf(CodeInvalid, "inline game: want {\"gdl\": string, \"name\": string}: %v", err)
		}
		u := g.upload()
		r.Inline = &u
		return nil
	case bytes.Equal(b, []byte("null")):
		return nil
	}
	id, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || id <= 0 {
		return gamequiv.Errorf(CodeInvalid, "game: want a positive integer id or {\"gdl\": string, \"name\": string}, got %.40s", b)
	}
	r.ID = id
	return nil
}

// comparisonRequest is the body of POST /comparisons.
type comparisonRequest struct {
	A      gameRef             `json:"a"`
	B      gameRef             `json:"b"`
	Limits *gamequiv.JobLimits `json:"limits,omitempty"`
}

// request is the request as the service layer takes it.
func (r *comparisonRequest) request() gamequiv.ComparisonRequest {
	return gamequiv.ComparisonRequest{A: gamequiv.GameRef(r.A), B: gamequiv.GameRef(r.B), Limits: r.Limits}
}

// progressJSON is the progress of a comparison.
type progressJSON struct {
	Phase      string  `json:"phase"`
	Candidates int64   `json:"candidates"`
	Fraction   float64 `json:"fraction"`
	// Step, Done, Total and Unit are the engine's sub-progress of the
	// phase (equiv.Progress), while the job runs.
	Step  string `json:"step,omitempty"`
	Done  int64  `json:"done,omitempty"`
	Total int64  `json:"total,omitempty"`
	Unit  string `json:"unit,omitempty"`
}

// comparisonJSON is a comparison in responses.
type comparisonJSON struct {
	ID    int64  `json:"id"`
	A     int64  `json:"a"`
	B     int64  `json:"b"`
	NameA string `json:"a_name"`
	NameB string `json:"b_name"`
	// Revision changes whenever the status or the progress does: a
	// waiting GET passes it back as since.
	Revision        string          `json:"revision"`
	Status          gamequiv.Status `json:"status"`
	Progress        progressJSON    `json:"progress"`
	Verdict         string          `json:"verdict,omitempty"`
	Reason          string          `json:"reason,omitempty"`
	Result          json.RawMessage `json:"result,omitempty"`
	Error           string          `json:"error,omitempty"`
	Limits          json.RawMessage `json:"limits"`
	CancelRequested bool            `json:"cancel_requested"`
	Attempts        int             `json:"attempts"`
	CreatedAt       time.Time       `json:"created_at"`
	StartedAt       *time.Time      `json:"started_at,omitempty"`
	FinishedAt      *time.Time      `json:"finished_at,omitempty"`
	// Owner is the name of the submitter's token; absent without access
	// control.
	Owner string `json:"owner,omitempty"`
}

func newComparisonJSON(c *gamequiv.Comparison) comparisonJSON {
	out := comparisonJSON{
		ID:              c.ID,
		A:               c.GameA,
		B:               c.GameB,
		NameA:           c.NameA,
		NameB:           c.NameB,
		Status:          c.Status,
		Verdict:         c.Verdict,
		Reason:          c.Reason,
		Result:          c.Result,
		Error:           c.Error,
		Limits:          c.Limits,
		CancelRequested: c.CancelRequested,
		Attempts:        c.Attempts,
		CreatedAt:       c.CreatedAt,
		StartedAt:       timePtr(c.StartedAt),
		FinishedAt:      timePtr(c.FinishedAt),
		Owner:           c.Owner,
	}
	if len(out.Limits) == 0 {
		out.Limits = json.RawMessage("{}")
	}
	out.Progress = progressJSON{Phase: c.Phase, Candidates: c.Candidates}
	if len(c.Progress) > 0 {
		var p progressJSON
		if json.Unmarshal(c.Progress, &p) == nil {
			out.Progress.Fraction = min(max(p.Fraction, 0), 1)
			if c.Status == gamequiv.StatusRunning {
				out.Progress.Step, out.Progress.Done, out.Progress.Total, out.Progress.Unit = p.Step, p.Done, p.Total, p.Unit
			}
		}
	}
	switch {
	case c.Status == gamequiv.StatusQueued:
		out.Progress.Phase = "queued"
	case c.Status == gamequiv.StatusDone:
		out.Progress.Phase, out.Progress.Fraction = "done", 1
		var rep struct {
			Stats struct {
				Candidates int64 `json:"candidates"`
			} `json:"stats"`
		}
		if json.Unmarshal(c.Result, &rep) == nil && rep.Stats.Candidates > 0 {
			out.Progress.Candidates = rep.Stats.Candidates
		}
	case out.Progress.Phase == "":
		out.Progress.Phase = string(c.Status)
	}
	out.Revision = revision(&out)
	return out
}

// revision is a short digest of what a waiting client watches: status,
// progress and a cancel request.
func revision(c *comparisonJSON) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00%g\x00%t\x00%s\x00%d", c.Status, c.Progress.Phase, c.Progress.Candidates, c.Progress.Fraction, c.CancelRequested, c.Progress.Step, c.Progress.Done)
	return strconv.FormatUint(h.Sum64(), 16)
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func comparisonLocation(id int64) string {
	return BasePath + "/comparisons/" + strconv.FormatInt(id, 10)
}

// createComparison is POST /comparisons: 202 and a Location, for a new
// comparison and for one submitted before (same games and limits), which
// is returned with its current status.
func (s *Server) createComparison(c *gin.Context) {
	var req comparisonRequest
	if err := decode(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	cmp, _, err := s.comparisons.Submit(c.Request.Context(), req.request())
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Header("Location", comparisonLocation(cmp.ID))
	writeJSON(c, http.StatusAccepted, newComparisonJSON(cmp))
}

// listComparisons is GET /comparisons.
func (s *Server) listComparisons(c *gin.Context) {
	p, err := page(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	f := gamequiv.ComparisonFilter{Status: gamequiv.Status(c.Query("status")), Page: p}
	if f.GameID, err = queryInt(c, "game"); err != nil {
		s.writeError(c, err)
		return
	}
	cs, next, err := s.store.ListComparisons(c.Request.Context(), f)
	if err != nil {
		s.writeError(c, err)
		return
	}
	out := make([]comparisonJSON, len(cs))
	for i := range cs {
		out[i] = newComparisonJSON(&cs[i])
	}
	writeJSON(c, http.StatusOK, newList(out, next))
}

// Defaults of the long poll of GET /comparisons/{id}.
const (
	DefaultMaxWait      = 60 * time.Second
	DefaultWaitInterval = 200 * time.Millisecond
)

// getComparison is GET /comparisons/{id}. With ?wait=D it is a long poll:
// the answer comes when the comparison is final, or, with ?since=R, as
// soon as its revision differs from R (new progress), and at the latest
// after D.
func (s *Server) getComparison(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	wait, err := s.waitParam(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	cmp, err := s.store.GetComparison(ctx, id)
	if err != nil {
		s.writeError(c, err)
		return
	}
	out := newComparisonJSON(cmp)
	if wait > 0 {
		since := c.Query("since")
		deadline := time.NewTimer(wait)
		defer deadline.Stop()
		tick := time.NewTicker(s.limits.WaitInterval)
		defer tick.Stop()
	poll:
		for !cmp.Status.Final() && (since == "" || out.Revision == since) {
			select {
			case <-ctx.Done():
				s.writeError(c, ctx.Err())
				return
			case <-deadline.C:
				break poll
			case <-tick.C:
			}
			if cmp, err = s.store.GetComparison(ctx, id); err != nil {
				s.writeError(c, err)
				return
			}
			out = newComparisonJSON(cmp)
		}
	}
	writeJSON(c, http.StatusOK, out)
}

// waitParam parses ?wait=: a Go duration ("30s", "1m") or seconds ("30"),
// at most MaxWait; 0 when absent.
func (s *Server) waitParam(c *gin.Context) (time.Duration, error) {
	v := c.Query("wait")
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		secs, serr := strconv.ParseFloat(v, 64)
		if serr != nil || math.IsNaN(secs) || math.IsInf(secs, 0) {
			return 0, gamequiv.Errorf(CodeInvalid, "query parameter wait=%.40q: want a duration such as 30s, or seconds", v)
		}
		d = time.Duration(min(secs, math.MaxInt64/1e9) * float64(time.Second))
	}
	if d < 0 || d > s.limits.MaxWait {
		return 0, gamequiv.Errorf(CodeInvalid, "query parameter wait=%.40q: want 0 to %s", v, s.limits.MaxWait)
	}
	return d, nil
}

// cancelComparison is DELETE /comparisons/{id}: a queued comparison is
// cancelled at once, a running one when its worker sees the request. With
// access control only its owner or an admin may (the store checks).
func (s *Server) cancelComparison(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	cmp, err := s.comparisons.Cancel(c.Request.Context(), id)
	if err != nil {
		s.writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, newComparisonJSON(cmp))
}
