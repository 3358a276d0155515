package interpret

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// ErrOutsideRoot is the error of a path that leaves the project root (absolute, "~", or
// ".." above the root), wrapped in an *fs.PathError that names the path.
var ErrOutsideRoot = errors.New("path outside the project root")

// ErrBadPath is the error of a path holding characters no project path holds (NUL, control
// characters, backslashes).
var ErrBadPath = errors.New("invalid characters in path")

// textPatterns are the regexps of query normalization and target parsing.
type textPatterns struct {
	head, tail      *regexp.Regexp // politeness before and after the request
	caseOff, caseOn *regexp.Regexp // "ignoring case", "case sensitive", at the end or before a place
	regex           *regexp.Regexp // "as a regex", "(regex)"
	lead            *regexp.Regexp // "regex search for", "case-insensitive search for": group m
	target          *regexp.Regexp // a target phrase: articles and kind words around a path
}

// textRegexps compiles the textPatterns once, on first use, so that importing the package
// costs nothing.
var textRegexps = sync.OnceValue(func() textPatterns {
	return textPatterns{
		head: regexp.MustCompile(`(?i)^(?:(?:hey|hi|hello|ok|okay|so|now|and|also|then|alright|right|jido|yo)\b[ ,:!-]*` +
			`|(?:please|pls|plz|kindly)\b,? ?` +
			`|(?:can|could|may) (?:i|we)\b(?: please)? ?` +
			`|(?:could|can|would|will)(?: you| u)?(?: please| pls| kindly)?(?: just)?\b,? ?` +
			`|i(?:'d| would) (?:like|love)(?: you)? to\b ?|i (?:want|need)(?: you)? to\b ?` +
			`|(?:let me know|tell me|let me|let's|lets|let us|help me|go ahead and|try to|quickly|just|i wonder|do you know|any idea)\b ?)`),
		tail:    regexp.MustCompile(`(?i)(?:,? (?:please|pls|plz|for me|thanks|thank you|thx|real quick|quickly|right now|now|again|if you can|if possible|when you can))+$`),
		caseOff: regexp.MustCompile(`(?i)(?:^|,? )(?:\(?(?:case[- ]?insensitive(?:ly)?|ignor(?:e|ing) (?:the )?case|not case[- ]sensitive(?:ly)?|without case|caseless(?:ly)?|any case)\)?|in any case|regardless of case|no matter the case)(?:$|[ ,])`),
		caseOn:  regexp.MustCompile(`(?i)(?:^|,? )\(?(?:case[- ]?sensitive(?:ly)?|matching case|with exact case|exact case|respecting case)\)?(?:$|[ ,])`),
		regex:   regexp.MustCompile(`(?i)(?:^|,? )(?:\((?:regex|regexp|re)\)|(?:as|using|with|via) (?:an? )?(?:regex|regexp|regular expression|re2)(?: pattern)?|as an? pattern)(?:$|[ ,])`),
		lead:    regexp.MustCompile(`(?i)^(?:do an? |run an? |make an? )?(?P<m>regex|regexp|regular expression|case[- ]?insensitive|caseless|case[- ]?sensitive) (?:search|grep|find)(?: for)? `),
		target: regexp.MustCompile(`(?i)^(?:(?:the|a|an|my|our|that|this) )?` +
			`(?:(?:(?P<f>file|script|source file)|(?P<d>folder|directory|dir|package|module|subdirectory|subfolder|subdir)) )?` +
			`(?:(?:called|named) )?(?P<p>.+?)` +
			`(?: (?:(?P<f2>file|script)|(?P<d2>folder|directory|dir|package|module|subdirectory|subfolder)))?$`),
	}
})

// quotes straightens typographic quotes, which phones and word processors put in queries.
var quotes = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u201c", `"`, "\u201d", `"`)

// normalize prepares a query for the rules: straight quotes, single spaces, no trailing
// punctuation, and no politeness around the request ("could you please ...", "..., thanks").
// Case is kept, since file names and search text need it; the rules match case-insensitively.
func normalize(q string) string {
	q = strings.Join(strings.Fields(quotes.Replace(q)), " ")
	re := textRegexps()
	for {
		before := q
		q = strings.TrimRight(q, "?!.,;: ")
		if loc := re.head.FindStringIndex(q); loc != nil {
			q = q[loc[1]:]
		}
		if loc := re.tail.FindStringIndex(q); loc != nil {
			q = q[:loc[0]]
		}
		q = strings.TrimSpace(q)
		q = fixVerb(q)
		if q == before {
			return unmention(q)
		}
	}
}

// unmention drops the @ of the @path mentions of a query ("read @src/main.go") when what
// follows reads as a path: a file name or a path with a slash. "@Override" is kept.
func unmention(q string) string {
	if !strings.Contains(q, "@") {
		return q
	}
	fields := strings.Split(q, " ")
	for i, f := range fields {
		if p, ok := strings.CutPrefix(f, "@"); ok && p != "" && (strings.Contains(p, "/") || looksLikeFile(p)) {
			fields[i] = p
		}
	}
	return strings.Join(fields, " ")
}

// verbs are the words a request starts with that fixVerb corrects typos of, in order of
// preference.
var verbs = []string{
	"search", "find", "show", "read", "list", "open", "grep", "view", "display", "print", "locate",
	"where", "what", "which", "how", "tree", "run", "rerun", "test", "explain", "count", "glob",
	"cat", "head", "tail", "summarize", "describe", "look", "give", "lines",
	"delete", "remove", "rename", "create", "write", "edit", "update", "refactor", "commit",
}

// knownWords are first words fixVerb leaves alone although they are one edit away from a verb.
var knownWords = map[string]bool{
	"finds": true, "shows": true, "reads": true, "lists": true, "tests": true, "views": true, "prints": true,
	"seek": true, "see": true, "hunt": true, "scan": true, "cd": true, "ls": true, "ll": true, "la": true,
	"line": true, "lint": true, "heads": true, "tails": true, "trees": true, "counts": true, "rust": true,
	"who": true, "whom": true, "whose": true, "why": true, "when": true, "shell": true, "shall": true,
	"hot": true, "sow": true, "fin": true, "fine": true, "hoe": true, "rea": true,
}

// fixVerb corrects a typo in the first word of a query when it is one deletion, insertion
// or swap of neighbours away from a verb and starts like it ("serach", "fnd", "shwo",
// "raed", "lsit"). Substitutions are not corrected: "last", "that", "text" are words.
func fixVerb(q string) string {
	word, rest, _ := strings.Cut(q, " ")
	if len(word) < 3 || len(word) > 9 {
		return q
	}
	w := strings.ToLower(word)
	if knownWords[w] {
		return q
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return q
		}
	}
	for _, v := range verbs {
		if w == v {
			return q
		}
	}
	for _, v := range verbs {
		if v[0] == w[0] && oneEdit(w, v) && w != v+"s" {
			if rest == "" {
				return v
			}
			return v + " " + rest
		}
	}
	return q
}

// oneEdit reports whether a becomes b by deleting, inserting one letter or swapping two
// neighbours (ASCII words).
func oneEdit(a, b string) bool {
	switch d := len(a) - len(b); d {
	case 0:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case 1, -1:
		if d < 0 {
			a, b = b, a
		}
		i := 0
		for i < len(b) && a[i] == b[i] {
			i++
		}
		return a[i+1:] == b[i:]
	}
	return false
}

// kind says whether a target names a file, a directory, or may be either.
type kind int

const (
	anyKind kind = iota
	fileKind
	dirKind
)

// target is what a phrase of the query names: a path, or the paths of the last listing.
type target struct {
	path  string   // root-relative and cleaned; "" when paths is set
	paths []string // "these files": the session's last listing
	kind  kind
	stop  *Plan // set when the target cannot be used (outside the root, no current file): why
	named bool  // the path was written in the query (not "it", "here")
}

// ref is a context reference: a phrase that names something of the session, not a path.
type ref int

const (
	refDir     ref = iota + 1 // the directory in focus
	refRoot                   // the project root
	refFile                   // the current file
	refListing                // the paths of the last listing
)

// refs are the context references, lower case.
var refs = map[string]ref{
	"here": refDir, "in here": refDir, "there": refDir, "this directory": refDir, "this dir": refDir,
	"this folder": refDir, "this place": refDir, "current directory": refDir, "the current directory": refDir,
	"current dir": refDir, "the current dir": refDir, "current folder": refDir, "the current folder": refDir,
	"cwd": refDir, "the directory": refDir, "the folder": refDir,

	"project": refRoot, "the project": refRoot, "this project": refRoot, "our project": refRoot,
	"the whole project": refRoot, "the entire project": refRoot, "project root": refRoot, "the project root": refRoot,
	"repo": refRoot, "the repo": refRoot, "this repo": refRoot, "our repo": refRoot, "the whole repo": refRoot,
	"the repository": refRoot, "this repository": refRoot, "root": refRoot, "the root": refRoot,
	"the root directory": refRoot, "the top level": refRoot, "codebase": refRoot, "the codebase": refRoot,
	"this codebase": refRoot, "our codebase": refRoot, "the whole codebase": refRoot, "the code base": refRoot,
	"the code": refRoot, "our code": refRoot, "everywhere": refRoot,

	"it": refFile, "file": refFile, "the file": refFile, "this file": refFile, "that file": refFile,
	"current file": refFile, "the current file": refFile, "the same file": refFile, "the last file": refFile,
	"this one": refFile, "that one": refFile,

	"these": refListing, "those": refListing, "them": refListing, "these files": refListing,
	"those files": refListing, "all these files": refListing, "all those files": refListing,
	"the listed files": refListing, "the files above": refListing, "these paths": refListing,
	"all of them": refListing, "each of them": refListing,
}

// notPaths are single words that a rule's target pattern catches but that name no path.
var notPaths = map[string]bool{
	"this": true, "that": true, "something": true, "anything": true, "everything": true, "stuff": true,
	"things": true, "code": true, "files": true, "file": true, "all": true, "me": true, "you": true,
	"what": true, "why": true, "how": true, "who": true, "more": true, "up": true, "out": true, "a": true,
	"an": true, "the": true, "is": true, "are": true, "my": true, "your": true, "any": true, "some": true,
	"one": true, "nothing": true, "else": true, "help": true, "us": true, "folder": true,
	"directory": true, "dir": true, "contents": true, "content": true, "entries": true, "world": true,
}

// pathChars are the characters a path of a query may hold (besides letters and digits).
const pathChars = "_.~/@+-*?[]{},:=#%"

// resolve reads a target phrase of the query: a context reference ("this file", "here"), or
// a path with its kind words ("the docs folder"). ok is false when the phrase names no path,
// so that the rule does not apply.
func resolve(phrase string, c Context) (target, bool) {
	s, quoted := unquote(strings.TrimSpace(phrase))
	if !quoted && len(s) > 1 && s[0] == '@' {
		s = s[1:] // an @path mention
	}
	if s == "" {
		return target{}, false
	}
	if !quoted {
		if r, isRef := refs[strings.ToLower(s)]; isRef {
			return fromRef(r, c), true
		}
	}
	k := anyKind
	if !quoted {
		re := textRegexps().target
		m := re.FindStringSubmatchIndex(s)
		if m == nil {
			return target{}, false
		}
		switch {
		case group(re, m, "f") || group(re, m, "f2"):
			k = fileKind
		case group(re, m, "d") || group(re, m, "d2"):
			k = dirKind
		}
		i := 2 * re.SubexpIndex("p")
		s, _ = unquote(s[m[i]:m[i+1]])
		if r, isRef := refs[strings.ToLower(s)]; isRef {
			return fromRef(r, c), true
		}
		if notPaths[strings.ToLower(s)] || !pathLike(s) {
			return target{}, false
		}
	}
	if strings.HasSuffix(s, "/") {
		k = dirKind
	}
	p, err := lexicalClean(s)
	if err != nil {
		return target{stop: refused(s, err)}, true
	}
	if k == anyKind && looksLikeFile(p) {
		k = fileKind
	}
	return target{path: p, kind: k, named: true}, true
}

// group reports whether the named group of re took part in the match m.
func group(re *regexp.Regexp, m []int, name string) bool {
	i := re.SubexpIndex(name)
	return i > 0 && m[2*i] >= 0
}

// fromRef resolves a context reference against the session's context.
func fromRef(r ref, c Context) target {
	switch r {
	case refDir:
		return target{path: dirOf(c), kind: dirKind}
	case refRoot:
		return target{path: ".", kind: dirKind}
	case refFile:
		if c.LastFile == "" {
			return target{stop: &Plan{Rationale: "There is no current file yet: name the file, or read one first.",
				Suggestions: suggest("read_file", "list_dir")}}
		}
		return target{path: c.LastFile, kind: fileKind}
	default:
		if len(c.LastListing) == 0 {
			return target{stop: &Plan{Rationale: "No files were listed yet, so \"these files\" names nothing: list or find some first.",
				Suggestions: suggest("list_dir", "glob")}}
		}
		return target{paths: c.LastListing, kind: fileKind}
	}
}

// dirOf is the directory in focus, "." when none is.
func dirOf(c Context) string {
	if c.Dir == "" {
		return "."
	}
	return c.Dir
}

// refused is the plan for a path the rules will not use.
func refused(p string, err error) *Plan {
	return &Plan{Rationale: "I cannot use " + quote(p) + ": " + errText(err) + ". Paths are relative to the project root.",
		Suggestions: suggest("list_dir", "glob")}
}

// errText is the reason of a path error, without the path it already names.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// unquote strips one pair of matching quotes or backticks around s.
func unquote(s string) (string, bool) {
	if len(s) >= 2 && strings.ContainsRune(`"'`+"`", rune(s[0])) && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1], true
	}
	return s, false
}

// quote renders s in double quotes for a rationale.
func quote(s string) string { return `"` + s + `"` }

// pathLike reports whether s could be a path: one word of path characters, with a letter
// or a digit unless it is only dots and slashes ("." or "../").
func pathLike(s string) bool {
	alnum := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			alnum = true
		case !strings.ContainsRune(pathChars, r):
			return false
		}
	}
	return alnum || strings.Trim(s, "./") == "" && strings.Contains(s, ".")
}

// lexicalClean checks a path without the file system: no NUL, control characters or
// backslashes, not absolute, not "~", no ".." above the root. It returns the path cleaned
// ("." for the root). It is the Interpreter's check when it has no Clean.
func lexicalClean(p string) (string, error) {
	if p == "" {
		return ".", nil
	}
	if strings.ContainsFunc(p, func(r rune) bool { return r == '\\' || unicode.IsControl(r) }) {
		return "", &fs.PathError{Op: "clean", Path: p, Err: ErrBadPath}
	}
	c := path.Clean(p)
	if path.IsAbs(c) || strings.HasPrefix(c, "~") || c == ".." || strings.HasPrefix(c, "../") {
		return "", &fs.PathError{Op: "clean", Path: p, Err: ErrOutsideRoot}
	}
	return c, nil
}

// checkGlob refuses a glob that leaves the root: absolute, or with a ".." component.
func checkGlob(g string) error {
	if path.IsAbs(g) || strings.HasPrefix(g, "~") || g == ".." || strings.HasPrefix(g, "../") ||
		strings.Contains(g, "/../") || strings.HasSuffix(g, "/..") {
		return &fs.PathError{Op: "glob", Path: g, Err: ErrOutsideRoot}
	}
	return nil
}

// fileNames are extensionless names that are files, lower case.
var fileNames = map[string]bool{
	"makefile": true, "dockerfile": true, "containerfile": true, "license": true, "licence": true, "readme": true,
	"changelog": true, "authors": true, "contributors": true, "copying": true, "notice": true, "gemfile": true,
	"rakefile": true, "procfile": true, "justfile": true, "vagrantfile": true, "jenkinsfile": true, "brewfile": true,
	"podfile": true, "caddyfile": true, "codeowners": true, "todo": true, ".env": true, ".mailmap": true,
}

// looksLikeFile reports whether a path's last element reads as a file name: a name with an
// extension, a well-known extensionless file, or a dotfile like .gitignore or .bashrc.
func looksLikeFile(p string) bool {
	base := strings.ToLower(path.Base(p))
	if fileNames[base] {
		return true
	}
	if strings.HasPrefix(base, ".") && strings.Count(base, ".") == 1 {
		return strings.HasSuffix(base, "ignore") || strings.HasSuffix(base, "rc") ||
			strings.HasSuffix(base, "attributes") || strings.HasSuffix(base, "config") || strings.HasSuffix(base, "modules")
	}
	// An extension is short, lower case letters and digits with a letter: "fmt.Println"
	// and "v1.2" are no file names.
	name := path.Base(p)
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || i == len(name)-1 || len(name)-i > 9 {
		return false
	}
	letter := false
	for _, r := range name[i+1:] {
		if !unicode.IsLower(r) && !unicode.IsDigit(r) {
			return false
		}
		letter = letter || unicode.IsLetter(r)
	}
	return letter
}

// hasGlobMeta reports whether s holds glob syntax.
func hasGlobMeta(s string) bool { return strings.ContainsAny(s, "*?[{") }

// languages map a language or extension word to the file-name glob of its files.
var languages = map[string]string{
	"go": "*.go", "golang": "*.go", "python": "*.py", "py": "*.py", "javascript": "*.js", "js": "*.js",
	"typescript": "*.ts", "ts": "*.ts", "tsx": "*.tsx", "jsx": "*.jsx", "rust": "*.rs", "rs": "*.rs",
	"java": "*.java", "kotlin": "*.kt", "kt": "*.kt", "ruby": "*.rb", "rb": "*.rb", "c": "*.c", "h": "*.h",
	"header": "*.h", "cpp": "*.cpp", "c++": "*.cpp", "cc": "*.cc", "c#": "*.cs", "csharp": "*.cs", "cs": "*.cs",
	"swift": "*.swift", "php": "*.php", "lua": "*.lua", "shell": "*.sh", "sh": "*.sh", "bash": "*.sh",
	"markdown": "*.md", "md": "*.md", "json": "*.json", "yaml": "*.{yaml,yml}", "yml": "*.{yaml,yml}",
	"toml": "*.toml", "xml": "*.xml", "html": "*.html", "css": "*.css", "scss": "*.scss", "sql": "*.sql",
	"proto": "*.proto", "protobuf": "*.proto", "elisp": "*.el", "emacs lisp": "*.el", "el": "*.el",
	"text": "*.txt", "txt": "*.txt", "csv": "*.csv", "svg": "*.svg", "png": "*.png", "vue": "*.vue",
	"dart": "*.dart", "scala": "*.scala", "haskell": "*.hs", "hs": "*.hs", "elixir": "*.ex", "erlang": "*.erl",
	"zig": "*.zig", "perl": "*.pl", "ini": "*.ini", "log": "*.log", "lisp": "*.lisp", "clojure": "*.clj",
	"r": "*.r", "txtar": "*.txtar", "dockerfile": "Dockerfile", "makefile": "Makefile",
}

// fileGlob maps a word said before "files" ("go", ".ts", "*.md", "config") to a file-name
// glob: the language's extension, an extension as given, or the word inside the name.
// ok is false for words that are no kind of file ("all", "the", "hidden").
func fileGlob(word string) (string, bool) {
	w := strings.ToLower(word)
	if g, ok := languages[w]; ok {
		return g, true
	}
	if ext, ok := strings.CutPrefix(strings.TrimPrefix(w, "*"), "."); ok && ext != "" && pathLike(ext) {
		if g, ok := languages[ext]; ok {
			return g, true
		}
		return "*." + ext, true
	}
	if notPaths[w] || adjectives[w] || !pathLike(w) || strings.ContainsAny(w, "./*?[{") {
		return "", false
	}
	return "*" + w + "*", true
}

// adjectives are words before "files" that say which files, not what they are called.
var adjectives = map[string]bool{
	"every": true, "these": true, "those": true, "hidden": true, "big": true, "large": true,
	"small": true, "recent": true, "new": true, "old": true, "modified": true, "changed": true, "other": true,
	"open": true, "empty": true, "source": true, "project": true, "our": true, "their": true, "of": true, "its": true,
}
