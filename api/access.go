package api

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gamequiv/gamequiv"
	"github.com/gin-gonic/gin"
)

// Access control. Off (the zero Access) every request may do everything
// and nothing records an owner: right for the default, a server on
// loopback for one person. On, every request that changes something needs
// an API token, sent as "Authorization: Bearer TOKEN" or, from a browser,
// in the session cookie that the login page sets; games and comparisons
// record the token's name as their owner, and only the owner or an admin
// may rename or delete a game or cancel a comparison (the store enforces
// it, see gamequiv.NewContextWithUser). Reading needs a token too unless
// PublicRead is set. The probes (/healthz, /readyz) and the OpenAPI
// document stay public.

// Defaults of Access.
const (
	DefaultSessionTTL = 12 * time.Hour
)

// SessionCookie is the name of the cookie that carries a browser's token.
const SessionCookie = "gamequiv_session"

// authRealm is the realm of WWW-Authenticate challenges.
const authRealm = `Bearer realm="gamequiv"`

// Access configures access control; the zero value turns it off.
type Access struct {
	// Enabled requires a token for every change and records owners.
	Enabled bool
	// PublicRead lets requests without a token read (GET, HEAD) when
	// Enabled; a request with an invalid token still gets 401.
	PublicRead bool
	// SessionTTL is how long the session cookie of the login page lasts;
	// 0 means DefaultSessionTTL.
	SessionTTL time.Duration
	// SecureCookie marks the session cookie Secure, so that browsers send
	// it over HTTPS only: set it when a TLS proxy serves the pages.
	SecureCookie bool
}

func (a Access) withDefaults() Access {
	if a.SessionTTL <= 0 {
		a.SessionTTL = DefaultSessionTTL
	}
	return a
}

// publicPaths stay open with access control on.
var publicPaths = map[string]bool{
	"/healthz": true, "/readyz": true,
	BasePath + "/openapi.json": true, BasePath + "/openapi.yaml": true,
}

// safeMethod reports whether a request only reads.
func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// credential is what a request authenticates with.
type credential struct {
	secret string
	// cookie: the secret came from the session cookie, so the request may
	// be a cross-site forgery and needs the cross-origin check.
	cookie bool
	// malformed: an Authorization header that is not "Bearer TOKEN".
	malformed bool
}

// credentialOf reads the request's token: the Authorization header wins
// over the session cookie.
func credentialOf(r *http.Request) (credential, bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, secret, ok := strings.Cut(h, " ")
		secret = strings.TrimSpace(secret)
		if !ok || !strings.EqualFold(scheme, "Bearer") || secret == "" {
			return credential{malformed: true}, true
		}
		return credential{secret: secret}, true
	}
	if ck, err := r.Cookie(SessionCookie); err == nil && ck.Value != "" {
		return credential{secret: ck.Value, cookie: true}, true
	}
	return credential{}, false
}

// authenticate resolves the request's user and decides whether it may go
// on. It puts the user (an anonymous one without a token) in the request
// context, where the store finds it. It returns a *gamequiv.Error with code
// unauthorized, or forbidden for a cross-site request, when it may not.
func (s *Server) authenticate(r *http.Request) (*http.Request, error) {
	if !s.access.Enabled {
		return r, nil
	}
	cred, ok := credentialOf(r)
	user := &gamequiv.User{}
	switch {
	case cred.malformed:
		return r, unauthorized(`the Authorization header must be "Bearer TOKEN"`, authRealm+`, error="invalid_request"`)
	case ok:
		u, err := s.store.Authenticate(r.Context(), cred.secret)
		if errors.Is(err, gamequiv.ErrNotFound) {
			return r, unauthorized("the token is unknown or revoked", authRealm+`, error="invalid_token"`)
		}
		if err != nil {
			return r, err
		}
		user = u
	}
	if !safeMethod(r.Method) && cred.cookie {
		if err := crossOrigin.Check(r); err != nil {
			return r, &gamequiv.Error{Code: CodeForbidden, Message: "cross-origin requests with the session cookie are not accepted", Err: err}
		}
	}
	if user.Name == "" && !(s.access.PublicRead && safeMethod(r.Method)) {
		msg := "this server requires an API token (Authorization: Bearer TOKEN)"
		if safeMethod(r.Method) {
			msg = "reading requires an API token on this server (Authorization: Bearer TOKEN)"
		}
		return r, unauthorized(msg, authRealm)
	}
	return r.WithContext(gamequiv.NewContextWithUser(r.Context(), user)), nil
}

// requireAuth is the API middleware of access control.
func (s *Server) requireAuth(c *gin.Context) {
	if publicPaths[c.Request.URL.Path] {
		c.Next()
		return
	}
	r, err := s.authenticate(c.Request)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.Request = r
	c.Next()
}

// meJSON is the answer of GET /me.
type meJSON struct {
	// AccessControl says whether the server checks tokens.
	AccessControl bool `json:"access_control"`
	// Name and Admin describe the token's holder; Name is empty without a
	// token (or with access control off).
	Name  string `json:"name,omitempty"`
	Admin bool   `json:"admin"`
	// PublicRead says whether reading needs no token.
	PublicRead bool `json:"public_read"`
}

// me is GET /me: who the request acts for.
func (s *Server) me(c *gin.Context) {
	out := meJSON{AccessControl: s.access.Enabled, PublicRead: !s.access.Enabled || s.access.PublicRead}
	if u := gamequiv.UserFromContext(c.Request.Context()); u != nil {
		out.Name, out.Admin = u.Name, u.Admin
	}
	writeJSON(c, http.StatusOK, out)
}
