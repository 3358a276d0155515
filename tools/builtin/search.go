package builtin

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"regexp/syntax"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/jido-run/jido/redact"
	"github.com/jido-run/jido/search"
	"github.com/jido-run/jido/security"
	"github.com/jido-run/jido/tools/definitions"
	"github.com/jido-run/jido/walk"
)

// fileHits is what one file contributed.
type fileHits struct {
	path    string
	matches []definitions.SearchMatch
	count   int // matching lines (count mode), else results contributed
	mtime   time.Time
}

// results keeps the best max_results results in (path, line) order while workers add
// files in any order. Once it holds enough, it publishes the path of its last file as a
// bound: a file whose path sorts after it cannot enter the result and is not even read.
// So results are deterministic and the search stops early.
type results struct {
	mu    sync.Mutex
	limit int
	prune bool // sort by path: prune beyond the bound (mtime order keeps every file)
	files []*fileHits
	total int
	bound atomic.Pointer[string]
	cut   atomic.Bool // results were dropped or files left unread: the result is truncated
}

// skip reports whether a file can no longer enter the result.
func (r *results) skip(p string) bool {
	if b := r.bound.Load(); b != nil && p > *b {
		r.cut.Store(true)
		return true
	}
	return false
}

// add records a file's results (n of them) and tightens the bound.
func (r *results) add(fh *fileHits, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files = append(r.files, fh)
	r.total += n
	if !r.prune || r.total < r.limit {
		return
	}
	slices.SortFunc(r.files, func(a, b *fileHits) int { return strings.Compare(a.path, b.path) })
	sum := 0
	for i, f := range r.files {
		sum += weight(f)
		if sum >= r.limit {
			if i+1 < len(r.files) {
				r.cut.Store(true)
			}
			r.files, r.total = r.files[:i+1], sum
			last := f.path
			r.bound.Store(&last)
			return
		}
	}
}

// weight is the number of result entries a file contributes.
func weight(f *fileHits) int {
	if f.matches != nil {
		return len(f.matches)
	}
	return 1
}

// readBuffers are the searchers' file buffers, kept between calls so that a search of a
// small directory allocates almost nothing; buffers grown past maxPooledBuffer are dropped.
var readBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

const maxPooledBuffer = 1 << 20

// searchJob is one search call in progress.
type searchJob struct {
	redactor *redact.Redactor
	root     walk.Tree
	matcher  *search.Matcher
	mode     string
	limit    int
	res      *results
	skipped  definitions.Skipped
	files    atomic.Int64
}

// Search finds the lines matching a query in the files under path, with git's ignore rules.
func (f *Find) Search(ctx context.Context, p definitions.SearchParams) (*definitions.SearchResult, error) {
	m, terr := compileQuery(p)
	if terr != nil {
		return nil, terr
	}
	if terr := checkGlobs("include_paths", p.IncludePaths); terr != nil {
		return nil, terr
	}
	if terr := checkGlobs("exclude_paths", p.ExcludePaths); terr != nil {
		return nil, terr
	}
	info, err := f.Store.Stat(p.Path)
	if err != nil {
		return nil, err
	}
	base, err := f.Store.Resolve(p.Path)
	if err != nil {
		return nil, err
	}
	job := &searchJob{
		redactor: f.redactor(), root: f.Store, matcher: m, mode: p.OutputMode, limit: p.MaxResults,
		res: &results{limit: p.MaxResults, prune: p.SortBy != "mtime"},
	}
	if !info.IsDir() {
		// A file named explicitly is searched whatever the ignore rules say.
		file, err := f.Store.ReadFile(base)
		if err != nil {
			return nil, err
		}
		job.searchData(base, file.Data)
	} else if err := job.walk(ctx, f.Walker, base, p); err != nil {
		return nil, err
	}
	if p.SortBy == "mtime" {
		job.stampMTimes()
	}
	return job.result(), nil
}

// compileQuery compiles the query, deciding smart case when case_sensitive is left out.
func compileQuery(p definitions.SearchParams) (*search.Matcher, *definitions.ToolError) {
	before, after := p.Before, p.After
	if before == 0 {
		before = p.Context
	}
	if after == 0 {
		after = p.Context
	}
	ignoreCase := !hasUpper(p.Query, p.IsRegex)
	if p.CaseSensitive != nil {
		ignoreCase = !*p.CaseSensitive
	}
	m, err := search.Compile(search.Options{
		Query: p.Query, Regex: p.IsRegex, IgnoreCase: ignoreCase, Multiline: p.Multiline,
		Before: before, After: after,
	})
	if err != nil {
		e := definitions.NewError(definitions.ValidationError, "search: %v", err).With("field", "query")
		if p.IsRegex {
			return nil, e.Hint("Fix the regular expression (RE2 syntax), or pass is_regex false to search the text literally")
		}
		return nil, e.Hint("Pass a non-empty query; to match across lines use is_regex with multiline")
	}
	return m, nil
}

// hasUpper reports whether the query has an upper-case letter (for a regexp: in its
// literal text, not in escapes such as \W), which makes the search case-sensitive.
func hasUpper(query string, regex bool) bool {
	if !regex {
		return strings.IndexFunc(query, unicode.IsUpper) >= 0
	}
	re, err := syntax.Parse(query, syntax.Perl)
	if err != nil {
		return strings.IndexFunc(query, unicode.IsUpper) >= 0
	}
	var walkRE func(*syntax.Regexp) bool
	walkRE = func(r *syntax.Regexp) bool {
		if r.Op == syntax.OpLiteral && slices.ContainsFunc(r.Rune, unicode.IsUpper) {
			return true
		}
		return slices.ContainsFunc(r.Sub, walkRE)
	}
	return walkRE(re)
}

// walk feeds the walk's files to one searcher per core.
func (j *searchJob) walk(ctx context.Context, w *walk.Walker, base string, p definitions.SearchParams) error {
	paths := make(chan string, 1024)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			bp := readBuffers.Get().(*[]byte)
			for name := range paths {
				if ctx.Err() == nil && !j.res.skip(name) {
					*bp = j.searchFile(name, *bp)
				}
			}
			if cap(*bp) <= maxPooledBuffer {
				readBuffers.Put(bp)
			}
		})
	}
	include := pathFilter(base, p.IncludePaths, false)
	opts := walk.Options{
		Hidden: p.IncludeHidden,
		Skip:   pathFilter(base, p.ExcludePaths, true),
		Match: func(name string, typ fs.FileMode) bool {
			return typ.IsRegular() && (include == nil || include(name, typ))
		},
	}
	_, err := w.Walk(ctx, base, opts, func(e walk.Entry) error {
		if j.res.skip(e.Path) {
			return nil
		}
		select {
		case paths <- e.Path:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	close(paths)
	wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// pathFilter returns a predicate true for paths matching one of the globs, relative to
// base: a glob without '/' matches the name at any depth (like ripgrep's -g and
// .gitignore), one with '/' the whole relative path. dirs says whether directories are
// tested too (exclusions prune them).
func pathFilter(base string, globs []string, dirs bool) func(string, fs.FileMode) bool {
	if len(globs) == 0 {
		return nil
	}
	return func(name string, typ fs.FileMode) bool {
		if typ.IsDir() && !dirs {
			return false
		}
		rel := relTo(base, name)
		for _, g := range globs {
			subject := rel
			if !strings.Contains(g, "/") {
				subject = path.Base(rel)
			}
			if ok, _ := doublestar.Match(g, subject); ok {
				return true
			}
		}
		return false
	}
}

// searchFile reads and searches one file, reusing buf; it returns the buffer to reuse.
func (j *searchJob) searchFile(name string, buf []byte) []byte {
	data, err := j.root.ReadTreeFile(name, buf)
	switch {
	case errors.Is(err, security.ErrSecret):
		atomic.AddInt64(&j.skipped.Secret, 1)
	case errors.Is(err, security.ErrTooLarge):
		atomic.AddInt64(&j.skipped.TooLarge, 1)
	case err != nil:
		atomic.AddInt64(&j.skipped.Unreadable, 1)
	default:
		j.searchData(name, data)
	}
	if cap(data) > cap(buf) {
		return data[:0]
	}
	return buf
}

// searchData searches the content of one file and records its results. The content is
// redacted before it is matched: a query cannot find a secret's text, test for one (a
// count or a files_with_matches answer would tell), nor show a piece of one too short
// for the redactor's patterns.
func (j *searchJob) searchData(name string, data []byte) {
	j.files.Add(1)
	if search.Binary(data) {
		atomic.AddInt64(&j.skipped.Binary, 1)
		return
	}
	if !j.matcher.Matches(data) {
		return // nothing to show: no need to redact (redaction only removes text)
	}
	data, _ = j.redactor.Bytes(data) // the same slice when nothing is redacted
	switch j.mode {
	case "files_with_matches":
		if j.matcher.Matches(data) {
			j.res.add(&fileHits{path: name}, 1)
		}
	case "count":
		if n := j.matcher.Count(data, 0); n > 0 {
			j.res.add(&fileHits{path: name, count: n}, 1)
		}
	default:
		var hits []definitions.SearchMatch
		j.matcher.Search(data, func(m search.Match) bool {
			sm := definitions.SearchMatch{Path: name, Line: m.Line, Column: m.Column, MatchText: m.MatchText, Text: m.Text, Before: m.Before, After: m.After}
			if m.EndLine != m.Line {
				sm.EndLine = m.EndLine
			}
			hits = append(hits, sm)
			return len(hits) <= j.limit // one more than can be returned tells that there are more
		})
		if len(hits) > j.limit {
			hits = hits[:j.limit]
			j.res.cut.Store(true)
		}
		if len(hits) > 0 {
			j.res.add(&fileHits{path: name, matches: hits}, len(hits))
		}
	}
}

// stampMTimes looks up the modification time of the files with results.
func (j *searchJob) stampMTimes() {
	for _, f := range j.res.files {
		if info, err := j.root.Lstat(f.path); err == nil {
			f.mtime = info.ModTime()
		}
	}
}

// result orders the files (by path, or newest first) and keeps the first limit entries.
func (j *searchJob) result() *definitions.SearchResult {
	files := j.res.files
	slices.SortFunc(files, func(a, b *fileHits) int {
		if !j.res.prune {
			if c := b.mtime.Compare(a.mtime); c != 0 {
				return c
			}
		}
		return strings.Compare(a.path, b.path)
	})
	res := &definitions.SearchResult{OutputMode: j.mode, FilesSearched: j.files.Load()}
	res.Skipped = definitions.Skipped{
		Binary: atomic.LoadInt64(&j.skipped.Binary), TooLarge: atomic.LoadInt64(&j.skipped.TooLarge),
		Secret: atomic.LoadInt64(&j.skipped.Secret), Unreadable: atomic.LoadInt64(&j.skipped.Unreadable),
	}
	total := 0
	for _, f := range files {
		switch j.mode {
		case "files_with_matches":
			res.Files = append(res.Files, f.path)
		case "count":
			res.Counts = append(res.Counts, definitions.FileCount{Path: f.path, Count: f.count})
		default:
			res.Matches = append(res.Matches, f.matches...)
		}
		total += weight(f)
	}
	res.Count = min(total, j.limit)
	res.Truncated = total > j.limit || j.res.cut.Load()
	switch {
	case len(res.Matches) > j.limit:
		res.Matches = res.Matches[:j.limit]
	case len(res.Files) > j.limit:
		res.Files = res.Files[:j.limit]
	case len(res.Counts) > j.limit:
		res.Counts = res.Counts[:j.limit]
	}
	return res
}
