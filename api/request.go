package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/gamequiv/gamequiv/grounding"
	"github.com/gamequiv/gamequiv/store"
)

// decode reads the request body as one JSON value into v, rejecting
// unknown fields and trailing data.
func decode(c *gin.Context, v any) error {
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return err
		}
		return &Error{Code: CodeMalformedJSON, Message: "cannot read request body", Err: err}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return errorf(CodeMalformedJSON, "request body is empty; want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		var ae *Error
		switch {
		case errors.As(err, &ae):
			return ae
		case errors.As(err, &typeErr):
			field := typeErr.Field
			if field == "" {
				field = "body"
			}
			return errorf(CodeInvalid, "%s: want %s, got JSON %s", field, typeErr.Type, typeErr.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field"):
			return errorf(CodeInvalid, "%s", strings.TrimPrefix(err.Error(), "json: "))
		}
		return &Error{Code: CodeMalformedJSON, Message: "request body is not valid JSON", Err: err}
	}
	if _, err := dec.Token(); err != io.EOF {
		return errorf(CodeMalformedJSON, "request body has data after the JSON value")
	}
	return nil
}

// pathID parses the :id path parameter.
func pathID(c *gin.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errorf(CodeInvalid, "id %q: want a positive integer", c.Param("id"))
	}
	return id, nil
}

// queryInt parses an optional non-negative integer query parameter.
func queryInt(c *gin.Context, name string) (int64, error) {
	v := c.Query(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, errorf(CodeInvalid, "query parameter %s=%q: want a non-negative integer", name, v)
	}
	return n, nil
}

// page parses the limit and cursor query parameters.
func page(c *gin.Context) (store.Page, error) {
	limit, err := queryInt(c, "limit")
	if err != nil {
		return store.Page{}, err
	}
	if limit > store.MaxPageLimit {
		return store.Page{}, errorf(CodeInvalid, "query parameter limit=%d: at most %d", limit, store.MaxPageLimit)
	}
	cursor, err := queryInt(c, "cursor")
	if err != nil {
		return store.Page{}, err
	}
	return store.Page{Limit: int(limit), Cursor: cursor}, nil
}

// listJSON is a page of a list.
type listJSON[T any] struct {
	Items []T `json:"items"`
	// NextCursor, when present, is the cursor of the following page.
	NextCursor int64 `json:"next_cursor,omitempty"`
}

func newList[T any](items []T, next int64) listJSON[T] {
	if items == nil {
		items = []T{}
	}
	return listJSON[T]{Items: items, NextCursor: next}
}

// checkGDLText rejects game description text that JSON can carry but the
// store and the parser cannot take as GDL: an empty text, a NUL, and U+FFFD,
// which is what the JSON decoder makes of bytes that are not UTF-8. The
// error is a positioned *grounding.Error, so it answers 422 invalid_gdl with
// line and col like any other error in a description.
func checkGDLText(name, gdl string) error {
	if strings.TrimSpace(gdl) == "" {
		return &grounding.Error{File: name, Pos: grounding.Pos{Line: 1, Col: 1},
			Msg: "empty game description: no roles: the description has no (role ...) facts"}
	}
	at := func(i int, msg string) error {
		line := 1 + strings.Count(gdl[:i], "\n")
		col := i - strings.LastIndexByte(gdl[:i], '\n')
		return &grounding.Error{File: name, Pos: grounding.Pos{Line: line, Col: col}, Msg: msg}
	}
	if i := strings.IndexByte(gdl, 0); i >= 0 {
		return at(i, "invalid control character U+0000")
	}
	if i := strings.IndexRune(gdl, utf8.RuneError); i >= 0 {
		return at(i, "invalid UTF-8 byte sequence (read as U+FFFD): a description must be UTF-8")
	}
	return nil
}
