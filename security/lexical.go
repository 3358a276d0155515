package security

import (
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the lexical check (Linux PATH_MAX and NAME_MAX; a generous depth).
const (
	maxPathBytes      = 4096
	maxComponents     = 256
	maxComponentBytes = 255
)

// lookalikes are characters that render like '.', '/' or '\' and could make a name read as
// something it is not (U+2024 ONE DOT LEADER, U+2215 DIVISION SLASH, ...).
var lookalikes = map[rune]bool{
	0x2024: true, 0x2025: true, 0x2026: true, 0xFE52: true, 0xFF0E: true, 0x3002: true, 0xFF61: true, // dots
	0x2215: true, 0x2044: true, 0xFF0F: true, 0x29F8: true, 0x2571: true, // slashes
	0x2216: true, 0x29F5: true, 0x29F9: true, 0xFE68: true, 0xFF3C: true, // backslashes
}

// cleanName is a lexically valid, root-relative name split into components.
type cleanName struct {
	parts []string // no "" or "." components; ".." kept for the walk to apply
	dir   bool     // the name ended in "/" (or "/."): it must denote a directory
}

// String joins the components with '/', "." for the root, and keeps a trailing '/'.
func (c cleanName) String() string {
	if len(c.parts) == 0 {
		return "."
	}
	s := strings.Join(c.parts, "/")
	if c.dir {
		s += "/"
	}
	return s
}

// Clean checks name lexically and returns it as a slash-separated root-relative name
// ("." for the root; a trailing '/' is kept since it asserts a directory). Empty and
// dot components are dropped but ".." is not resolved lexically, since a symlink before it
// changes its meaning: only a leading ".." is refused here, the others are decided by the
// real walk in Resolve. Absolute names are accepted only when they are component-wise
// inside the root. Clean(Clean(x)) == Clean(x).
func (r *Root) Clean(name string) (string, error) {
	c, err := r.clean("clean", name)
	if err != nil {
		return "", err
	}
	return c.String(), nil
}

// clean is Clean for the other methods.
func (r *Root) clean(op, name string) (cleanName, error) {
	c, err := r.split(name)
	if err != nil {
		return cleanName{}, &fs.PathError{Op: op, Path: printable(name), Err: err}
	}
	return c, nil
}

// printable returns name, quoted if it holds invalid UTF-8 or invisible characters, so
// that the control and bidi characters of a refused name never reach a message verbatim.
func printable(name string) string {
	if utf8.ValidString(name) && strings.IndexFunc(name, invisible) < 0 {
		return name
	}
	return strconv.Quote(name)
}

// invisible reports control, format (bidi, zero-width) and line-separator characters.
func invisible(c rune) bool {
	return unicode.IsControl(c) || unicode.In(c, unicode.Cf, unicode.Zl, unicode.Zp)
}

// split checks name and splits it into root-relative components.
func (r *Root) split(name string) (cleanName, error) {
	parts, err := splitChecked(name)
	if err != nil {
		return cleanName{}, err
	}
	dir := strings.HasSuffix(name, "/") || strings.HasSuffix(name, "/.")
	if strings.HasPrefix(name, "/") {
		if parts, err = r.relative(parts); err != nil {
			return cleanName{}, err
		}
	}
	switch {
	case len(parts) > maxComponents:
		return cleanName{}, detail(ErrInvalidPath, "more than %d components", maxComponents)
	case len(parts) > 0 && parts[0] == "..":
		return cleanName{}, detail(ErrOutsideRoot, "'..' climbs above the project root")
	case len(parts) > 0 && strings.HasPrefix(parts[0], "~"):
		return cleanName{}, detail(ErrInvalidPath, "'~' is not expanded; use a path relative to the project root")
	}
	return cleanName{parts: parts, dir: dir}, nil
}

// relative strips the root's host components from an absolute name, comparing whole
// components (so /root_evil is not inside /root) against the root as given and as
// resolved. No lexical Clean: a ".." after the prefix is left to the walk.
func (r *Root) relative(parts []string) ([]string, error) {
	for _, prefix := range r.prefix {
		if len(parts) >= len(prefix) && slices.Equal(parts[:len(prefix)], prefix) {
			return parts[len(prefix):], nil
		}
	}
	return nil, detail(ErrOutsideRoot, "absolute path is not inside the project root")
}

// splitChecked validates s (characters, lengths) and splits it into components, dropping
// empty and "." ones. It is applied to names from callers and to symlink targets alike, so
// that canonical paths pass the same checks.
func splitChecked(s string) ([]string, error) {
	if s == "" {
		return nil, detail(ErrInvalidPath, "empty path")
	}
	if len(s) > maxPathBytes {
		return nil, detail(ErrInvalidPath, "longer than %d bytes", maxPathBytes)
	}
	if !utf8.ValidString(s) {
		return nil, detail(ErrInvalidPath, "not valid UTF-8")
	}
	for _, c := range s {
		if err := checkRune(c); err != nil {
			return nil, err
		}
	}
	var parts []string
	for p := range strings.SplitSeq(s, "/") {
		if p == "" || p == "." {
			continue
		}
		if err := checkComponent(p); err != nil {
			return nil, err
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// checkRune refuses characters that are invisible, reorder text, or imitate separators.
func checkRune(c rune) error {
	switch {
	case c == '\\':
		return detail(ErrInvalidPath, "backslash; use '/' as the separator")
	case invisible(c):
		return detail(ErrInvalidPath, "control, format or invisible character %U", c)
	case lookalikes[c]:
		return detail(ErrInvalidPath, "character %U looks like a dot or a slash", c)
	}
	return nil
}

// checkComponent refuses over-long components, all-dot names other than "." and "..", and
// names ending in a dot or a space (aliases of another name on Windows file systems).
func checkComponent(p string) error {
	switch {
	case p == "..":
		return nil
	case len(p) > maxComponentBytes:
		return detail(ErrInvalidPath, "component longer than %d bytes", maxComponentBytes)
	case strings.Trim(p, ".") == "":
		return detail(ErrInvalidPath, "component %q is only dots", p)
	case strings.HasSuffix(p, ".") || strings.HasSuffix(p, " "):
		return detail(ErrInvalidPath, "component %q ends in a dot or a space", p)
	}
	return nil
}
