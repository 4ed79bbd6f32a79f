package server

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// newHandler returns the HTTP handler of the server. For now it serves only
// GET /healthz; the API routes arrive with package api (api.NewServer).
func newHandler(log *slog.Logger) http.Handler {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	// Trust no proxy headers: ClientIP is the peer address.
	_ = r.SetTrustedProxies(nil)
	r.Use(recoverPanics(log), accessLog(log))
	r.GET("/healthz", healthz)
	return r
}

// healthz reports that the process is alive and serving HTTP.
func healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// accessLog logs one line per request, labelled by the route template (never
// the raw path, which is unbounded).
func accessLog(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		log.LogAttrs(c.Request.Context(), slog.LevelInfo, "request",
			slog.String("method", c.Request.Method),
			slog.String("route", route),
			slog.Int("status", c.Writer.Status()),
			slog.Duration("latency", time.Since(start)),
			slog.String("client", c.ClientIP()),
		)
	}
}

// recoverPanics turns a panic in a handler into a 500 and logs it once.
// http.ErrAbortHandler is re-raised so net/http can abort the response.
func recoverPanics(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			log.LogAttrs(c.Request.Context(), slog.LevelError, "panic",
				slog.String("method", c.Request.Method),
				slog.String("route", c.FullPath()),
				slog.Any("panic", v),
			)
			c.AbortWithStatusJSON(http.StatusInternalServerError, gin.H{"error": "internal error"})
		}()
		c.Next()
	}
}
