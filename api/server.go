// Package api is the HTTP layer of gamequiv: the JSON REST API under
// /api/v1 (games, comparisons, classes, symmetries), its OpenAPI document,
// health and readiness probes and Prometheus metrics, built on gin; and the
// browser pages of package web at every other path (pages.go).
//
// Every handler decodes its input, makes one call into the domain (the
// service layer, package service, for uploads, submissions, symmetries,
// renames, deletions and cancels; the storage interfaces of package
// gamequiv for reads), and encodes the answer; every error goes through one
// mapping (errors.go) to an application/problem+json document with a
// stable code. Access control (access.go, off by default) authenticates
// API tokens and the pages' session cookie and puts the user in the
// request context, where the store records owners and checks who may
// change what. The server runs no background work: cmd/server runs the
// comparison workers and the classifier.
package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/time/rate"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/equiv"
	"github.com/gamequiv/gamequiv/service"
	"github.com/gamequiv/gamequiv/telemetry"
)

// BasePath is the prefix of every API route.
const BasePath = "/api/v1"

// Store is what the API needs from the database; *store.DB implements it.
// The API reads through it and hands it to the service layer, which
// makes every change.
type Store interface {
	gamequiv.Games
	gamequiv.Classes
	gamequiv.Comparisons
	gamequiv.Symmetries
	gamequiv.Search
	gamequiv.Tokens
	// Ready reports whether the database answers and is migrated.
	Ready(ctx context.Context) error
}

// DefaultMaxBody is the default of Limits.MaxBody.
const DefaultMaxBody = 4 << 20

// Limits bounds the work the API accepts. The zero value of each field is
// its documented default.
type Limits struct {
	// MaxBody caps request bodies in bytes; 0 means DefaultMaxBody. A
	// larger body gets 413.
	MaxBody int64
	// MaxGDL, MaxQueue, QueueRetryAfter and Game are those of the service
	// layer (service.Limits, whose defaults the zero values mean): a
	// longer text gets 413, a full queue 429.
	MaxGDL          int64
	MaxQueue        int64
	QueueRetryAfter time.Duration
	Game            equiv.Limits
	// RequestTimeout bounds the work done inside one request (grounding an
	// upload, computing symmetries): service.Limits.ComputeTimeout (0 means
	// service.DefaultComputeTimeout). Past it an upload gets 503.
	RequestTimeout time.Duration
	// MaxBatch caps the games of one POST /games/batch; 0 means
	// DefaultMaxBatch.
	MaxBatch int
	// MaxWait caps the wait of GET /comparisons/{id}?wait=; 0 means
	// DefaultMaxWait.
	MaxWait time.Duration
	// WaitInterval is how often a waiting request reads the comparison
	// again (workers may run in another process, so the database is the
	// only place that sees their progress); 0 means DefaultWaitInterval.
	WaitInterval time.Duration
	// MaxConcurrentCompute bounds the requests grounding games or computing
	// symmetries at the same time (service.Limits.MaxHeavy). A request
	// past it does not wait: it gets 429 busy with Retry-After
	// BusyRetryAfter.
	MaxConcurrentCompute int
	BusyRetryAfter       time.Duration
	// RateLimit is the sustained rate of POST and DELETE requests allowed
	// per client address, per second; 0 means no limit. RateBurst is the
	// burst above it (0 means max(1, 2*RateLimit)).
	RateLimit float64
	RateBurst int
	// TrustedProxies are the addresses (IPs or CIDRs) of reverse proxies
	// whose X-Forwarded-For (or X-Real-IP) names the client, for the rate
	// limit and the access log; empty trusts no proxy header, and the
	// client is the peer address. NewServer panics on an invalid entry:
	// validate them first (ParseTrustedProxies).
	TrustedProxies []string
}

// ParseTrustedProxies splits a comma-separated list of IPs and CIDRs and
// checks each.
func ParseTrustedProxies(list string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if _, _, err := net.ParseCIDR(p); err != nil && net.ParseIP(p) == nil {
			return nil, fmt.Errorf("trusted proxy %q: want an IP address or a CIDR such as 10.0.0.0/8", p)
		}
		out = append(out, p)
	}
	return out, nil
}

func (l Limits) withDefaults() Limits {
	if l.MaxBody <= 0 {
		l.MaxBody = DefaultMaxBody
	}
	if l.MaxBatch <= 0 {
		l.MaxBatch = DefaultMaxBatch
	}
	if l.MaxWait <= 0 {
		l.MaxWait = DefaultMaxWait
	}
	if l.WaitInterval <= 0 {
		l.WaitInterval = DefaultWaitInterval
	}
	if l.RateBurst <= 0 {
		l.RateBurst = max(1, int(2*l.RateLimit))
	}
	return l
}

// Deps are the dependencies of the server.
type Deps struct {
	Store Store
	// Log receives the access log and errors; nil discards them.
	Log *slog.Logger
	// Limits bounds requests.
	Limits Limits
	// Access configures access control; the zero value turns it off.
	Access Access
	// Metrics, if not nil, records HTTP metrics and is served at /metrics
	// (with the queue gauges registered by the caller).
	Metrics *telemetry.Metrics
	// OnCancelRequested is service.Config.OnCancelRequested: the server
	// tells its own workers of a cancel at once.
	OnCancelRequested func(id int64)
	// Compute is service.Config.Compute: where uploads are ground and
	// symmetries computed (nil: in this process).
	Compute service.Compute
}

// serviceLimits are the limits of the service layer among l.
func (l Limits) serviceLimits() service.Limits {
	return service.Limits{
		MaxGDL:          l.MaxGDL,
		MaxQueue:        l.MaxQueue,
		QueueRetryAfter: l.QueueRetryAfter,
		Game:            l.Game,
		ComputeTimeout:  l.RequestTimeout,
		MaxHeavy:        l.MaxConcurrentCompute,
		BusyRetryAfter:  l.BusyRetryAfter,
	}
}

// Server is the HTTP handler of the API.
type Server struct {
	store    Store
	log      *slog.Logger
	limits   Limits
	access   Access
	metrics  *telemetry.Metrics
	limiters *clientLimiters
	// games and comparisons are the service layer: every change goes
	// through them.
	games       gamequiv.GameService
	comparisons gamequiv.ComparisonService
	// computeTimeout bounds the heavy work of one request (the service's).
	computeTimeout time.Duration
	router         *gin.Engine
	// pages routes the browser pages: every path outside the API.
	pages *gin.Engine
}

// NewServer returns the HTTP handler of the API.
func NewServer(d Deps) http.Handler {
	return newServer(d)
}

func newServer(d Deps) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{
		store:   d.Store,
		log:     d.Log,
		limits:  d.Limits.withDefaults(),
		access:  d.Access.withDefaults(),
		metrics: d.Metrics,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.log = slog.New(LogHandler(s.log.Handler()))
	svc := service.New(service.Config{
		Store:             d.Store,
		Limits:            s.limits.serviceLimits(),
		Log:               s.log,
		OnSymmetries:      s.metrics.ObserveSymmetries,
		OnCancelRequested: d.OnCancelRequested,
		Compute:           d.Compute,
	})
	s.games, s.comparisons, s.computeTimeout = svc, svc, svc.Limits().ComputeTimeout
	if s.limits.RateLimit > 0 {
		s.limiters = newClientLimiters(rate.Limit(s.limits.RateLimit), s.limits.RateBurst)
	}

	r := gin.New()
	s.trustProxies(r)
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	r.Use(requestID, s.accessLog)
	if s.metrics != nil {
		r.Use(s.observe)
	}
	r.Use(s.recoverPanics, s.limitBody)
	if s.limiters != nil {
		r.Use(s.rateLimit)
	}
	r.Use(s.requireAuth)
	r.NoRoute(func(c *gin.Context) {
		s.writeError(c, gamequiv.Errorf(CodeNotFound, "no route for %s %s", c.Request.Method, c.Request.URL.Path))
	})
	r.NoMethod(func(c *gin.Context) {
		s.writeError(c, gamequiv.Errorf(CodeMethodNotAllowed, "method %s not allowed on %s", c.Request.Method, c.Request.URL.Path))
	})

	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)
	if s.metrics != nil {
		r.GET("/metrics", gin.WrapH(promhttp.HandlerFor(s.metrics.Registry, promhttp.HandlerOpts{})))
	}

	v1 := r.Group(BasePath)
	v1.GET("/openapi.json", s.openAPIJSON)
	v1.GET("/openapi.yaml", s.openAPIYAML)
	v1.POST("/games", s.createGame)
	v1.POST("/games/batch", s.createGames)
	v1.GET("/games", s.listGames)
	v1.GET("/games/:id", s.getGame)
	v1.PATCH("/games/:id", s.renameGame)
	v1.DELETE("/games/:id", s.deleteGame)
	v1.GET("/games/:id/symmetries", s.getSymmetries)
	v1.POST("/comparisons", s.createComparison)
	v1.GET("/comparisons", s.listComparisons)
	v1.GET("/comparisons/:id", s.getComparison)
	v1.DELETE("/comparisons/:id", s.cancelComparison)
	v1.GET("/classes", s.listClasses)
	v1.GET("/classes/:id", s.getClass)
	v1.GET("/me", s.me)
	s.router = r
	s.pages = s.newPages()
	return s
}

// trustProxies sets the proxies whose headers name the client; with none,
// ClientIP is the peer address.
func (s *Server) trustProxies(r *gin.Engine) {
	if err := r.SetTrustedProxies(s.limits.TrustedProxies); err != nil {
		panic(fmt.Sprintf("api: %v", err)) // a caller's bug: see Limits.TrustedProxies
	}
}

// ServeHTTP implements http.Handler: the API and the probes, and the
// browser pages (pages.go) at every other path.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if isAPIPath(r.URL.Path) {
		s.router.ServeHTTP(w, r)
		return
	}
	s.pages.ServeHTTP(w, r)
}

// healthz reports that the process is alive and serving HTTP.
func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyz reports whether the database is reachable and migrated.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 5*time.Second)
	defer cancel()
	if err := s.store.Ready(ctx); err != nil {
		s.writeError(c, &gamequiv.Error{Code: CodeUnavailable, Message: "not ready", Err: err})
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ready"})
}

// writeJSON writes v as JSON with the status.
func writeJSON(c *gin.Context, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		panic(err) // our own types always marshal
	}
	c.Data(status, "application/json; charset=utf-8", body)
}
