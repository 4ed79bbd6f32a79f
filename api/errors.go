package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/grounding"
)

// Error codes: the stable "code" member of every problem document. The
// codes of the domain's *gamequiv.Error are the same strings.
const (
	CodeMalformedJSON    = "malformed_json"     // 400: the body is not the JSON the route expects
	CodeInvalid          = gamequiv.EINVALID    // 400: a field or parameter is wrong
	CodeInvalidGDL       = "invalid_gdl"        // 422: the game description does not parse or validate
	CodeLimit            = gamequiv.ELIMIT      // 422: the game exceeds a grounding or search limit
	CodeTooLarge         = gamequiv.ETOOLARGE   // 413: the request body exceeds the cap
	CodeQueueFull        = gamequiv.EQUEUEFULL  // 429: too many comparisons are queued
	CodeRateLimited      = "rate_limited"       // 429: too many requests from this client
	CodeBusy             = gamequiv.EBUSY       // 429: every slot for heavy work (grounding, symmetries) is taken
	CodeUnauthorized     = "unauthorized"       // 401: a token is required, or the one given is unknown or revoked
	CodeForbidden        = "forbidden"          // 403: the token's holder may not do this (not the owner, nor an admin)
	CodeNotFound         = gamequiv.ENOTFOUND   // 404
	CodeMethodNotAllowed = "method_not_allowed" // 405
	CodeConflict         = "conflict"           // 409
	CodeUnavailable      = "unavailable"        // 503: a deadline passed, or the service is not ready
	CodeInternal         = "internal"           // 500
)

// ProblemContentType is the media type of error responses (RFC 9457).
const ProblemContentType = "application/problem+json"

// problemTypePrefix makes a problem type URI from a code.
const problemTypePrefix = "urn:gamequiv:problem:"

// The API's errors are *gamequiv.Error values, with the codes above (the
// domain's own and the HTTP layer's); other errors (the domain's
// sentinels, equiv's and grounding's) are classified by problemFor. Only
// a 401 carries more: its challenge (authError).

// authError is a 401 with its WWW-Authenticate challenge.
type authError struct {
	err       *gamequiv.Error
	challenge string
}

func (e *authError) Error() string { return e.err.Error() }
func (e *authError) Unwrap() error { return e.err }

// unauthorized returns a 401 error with the challenge.
func unauthorized(msg, challenge string) error {
	return &authError{err: &gamequiv.Error{Code: CodeUnauthorized, Message: msg}, challenge: challenge}
}

// Problem is an RFC 9457 problem document with our extension members.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail,omitempty"`
	Code      string `json:"code"`
	RequestID string `json:"request_id,omitempty"`
	// Line and Col locate the first error of an invalid game description.
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
	// Errors lists every error of an invalid game description.
	Errors []GDLError `json:"errors,omitempty"`
	// Limit names the limit a game exceeded.
	Limit string `json:"limit,omitempty"`
}

// GDLError is one error of an invalid game description.
type GDLError struct {
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

// statusOf maps a code to its HTTP status.
var statusOf = map[string]int{
	CodeMalformedJSON:    http.StatusBadRequest,
	CodeInvalid:          http.StatusBadRequest,
	CodeInvalidGDL:       http.StatusUnprocessableEntity,
	CodeLimit:            http.StatusUnprocessableEntity,
	CodeTooLarge:         http.StatusRequestEntityTooLarge,
	CodeQueueFull:        http.StatusTooManyRequests,
	CodeRateLimited:      http.StatusTooManyRequests,
	CodeBusy:             http.StatusTooManyRequests,
	CodeUnauthorized:     http.StatusUnauthorized,
	CodeForbidden:        http.StatusForbidden,
	CodeNotFound:         http.StatusNotFound,
	CodeMethodNotAllowed: http.StatusMethodNotAllowed,
	CodeConflict:         http.StatusConflict,
	CodeUnavailable:      http.StatusServiceUnavailable,
	CodeInternal:         http.StatusInternalServerError,
}

// problemFor classifies err. It is the only place that maps errors to HTTP
// statuses.
func problemFor(err error) (Problem, time.Duration) {
	var (
		list     grounding.ErrorList
		gerr     *grounding.Error
		glimit   *grounding.LimitError
		tooLarge *http.MaxBytesError
		syntax   *json.SyntaxError
		typeErr  *json.UnmarshalTypeError
	)
	var de *gamequiv.Error
	p := Problem{}
	var retry time.Duration
	switch {
	case errors.As(err, &tooLarge):
		p.Code, p.Detail = CodeTooLarge, fmt.Sprintf("request body exceeds %d bytes", tooLarge.Limit)
	case errors.As(err, &de):
		p.Code, p.Detail, p.Limit, retry = de.Code, de.Error(), de.Limit, de.RetryAfter
	case errors.As(err, &list) && len(list) > 0:
		p.Code, p.Detail = CodeInvalidGDL, list[0].Error()
		p.Line, p.Col = list[0].Pos.Line, list[0].Pos.Col
		for _, e := range list {
			p.Errors = append(p.Errors, GDLError{Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg})
		}
		switch n := len(list) - 1; {
		case n == 1:
			p.Detail += " (and 1 more error)"
		case n > 1:
			p.Detail += fmt.Sprintf(" (and %d more errors)", n)
		}
	case errors.As(err, &gerr):
		p.Code, p.Detail = CodeInvalidGDL, gerr.Error()
		p.Line, p.Col = gerr.Pos.Line, gerr.Pos.Col
		p.Errors = []GDLError{{Line: gerr.Pos.Line, Col: gerr.Pos.Col, Message: gerr.Msg}}
	case errors.As(err, &glimit):
		p.Code, p.Detail, p.Limit = CodeLimit, glimit.Error(), glimit.What
	case equiv.IsLimit(err):
		p.Code, p.Detail = CodeLimit, err.Error()
	case errors.As(err, &syntax), errors.As(err, &typeErr), errors.Is(err, io.ErrUnexpectedEOF):
		p.Code, p.Detail = CodeMalformedJSON, "request body is not valid JSON: "+err.Error()
	case errors.Is(err, gamequiv.ErrNotFound):
		p.Code, p.Detail = CodeNotFound, "not found"
	case errors.Is(err, gamequiv.ErrForbidden):
		p.Code, p.Detail = CodeForbidden, "only the owner or an admin may do this: "+err.Error()
	case errors.Is(err, gamequiv.ErrConflict):
		p.Code, p.Detail = CodeConflict, err.Error()
	case errors.Is(err, gamequiv.ErrInvalid):
		p.Code, p.Detail = CodeInvalid, err.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		p.Code, p.Detail = CodeUnavailable, "the request did not finish in time"
	default:
		p.Code = CodeInternal
	}
	p.Status = statusOf[p.Code]
	if p.Status == 0 {
		p.Code, p.Status = CodeInternal, http.StatusInternalServerError
	}
	p.Type = problemTypePrefix + p.Code
	p.Title = http.StatusText(p.Status)
	if p.Code == CodeInternal {
		p.Detail = "internal error"
	}
	return p, retry
}

// writeError answers the request with the problem document for err and
// aborts the handler chain. Internal errors are logged here, once.
func (s *Server) writeError(c *gin.Context, err error) {
	p, retry := problemFor(err)
	p.RequestID = RequestID(c.Request.Context())
	if p.Status >= http.StatusInternalServerError {
		level := slog.LevelError
		if p.Code == CodeUnavailable {
			level = slog.LevelWarn
		}
		s.log.LogAttrs(c.Request.Context(), level, "request failed",
			slog.String("route", c.FullPath()), slog.String("code", p.Code), slog.Any("err", err))
	}
	if retry > 0 {
		secs := int64((retry + time.Second - 1) / time.Second)
		c.Header("Retry-After", strconv.FormatInt(secs, 10))
	}
	if p.Status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", challengeOf(err))
	}
	writeProblem(c, p)
}

// challengeOf is the WWW-Authenticate header of a 401 for err.
func challengeOf(err error) string {
	var ae *authError
	if errors.As(err, &ae) && ae.challenge != "" {
		return ae.challenge
	}
	return authRealm
}

// writeProblem writes p as application/problem+json and aborts.
func writeProblem(c *gin.Context, p Problem) {
	body, err := json.Marshal(p)
	if err != nil {
		body = []byte(`{"type":"urn:gamequiv:problem:internal","title":"Internal Server Error","status":500,"code":"internal"}`)
	}
	c.Abort()
	c.Data(p.Status, ProblemContentType, body)
}
