package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gin-gonic/gin"
	"golang.org/x/time/rate"
)

// RequestIDHeader carries the request id in requests and responses.
const RequestIDHeader = "X-Request-Id"

type requestIDKey struct{}

// RequestID returns the request id stored in ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// WithRequestID returns ctx carrying the request id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// LogHandler wraps h so that every record logged with a context that
// carries a request id gets a request_id attribute.
func LogHandler(h slog.Handler) slog.Handler {
	if _, ok := h.(requestIDHandler); ok {
		return h
	}
	return requestIDHandler{h}
}

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(as)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}

// validRequestID reports whether a client's request id can be reused: 1 to
// 128 characters of letters, digits and -_.:
func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '-' || r == '_' || r == '.' || r == ':'
		if !ok {
			return false
		}
	}
	return true
}

// newRequestID returns 16 random bytes in hex.
func newRequestID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// requestID takes the client's X-Request-Id if it is sane, or makes one,
// puts it in the request context and echoes it in the response.
func requestID(c *gin.Context) {
	id := c.GetHeader(RequestIDHeader)
	if !validRequestID(id) {
		id = newRequestID()
	}
	c.Request = c.Request.WithContext(WithRequestID(c.Request.Context(), id))
	c.Header(RequestIDHeader, id)
	c.Next()
}

// route is the route template of the request, for logs and metrics (never
// the raw path, which is unbounded).
func route(c *gin.Context) string {
	if r := c.FullPath(); r != "" {
		return r
	}
	return "unmatched"
}

// accessLog logs one line per request.
func (s *Server) accessLog(c *gin.Context) {
	start := time.Now()
	c.Next()
	status := c.Writer.Status()
	level := slog.LevelInfo
	if status >= http.StatusInternalServerError {
		level = slog.LevelWarn
	}
	s.log.LogAttrs(c.Request.Context(), level, "request",
		slog.String("method", c.Request.Method),
		slog.String("route", route(c)),
		slog.Int("status", status),
		slog.Int("bytes", c.Writer.Size()),
		// Milliseconds with microsecond precision: readable, unlike
		// slog's bare nanoseconds.
		slog.Float64("latency_ms", float64(time.Since(start).Microseconds())/1000),
		slog.String("client", c.ClientIP()),
		slog.String("user", userName(c)),
	)
}

// userName is the name of the request's user for the access log, empty
// without one.
func userName(c *gin.Context) string {
	if u := gamequiv.UserFromContext(c.Request.Context()); u != nil {
		return u.Name
	}
	return ""
}

// recoverPanics turns a panic in an API handler into a 500 problem with the
// request id (see recovering).
func (s *Server) recoverPanics(c *gin.Context) {
	s.recovering(c, func() {
		p, _ := problemFor(gamequiv.Errorf(CodeInternal, "panic"))
		p.RequestID = RequestID(c.Request.Context())
		writeProblem(c, p)
	})
}

// recovering runs the rest of the handler chain. On a panic it logs it
// once, with its stack, counts it, and calls answer unless the response
// has begun. http.ErrAbortHandler is re-raised so that net/http aborts the
// response.
func (s *Server) recovering(c *gin.Context, answer func()) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler {
			panic(v)
		}
		s.log.LogAttrs(c.Request.Context(), slog.LevelError, "panic",
			slog.String("method", c.Request.Method),
			slog.String("route", route(c)),
			slog.String("panic", fmt.Sprint(v)),
			slog.String("stack", string(debug.Stack())),
		)
		s.metrics.ObservePanic("http")
		if !c.Writer.Written() {
			answer()
		}
	}()
	c.Next()
}

// limitBody caps the request body; reading past the cap fails with an
// *http.MaxBytesError, which writeError turns into a 413.
func (s *Server) limitBody(c *gin.Context) {
	if c.Request.Body != nil {
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.limits.MaxBody)
	}
	c.Next()
}

// observe records the HTTP request metric.
func (s *Server) observe(c *gin.Context) {
	start := time.Now()
	c.Next()
	s.metrics.HTTPDuration.WithLabelValues(route(c), c.Request.Method, strconv.Itoa(c.Writer.Status())).
		Observe(time.Since(start).Seconds())
}

// clientLimiters holds a token bucket per client address, evicting the
// buckets of clients idle for a while.
type clientLimiters struct {
	limit rate.Limit
	burst int
	idle  time.Duration

	mu        sync.Mutex
	clients   map[string]*clientLimiter
	lastSweep time.Time
}

type clientLimiter struct {
	lim  *rate.Limiter
	seen time.Time
}

func newClientLimiters(limit rate.Limit, burst int) *clientLimiters {
	return &clientLimiters{limit: limit, burst: burst, idle: 10 * time.Minute, clients: map[string]*clientLimiter{}}
}

// reserve takes a token for client; if none is left it returns how long
// to wait for one.
func (l *clientLimiters) reserve(client string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) > l.idle {
		for k, c := range l.clients {
			if now.Sub(c.seen) > l.idle {
				delete(l.clients, k)
			}
		}
		l.lastSweep = now
	}
	c := l.clients[client]
	if c == nil {
		c = &clientLimiter{lim: rate.NewLimiter(l.limit, l.burst)}
		l.clients[client] = c
	}
	c.seen = now
	if c.lim.AllowN(now, 1) {
		return true, 0
	}
	r := c.lim.ReserveN(now, 1)
	if !r.OK() {
		return false, time.Second
	}
	wait := r.DelayFrom(now)
	r.CancelAt(now)
	return false, wait
}

// rateLimit throttles the requests that change state (POST, PATCH,
// DELETE) per client address.
func (s *Server) rateLimit(c *gin.Context) {
	if m := c.Request.Method; m != http.MethodPost && m != http.MethodPatch && m != http.MethodDelete {
		c.Next()
		return
	}
	if err := s.throttled(c); err != nil {
		s.writeError(c, err)
		return
	}
	c.Next()
}

// throttled takes a token of the client's rate limit, or returns the
// error to answer when there is none left.
func (s *Server) throttled(c *gin.Context) error {
	ok, wait := s.limiters.reserve(c.ClientIP(), time.Now())
	if ok {
		return nil
	}
	return &gamequiv.Error{Code: CodeRateLimited, Message: "too many requests; retry later", RetryAfter: max(wait, time.Second)}
}
