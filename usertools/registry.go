package usertools

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"
)

// DefaultRecheck is how often, at most, a Registry looks whether its files changed.
const DefaultRecheck = time.Second

// Dirs returns the host directories at paths as sources, each labelled with its path: the
// user's own tool directory and those given on the command line, outside any project.
func Dirs(paths []string) []Source {
	out := make([]Source, len(paths))
	for i, p := range paths {
		out[i] = Source{Label: p, FS: os.DirFS(p)}
	}
	return out
}

// Registry keeps the tools of some sources loaded and reloads them when their files change
// (a file added, removed, resized or touched). It checks at most once per Recheck, on
// demand: no goroutine, no file watcher. It is safe for concurrent use.
type Registry struct {
	sources  []Source
	reserved func(string) bool
	recheck  time.Duration

	mu      sync.Mutex
	set     *Set
	stamp   string    // the files' names, sizes and times at the last load
	checked time.Time // the last look at the files
}

// NewRegistry loads the sources now. reserved reports names user tools may not take (the
// built-in tools); recheck is the least time between two looks at the files (0:
// DefaultRecheck).
func NewRegistry(sources []Source, reserved func(string) bool, recheck time.Duration) *Registry {
	if recheck <= 0 {
		recheck = DefaultRecheck
	}
	r := &Registry{sources: sources, reserved: reserved, recheck: recheck}
	r.load(stamp(sources), time.Now())
	return r
}

// Current returns the tools, reloaded first if the files changed since the last look
// (taken at most once per recheck period).
func (r *Registry) Current() *Set {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := time.Now(); now.Sub(r.checked) >= r.recheck {
		r.checked = now
		if s := stamp(r.sources); s != r.stamp {
			r.load(s, now)
		}
	}
	return r.set
}

// load reads every file again; the caller holds r.mu (or owns r).
func (r *Registry) load(s string, now time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r.set, r.stamp, r.checked = Load(ctx, r.sources, r.reserved), s, now
}

// stamp describes the tool files of the sources: their names, sizes and modification times.
func stamp(sources []Source) string {
	var b strings.Builder
	for _, src := range sources {
		if src.FS == nil {
			continue
		}
		names, _ := fs.Glob(src.FS, "*.lua")
		for _, name := range names {
			info, err := fs.Stat(src.FS, name)
			if err != nil {
				fmt.Fprintf(&b, "%s/%s:?;", src.Label, name)
				continue
			}
			fmt.Fprintf(&b, "%s/%s:%d:%d;", src.Label, name, info.Size(), info.ModTime().UnixNano())
		}
	}
	return b.String()
}
