package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/gamequiv/gamequiv"
	"github.com/gin-gonic/gin"
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
		return &gamequiv.Error{Code: CodeMalformedJSON, Message: "cannot read request body", Err: err}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return gamequiv.Errorf(CodeMalformedJSON, "request body is empty; want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		var ae *gamequiv.Error
		switch {
		case errors.As(err, &ae):
			return ae
		case errors.As(err, &typeErr):
			field := typeErr.Field
			if field == "" {
				field = "body"
			}
			return gamequiv.Errorf(CodeInvalid, "%s: want %s, got JSON %s", field, typeErr.Type, typeErr.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field"):
			return gamequiv.Errorf(CodeInvalid, "%s", strings.TrimPrefix(err.Error(), "json: "))
		}
		return &gamequiv.Error{Code: CodeMalformedJSON, Message: "request body is not valid JSON", Err: err}
	}
	if _, err := dec.Token(); err != io.EOF {
		return gamequiv.Errorf(CodeMalformedJSON, "request body has data after the JSON value")
	}
	return nil
}

// pathID parses the :id path parameter.
func pathID(c *gin.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, gamequiv.Errorf(CodeInvalid, "id %q: want a positive integer", c.Param("id"))
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
		return 0, gamequiv.Errorf(CodeInvalid, "query parameter %s=%q: want a non-negative integer", name, v)
	}
	return n, nil
}

// page parses the limit and cursor query parameters.
func page(c *gin.Context) (gamequiv.Page, error) {
	limit, err := queryInt(c, "limit")
	if err != nil {
		return gamequiv.Page{}, err
	}
	if limit > gamequiv.MaxPageLimit {
		return gamequiv.Page{}, gamequiv.Errorf(CodeInvalid, "query parameter limit=%d: at most %d", limit, gamequiv.MaxPageLimit)
	}
	cursor, err := queryInt(c, "cursor")
	if err != nil {
		return gamequiv.Page{}, err
	}
	return gamequiv.Page{Limit: int(limit), Cursor: cursor}, nil
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
