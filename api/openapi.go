package api

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gin-gonic/gin"
)

// OpenAPIYAML is the OpenAPI 3 document of the API, as written by hand.
//
//go:embed openapi.yaml
var OpenAPIYAML []byte

// openAPIJSON converts the document to JSON once.
var openAPIJSONOnce = sync.OnceValues(func() ([]byte, error) {
	doc, err := openapi3.NewLoader().LoadFromData(OpenAPIYAML)
	if err != nil {
		return nil, fmt.Errorf("load openapi.yaml: %w", err)
	}
	return json.Marshal(doc)
})

// OpenAPIJSON returns the OpenAPI document as JSON.
func OpenAPIJSON() ([]byte, error) { return openAPIJSONOnce() }

// openAPIJSON is GET /openapi.json.
func (s *Server) openAPIJSON(c *gin.Context) {
	b, err := OpenAPIJSON()
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", b)
}

// openAPIYAML is GET /openapi.yaml.
func (s *Server) openAPIYAML(c *gin.Context) {
	c.Data(http.StatusOK, "application/yaml; charset=utf-8", OpenAPIYAML)
}
