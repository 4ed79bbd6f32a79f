package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// Routes lists the routes of a handler made by NewServer.
func Routes(h http.Handler) gin.RoutesInfo {
	return h.(*Server).router.Routes()
}
