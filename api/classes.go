package api

import (
	"net/http"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gin-gonic/gin"
)

// memberJSON is a game of a class.
type memberJSON struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// classJSON is an equivalence class in responses.
type classJSON struct {
	ID             int64        `json:"id"`
	Representative int64        `json:"representative"`
	Members        []memberJSON `json:"members"`
	CreatedAt      time.Time    `json:"created_at"`
}

func newClassJSON(c *gamequiv.Class) classJSON {
	out := classJSON{ID: c.ID, Representative: c.Representative, Members: make([]memberJSON, len(c.Members)), CreatedAt: c.CreatedAt}
	for i, m := range c.Members {
		out.Members[i] = memberJSON{ID: m.ID, Name: m.Name}
	}
	return out
}

// listClasses is GET /classes.
func (s *Server) listClasses(c *gin.Context) {
	p, err := page(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	classes, next, err := s.store.ListClasses(c.Request.Context(), p)
	if err != nil {
		s.writeError(c, err)
		return
	}
	out := make([]classJSON, len(classes))
	for i := range classes {
		out[i] = newClassJSON(&classes[i])
	}
	writeJSON(c, http.StatusOK, newList(out, next))
}

// getClass is GET /classes/{id}.
func (s *Server) getClass(c *gin.Context) {
	id, err := pathID(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	cl, err := s.store.GetClass(c.Request.Context(), id)
	if err != nil {
		s.writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, newClassJSON(cl))
}
