package api

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gamequiv/gamequiv"
	"github.com/gamequiv/gamequiv/web"
)

// The pages follow the API's access rules (access.go): a browser signs in
// on the login page with an API token, which the server checks and keeps
// in an HttpOnly, SameSite=Strict session cookie (Secure with
// Access.SecureCookie). Every form post is checked against cross-site
// forgery (http.CrossOriginProtection: Sec-Fetch-Site and Origin), on top
// of the cookie's SameSite=Strict. A page that needs a token sends the
// browser to the login page, which returns to it.

// publicPage reports whether a page stays open with access control on.
func publicPage(p string) bool {
	return p == "/login" || strings.HasPrefix(p, web.StaticPrefix)
}

// pageAuth is the pages' middleware of access control.
func (s *Server) pageAuth(c *gin.Context) {
	if !s.access.Enabled || publicPage(c.Request.URL.Path) {
		c.Next()
		return
	}
	r, err := s.authenticate(c.Request)
	var ae *gamequiv.Error
	if errors.As(err, &ae) && ae.Code == CodeUnauthorized {
		if _, sent := credentialOf(c.Request); sent {
			// A revoked or mangled token in the cookie: forget it.
			s.clearSession(c)
		}
		if c.Request.Method == http.MethodGet {
			c.Abort()
			c.Redirect(http.StatusSeeOther, "/login?next="+url.QueryEscape(c.Request.URL.RequestURI()))
			return
		}
	}
	if err != nil {
		s.pageError(c, err)
		return
	}
	c.Request = r
	c.Next()
}

// localPath returns next if it is a path of this site, else "/": the
// login page must not send the browser elsewhere (an open redirect).
func localPath(next string) string {
	if next == "" || next[0] != '/' || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return "/"
	}
	return next
}

// loginPage is GET /login: the token form.
func (s *Server) loginPage(c *gin.Context) {
	if !s.access.Enabled {
		c.Redirect(http.StatusSeeOther, "/")
		return
	}
	s.render(c, http.StatusOK, web.PageLogin, web.View{Title: "Sign in", Section: "login",
		Data: web.LoginView{Next: localPath(c.Query("next"))}})
}

// login is POST /login: it checks the token and keeps it in the session
// cookie, then returns to the page the browser came from.
func (s *Server) login(c *gin.Context) {
	if !s.access.Enabled {
		c.Redirect(http.StatusSeeOther, "/")
		return
	}
	if err := crossOrigin.Check(c.Request); err != nil {
		s.errorPage(c, http.StatusForbidden, "cross-origin form posts are not accepted")
		return
	}
	next := localPath(c.PostForm("next"))
	secret := strings.TrimSpace(c.PostForm("token"))
	u, err := s.store.Authenticate(c.Request.Context(), secret)
	if err != nil {
		status, msg := http.StatusUnauthorized, "this token is unknown or revoked"
		if !errors.Is(err, gamequiv.ErrNotFound) {
			p, _ := problemFor(err)
			status, msg = p.Status, p.Detail
		}
		c.Header("WWW-Authenticate", authRealm)
		s.render(c, status, web.PageLogin, web.View{Title: "Sign in", Section: "login",
			Data: web.LoginView{Next: next, Error: msg}})
		return
	}
	s.setSession(c, secret)
	s.log.InfoContext(c.Request.Context(), "signed in", "user", u.Name)
	c.Redirect(http.StatusSeeOther, next)
}

// logout is POST /logout: it forgets the session cookie.
func (s *Server) logout(c *gin.Context) {
	if err := crossOrigin.Check(c.Request); err != nil {
		s.errorPage(c, http.StatusForbidden, "cross-origin form posts are not accepted")
		return
	}
	s.clearSession(c)
	c.Redirect(http.StatusSeeOther, "/")
}

// setSession sets the session cookie to the token.
func (s *Server) setSession(c *gin.Context, secret string) {
	http.SetCookie(c.Writer, s.sessionCookie(secret, int(s.access.SessionTTL.Seconds())))
}

// clearSession deletes the session cookie.
func (s *Server) clearSession(c *gin.Context) {
	http.SetCookie(c.Writer, s.sessionCookie("", -1))
}

func (s *Server) sessionCookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name:     SessionCookie,
		Value:    value,
		Path:     "/",
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   s.access.SecureCookie,
		SameSite: http.SameSiteStrictMode,
	}
}

// renameGamePage is POST /games/{id}/rename, the form of PATCH
// /api/v1/games/{id}; it returns to the game's page.
func (s *Server) renameGamePage(c *gin.Context) {
	if err := crossOrigin.Check(c.Request); err != nil {
		s.errorPage(c, http.StatusForbidden, "cross-origin form posts are not accepted")
		return
	}
	id, err := pageID(c, "game")
	if err != nil {
		s.pageError(c, err)
		return
	}
	name := c.PostForm("name")
	if _, err := s.games.RenameGame(c.Request.Context(), id, name); err != nil {
		s.pageError(c, notFound(err, "game", id))
		return
	}
	c.Redirect(http.StatusSeeOther, "/games/"+strconv.FormatInt(id, 10))
}

// deleteGamePage is POST /games/{id}/delete, the form of DELETE
// /api/v1/games/{id}; it goes on to the list of games.
func (s *Server) deleteGamePage(c *gin.Context) {
	if err := crossOrigin.Check(c.Request); err != nil {
		s.errorPage(c, http.StatusForbidden, "cross-origin form posts are not accepted")
		return
	}
	id, err := pageID(c, "game")
	if err != nil {
		s.pageError(c, err)
		return
	}
	if c.PostForm("confirm") != "yes" {
		s.pageError(c, gamequiv.Errorf(CodeInvalid, "tick the box to confirm the deletion"))
		return
	}
	if err := s.games.DeleteGame(c.Request.Context(), id); err != nil {
		s.pageError(c, notFound(err, "game", id))
		return
	}
	c.Redirect(http.StatusSeeOther, "/games")
}
