package mcp

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"github.com/jido-run/jido/manager"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// loadErrors reports the user tool files of a session that failed to load (or reload)
// (manager.Session.ToolLoadErrors), so that a broken tool does not just vanish from the
// list: each distinct error once to the client, as a notifications/message of level error
// (once the client has set a logging level: before, the SDK sends no log, as the spec
// suggests), and once to Options.Stderr. An error that goes away (the file was fixed) is
// forgotten, so that it is reported again if it comes back.
type loadErrors struct {
	mu       sync.Mutex
	levelSet bool            // the client sent logging/setLevel
	sent     map[string]bool // errors the client was sent
	printed  map[string]bool // errors written to stderr
}

// loadErrorPlace is the "file:line:" (or "file:") an error of usertools starts with.
var loadErrorPlace = regexp.MustCompile(`^([^\s:]+\.lua)(?::(\d+))?:`)

// reportLoadErrors reports js's load errors not reported yet.
func (c *session) reportLoadErrors(ctx context.Context, ss *sdk.ServerSession, js *manager.Session) {
	if js == nil {
		return
	}
	errs := js.ToolLoadErrors()
	le := &c.loadErrors
	le.mu.Lock()
	defer le.mu.Unlock()
	now := map[string]bool{}
	for _, err := range errs {
		now[err.Error()] = true
	}
	for _, m := range []map[string]bool{le.sent, le.printed} {
		for msg := range m {
			if !now[msg] {
				delete(m, msg)
			}
		}
	}
	if le.sent == nil {
		le.sent, le.printed = map[string]bool{}, map[string]bool{}
	}
	for _, err := range errs {
		msg := err.Error()
		if !le.printed[msg] {
			le.printed[msg] = true
			c.srv.printf("jido mcp: tool file skipped: %s\n", msg)
		}
		if le.levelSet && !le.sent[msg] && ss != nil {
			data := map[string]any{"message": "user tool file skipped: " + msg, "root": js.Root()}
			if m := loadErrorPlace.FindStringSubmatch(msg); m != nil {
				data["file"] = m[1]
				if line, err := strconv.Atoi(m[2]); err == nil {
					data["line"] = line
				}
			}
			// Log is deprecated from protocol 2026-07-28 on, which this server does not speak.
			if ss.Log(ctx, &sdk.LoggingMessageParams{Level: "error", Logger: "jido", Data: data}) == nil {
				le.sent[msg] = true
			}
		}
	}
}

// logLevelSet records that the client set its logging level, and sends it the load errors
// it has not had.
func (c *session) logLevelSet(ctx context.Context, ss *sdk.ServerSession) {
	c.loadErrors.mu.Lock()
	c.loadErrors.levelSet = true
	c.loadErrors.mu.Unlock()
	c.mu.Lock()
	js := c.jido
	c.mu.Unlock()
	c.reportLoadErrors(ctx, ss, js)
}

// printf writes to Options.Stderr, if any, one message at a time.
func (s *Server) printf(format string, args ...any) {
	if s.opts.Stderr == nil {
		return
	}
	s.stderrMu.Lock()
	defer s.stderrMu.Unlock()
	fmt.Fprintf(s.opts.Stderr, format, args...)
}
