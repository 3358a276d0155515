package manager

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jido-run/jido/redact"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/walk"
)

// secretRefresh is how old the values of a project's secret files may grow before a use of
// the redactor has them looked for again (a variable, for tests).
var secretRefresh = 10 * time.Second

// secretRedactor gives a project's redactor: the default rules plus the values its secret
// files assign. They are looked for at the first use, which waits for the walk, and again
// in the background at a use more than secretRefresh after the last look, which does not:
// a .env written during a long session is redacted from then on.
type secretRedactor struct {
	root   *security.Root
	walker *walk.Walker

	mu      sync.Mutex
	current *redact.Redactor
	looked  time.Time // when the values of current were looked for
	looking bool      // a look runs in the background
}

// get returns the current redactor.
func (r *secretRedactor) get() *redact.Redactor {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.current == nil {
		r.current, r.looked = r.look(), time.Now()
		return r.current
	}
	if !r.looking && time.Since(r.looked) > secretRefresh {
		r.looking = true
		go r.refresh()
	}
	return r.current
}

// refresh looks for the values again and makes them current.
func (r *secretRedactor) refresh() {
	started := time.Now()
	next := r.look()
	r.mu.Lock()
	r.current, r.looked, r.looking = next, started, false
	r.mu.Unlock()
}

// look builds a redactor with the values found now.
func (r *secretRedactor) look() *redact.Redactor {
	return redact.Default().WithValues(secretValues(r.root, r.walker))
}

// Bounds of secretValues's look for secret files.
const (
	maxSecretScan = 20_000   // entries visited
	maxSecretFile = 64 << 10 // bytes of one secret file read
)

// secretValues returns the values the project's secret files (.env and the like, as the
// Root's policy names them) assign, for redaction wherever they appear: a password too
// weak for any pattern still never reaches the model through a log or a config echo. It
// looks through at most maxSecretScan entries, skipping .git and node_modules, never
// following a link; values are only ever used to redact.
func secretValues(root *security.Root, w *walk.Walker) []string {
	var (
		mu     sync.Mutex
		values []string
		seen   atomic.Int64
	)
	w.Walk(context.Background(), ".", walk.Options{
		Hidden: true, NoIgnore: true, // .env is ignored by git and hidden: exactly what to look at
		Skip: func(p string, typ fs.FileMode) bool {
			return seen.Add(1) > maxSecretScan || typ.IsDir() && path.Base(p) == "node_modules"
		},
		Match: func(p string, typ fs.FileMode) bool { return typ.IsRegular() && root.IsSecret(p) },
	}, func(e walk.Entry) error {
		data, err := root.ReadSecretFile(e.Path, maxSecretFile)
		if err == nil {
			found := redact.ValuesFromSecretFile(data)
			mu.Lock()
			values = append(values, found...)
			mu.Unlock()
		}
		return nil
	})
	slices.Sort(values) // the walk's order is not the files' order
	return values
}
