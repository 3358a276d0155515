package ignore

import (
	"bytes"
	"errors"
	"strings"
)

// ExcludesFilePath returns the path of git's global excludes file:
// core.excludesFile from the XDG config ($XDG_CONFIG_HOME/git/config, default
// ~/.config/git/config), the user config (~/.gitconfig) and the repository
// config, later ones overriding earlier ones as in git; when unset,
// $XDG_CONFIG_HOME/git/ignore (default ~/.config/git/ignore). A leading "~/"
// expands to home. It returns "" when there is no such file to read: home is ""
// and the path needs it, or the value is empty (git then reads nothing).
//
// A file with a syntax error (which makes git itself fail) contributes the
// values before the error. A bare "excludesFile" (no "="), which git rejects,
// is skipped.
func ExcludesFilePath(home, xdgConfigHome string, xdgConfig, userConfig, repoConfig []byte) string {
	value, set := "", false
	for _, data := range [][]byte{xdgConfig, userConfig, repoConfig} {
		_ = parseGitConfig(data, func(name, v string, hasValue bool) {
			if name == "core.excludesfile" && hasValue {
				value, set = v, true
			}
		})
	}
	if set {
		return expandHome(value, home)
	}
	if xdgConfigHome != "" {
		return xdgConfigHome + "/git/ignore"
	}
	if home == "" {
		return ""
	}
	return home + "/.config/git/ignore"
}

// expandHome expands a leading "~" or "~/" as git's interpolate_path does.
// "~user/" forms are not resolved (no I/O here): they yield "".
func expandHome(path, home string) string {
	if !strings.HasPrefix(path, "~") {
		return path
	}
	rest := path[1:]
	if rest != "" && rest[0] != '/' {
		return "" // ~user
	}
	if home == "" {
		return ""
	}
	return home + rest
}

var errBadConfig = errors.New("bad git config line")

// parseGitConfig reads git config text the way git's config.c does and calls
// fn for each variable: name is "section.key" or "section.subsection.key" with
// section and key lowercased; hasValue is false for a bare key (boolean true).
// It stops at the first syntax error and returns errBadConfig.
func parseGitConfig(data []byte, fn func(name, value string, hasValue bool)) error {
	r := configReader{data: bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))}
	section := "" // "core." once inside [core]
	comment := false
	for {
		c := r.next()
		switch {
		case c == '\n':
			if r.eof {
				return nil
			}
			comment = false
		case comment || isConfigSpace(c):
		case c == '#' || c == ';':
			comment = true
		case c == '[':
			name, ok := r.sectionName()
			if !ok || name == "" {
				return errBadConfig
			}
			section = name + "."
		case isAlpha(c):
			key, value, hasValue, ok := r.variable(c)
			if !ok {
				return errBadConfig
			}
			fn(section+key, value, hasValue)
		default:
			return errBadConfig
		}
	}
}

// configReader yields the bytes of a config file with "\r\n" folded to "\n"
// and a final "\n" (then eof) at the end, like git's get_next_char.
type configReader struct {
	data []byte
	pos  int
	eof  bool
}

func (r *configReader) next() byte {
	if r.pos >= len(r.data) {
		r.eof = true
		return '\n'
	}
	c := r.data[r.pos]
	r.pos++
	if c == '\r' && r.pos < len(r.data) && r.data[r.pos] == '\n' {
		r.pos++
		c = '\n'
	}
	return c
}

// sectionName reads the rest of "[section]" or `[section "subsection"]`.
func (r *configReader) sectionName() (string, bool) {
	var b []byte
	for {
		c := r.next()
		switch {
		case r.eof:
			return "", false
		case c == ']':
			return string(b), true
		case isConfigSpace(c):
			return r.subsection(b, c)
		case !isKeyChar(c) && c != '.':
			return "", false
		}
		b = append(b, toLower(c))
	}
}

// subsection reads ` "subsection"]` after a section name; the subsection keeps
// its case and "\x" stands for x.
func (r *configReader) subsection(b []byte, c byte) (string, bool) {
	for isConfigSpace(c) {
		if c == '\n' {
			return "", false
		}
		c = r.next()
	}
	if c != '"' {
		return "", false
	}
	b = append(b, '.')
	for {
		c = r.next()
		if c == '\n' {
			return "", false
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = r.next(); c == '\n' {
				return "", false
			}
		}
		b = append(b, c)
	}
	if r.next() != ']' {
		return "", false
	}
	return string(b), true
}

// variable reads "key", "key = value" or "key=value" whose first byte is c.
func (r *configReader) variable(c byte) (key, value string, hasValue, ok bool) {
	name := []byte{toLower(c)}
	for {
		c = r.next()
		if r.eof || !isKeyChar(c) {
			break
		}
		name = append(name, toLower(c))
	}
	for c == ' ' || c == '\t' {
		c = r.next()
	}
	if c == '\n' {
		return string(name), "", false, true
	}
	if c != '=' {
		return "", "", false, false
	}
	value, ok = r.value()
	return string(name), value, true, ok
}

// value reads a value up to the end of its line: surrounding whitespace is
// dropped, inner whitespace runs outside quotes become spaces, "#" and ";"
// start a comment outside quotes, and \" \\ \n \t \b and backslash-newline
// are the only escapes.
func (r *configReader) value() (string, bool) {
	var b []byte
	quote, comment, spaces := false, false, 0
	for {
		c := r.next()
		switch {
		case c == '\n':
			return string(b), !quote
		case comment:
			continue
		case isConfigSpace(c) && !quote:
			if len(b) > 0 {
				spaces++
			}
			continue
		case !quote && (c == ';' || c == '#'):
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			b = append(b, ' ')
		}
		switch c {
		case '\\':
			switch c = r.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", false
			}
			b = append(b, c)
		case '"':
			quote = !quote
		default:
			b = append(b, c)
		}
	}
}

// isConfigSpace is git's isspace: only space, \t, \n and \r.
func isConfigSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool   { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isKeyChar(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' || c == '-' }
func toLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
