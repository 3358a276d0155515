package runtime

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Bounds of the pattern matcher.
const (
	maxCaptures   = 32   // LUA_MAXCAPTURES
	maxMatchDepth = 200  // recursion of match, as Lua 5.2's MAXCCALLS
	pollSteps     = 1024 // steps between two charges to the budget and checks of the context
)

// Capture lengths that are not lengths.
const (
	capUnfinished = -1
	capPosition   = -2
)

type capture struct{ init, len int }

// matcher is Lua 5.1's pattern matcher (lstrlib.c) on a step budget. gopher-lua's own matcher
// is uninterruptible and backtracks exponentially (issue #521); this one counts its steps,
// charges them every pollSteps to the call's instruction budget and checks the call's context,
// so a pathological pattern ends with the call's deadline or budget. Its recursion, which grows
// with the pattern, is capped at maxMatchDepth. Errors are raised on L.
type matcher struct {
	L        *lua.LState
	c        *callCtx
	src, pat string
	p0       int  // where the pattern starts: 1 after an anchoring ^
	anchored bool // the pattern started with ^
	level    int  // captures open or closed so far
	capture  [maxCaptures]capture
	depth    int
	steps    int64
}

// newMatcher prepares matching pat in src; with anchorable, a leading ^ anchors the match.
func newMatcher(L *lua.LState, src, pat string, anchorable bool) *matcher {
	m := &matcher{L: L, c: callOf(L), src: src, pat: pat}
	if anchorable && strings.HasPrefix(pat, "^") {
		m.anchored, m.p0 = true, 1
	}
	return m
}

// start matches the pattern at s and returns the end of the match, or -1.
func (m *matcher) start(s int) int {
	m.level, m.depth = 0, 0
	return m.match(s, m.p0)
}

// tick counts n steps of work.
func (m *matcher) tick(n int64) {
	m.steps += n
	if m.steps >= pollSteps {
		m.c.spend(m.L, m.steps)
		m.steps = 0
	}
}

func (m *matcher) errorf(format string, args ...any) {
	m.L.RaiseError(format, args...)
}

// match is Lua 5.1's match: it returns the end of the match of pat[p:] at src[s:], or -1.
func (m *matcher) match(s, p int) int {
	if m.depth++; m.depth > maxMatchDepth {
		raiseLimit(m.L, "pattern too complex (nesting over %d)", maxMatchDepth)
	}
	end := m.matchHere(s, p)
	m.depth--
	return end
}

func (m *matcher) matchHere(s, p int) int {
	pat, src := m.pat, m.src
	for {
		m.tick(1)
		if p == len(pat) {
			return s
		}
		switch pat[p] {
		case '(':
			if p+1 < len(pat) && pat[p+1] == ')' {
				return m.startCapture(s, p+2, capPosition)
			}
			return m.startCapture(s, p+1, capUnfinished)
		case ')':
			return m.endCapture(s, p+1)
		case '$':
			if p+1 == len(pat) {
				if s == len(src) {
					return s
				}
				return -1
			}
		case '%':
			if p+1 < len(pat) {
				switch c := pat[p+1]; {
				case c == 'b':
					if s = m.matchBalance(s, p+2); s < 0 {
						return -1
					}
					p += 4
					continue
				case c == 'f':
					p += 2
					if p >= len(pat) || pat[p] != '[' {
						m.errorf("missing '[' after '%%f' in pattern")
					}
					ep := m.classEnd(p)
					prev, cur := byte(0), byte(0)
					if s > 0 {
						prev = src[s-1]
					}
					if s < len(src) {
						cur = src[s]
					}
					if matchBracketClass(prev, pat, p, ep-1) || !matchBracketClass(cur, pat, p, ep-1) {
						return -1
					}
					p = ep
					continue
				case isDigit(c):
					if s = m.matchCapture(s, c); s < 0 {
						return -1
					}
					p += 2
					continue
				}
			}
		}
		// A single-character class, maybe followed by a repetition.
		ep := m.classEnd(p)
		ok := s < len(src) && singleMatch(src[s], pat, p, ep)
		if ep < len(pat) {
			switch pat[ep] {
			case '?':
				if ok {
					if end := m.match(s+1, ep+1); end >= 0 {
						return end
					}
				}
				p = ep + 1
				continue
			case '*':
				return m.maxExpand(s, p, ep)
			case '+':
				if !ok {
					return -1
				}
				return m.maxExpand(s+1, p, ep)
			case '-':
				return m.minExpand(s, p, ep)
			}
		}
		if !ok {
			return -1
		}
		s, p = s+1, ep
	}
}

// maxExpand matches as many repetitions of the class at p as possible, then backtracks.
func (m *matcher) maxExpand(s, p, ep int) int {
	i := 0
	for s+i < len(m.src) && singleMatch(m.src[s+i], m.pat, p, ep) {
		i++
		m.tick(1)
	}
	for ; i >= 0; i-- {
		if end := m.match(s+i, ep+1); end >= 0 {
			return end
		}
	}
	return -1
}

// minExpand matches as few repetitions of the class at p as possible.
func (m *matcher) minExpand(s, p, ep int) int {
	for {
		if end := m.match(s, ep+1); end >= 0 {
			return end
		}
		if s >= len(m.src) || !singleMatch(m.src[s], m.pat, p, ep) {
			return -1
		}
		s++
	}
}

func (m *matcher) startCapture(s, p, what int) int {
	if m.level >= maxCaptures {
		m.errorf("too many captures")
	}
	m.capture[m.level] = capture{init: s, len: what}
	m.level++
	end := m.match(s, p)
	if end < 0 {
		m.level--
	}
	return end
}

func (m *matcher) endCapture(s, p int) int {
	l := m.captureToClose()
	m.capture[l].len = s - m.capture[l].init
	end := m.match(s, p)
	if end < 0 {
		m.capture[l].len = capUnfinished
	}
	return end
}

func (m *matcher) captureToClose() int {
	for l := m.level - 1; l >= 0; l-- {
		if m.capture[l].len == capUnfinished {
			return l
		}
	}
	m.errorf("invalid pattern capture")
	return 0
}

// matchBalance matches %bxy at s.
func (m *matcher) matchBalance(s, p int) int {
	if p+1 >= len(m.pat) {
		m.errorf("missing arguments to '%%b'")
	}
	if s >= len(m.src) || m.src[s] != m.pat[p] {
		return -1
	}
	open, close, depth := m.pat[p], m.pat[p+1], 1
	for s++; s < len(m.src); s++ {
		m.tick(1)
		switch m.src[s] {
		case close:
			if depth--; depth == 0 {
				return s + 1
			}
		case open:
			depth++
		}
	}
	return -1
}

// matchCapture matches a back reference %1-%9 at s.
func (m *matcher) matchCapture(s int, c byte) int {
	l := int(c - '1')
	if l < 0 || l >= m.level || m.capture[l].len == capUnfinished {
		m.errorf("invalid capture index %%%c", c)
	}
	cp := m.capture[l]
	if cp.len < 0 { // a position capture matches nothing, as in Lua's unsigned comparison
		return -1
	}
	m.tick(int64(cp.len) / 64)
	if len(m.src)-s >= cp.len && m.src[s:s+cp.len] == m.src[cp.init:cp.init+cp.len] {
		return s + cp.len
	}
	return -1
}

// classEnd returns the index after the single-character class at p.
func (m *matcher) classEnd(p int) int {
	pat := m.pat
	c := pat[p]
	p++
	switch c {
	case '%':
		if p >= len(pat) {
			m.errorf("malformed pattern (ends with '%%')")
		}
		return p + 1
	case '[':
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		for { // look for a ']'; the first character is never the end
			if p >= len(pat) {
				m.errorf("malformed pattern (missing ']')")
			}
			c := pat[p]
			p++
			if c == '%' && p < len(pat) {
				p++
			}
			if p < len(pat) && pat[p] == ']' {
				return p + 1
			}
		}
	}
	return p
}

// singleMatch reports whether c matches the class pat[p:ep].
func singleMatch(c byte, pat string, p, ep int) bool {
	switch pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, pat[p+1])
	case '[':
		return matchBracketClass(c, pat, p, ep-1)
	}
	return pat[p] == c
}

// matchBracketClass reports whether c matches the set pat[p:ec+1], from [ to ].
func matchBracketClass(c byte, pat string, p, ec int) bool {
	sig := true
	if pat[p+1] == '^' {
		sig = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case pat[p] == '%':
			p++
			if matchClass(c, pat[p]) {
				return sig
			}
		case pat[p+1] == '-' && p+2 < ec:
			p += 2
			if pat[p-2] <= c && c <= pat[p] {
				return sig
			}
		case pat[p] == c:
			return sig
		}
	}
	return !sig
}

// matchClass reports whether c is in the class %cl, in the C locale.
func matchClass(c, cl byte) bool {
	var res bool
	switch cl | 0x20 {
	case 'a':
		res = isAlpha(c)
	case 'c':
		res = c < 0x20 || c == 0x7f
	case 'd':
		res = isDigit(c)
	case 'l':
		res = 'a' <= c && c <= 'z'
	case 'p':
		res = 0x21 <= c && c <= 0x7e && !isAlpha(c) && !isDigit(c)
	case 's':
		res = c == ' ' || '\t' <= c && c <= '\r'
	case 'u':
		res = 'A' <= c && c <= 'Z'
	case 'w':
		res = isAlpha(c) || isDigit(c)
	case 'x':
		res = isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f'
	case 'z':
		res = c == 0
	default:
		return cl == c
	}
	if 'A' <= cl && cl <= 'Z' {
		return !res
	}
	return res
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// pushCaptures pushes the captures of a match at src[s:e]: the whole match if there are none
// and whole is set.
func (m *matcher) pushCaptures(s, e int, whole bool) int {
	n := m.level
	if n == 0 && whole {
		n = 1
	}
	for i := range n {
		m.L.Push(m.captureValue(i, s, e))
	}
	return n
}

// captureValue is capture i of a match at src[s:e] (capture 0 is the whole match when there are
// no captures); a position capture is a number.
func (m *matcher) captureValue(i, s, e int) lua.LValue {
	if i >= m.level {
		if i != 0 {
			m.errorf("invalid capture index %%%d", i+1)
		}
		return lua.LString(m.src[s:e])
	}
	switch cp := m.capture[i]; cp.len {
	case capUnfinished:
		m.errorf("unfinished capture")
	case capPosition:
		return lua.LNumber(cp.init + 1)
	default:
		return lua.LString(m.src[cp.init : cp.init+cp.len])
	}
	return lua.LNil
}

// addValue appends to b the replacement of the match src[s:e] by repl, as Lua 5.1's add_value.
func (m *matcher) addValue(b *capped, s, e int, repl lua.LValue) {
	L := m.L
	var v lua.LValue
	switch r := repl.(type) {
	case lua.LString, lua.LNumber:
		m.addString(b, s, e, lua.LVAsString(r))
		return
	case *lua.LTable:
		v = L.GetTable(r, m.captureValue(0, s, e))
	case *lua.LFunction:
		L.Push(r)
		L.Call(m.pushCaptures(s, e, true), 1)
		v = L.Get(-1)
		L.Pop(1)
	}
	switch v.Type() {
	case lua.LTNil:
		b.add(m.src[s:e])
	case lua.LTBool:
		if v == lua.LFalse {
			b.add(m.src[s:e])
			return
		}
		m.errorf("invalid replacement value (a boolean)")
	case lua.LTString, lua.LTNumber:
		b.add(lua.LVAsString(v))
	default:
		m.errorf("invalid replacement value (a %s)", v.Type())
	}
}

// addString appends the replacement string repl, with %0-%9 replaced by captures.
func (m *matcher) addString(b *capped, s, e int, repl string) {
	for {
		i := strings.IndexByte(repl, '%')
		if i < 0 {
			b.add(repl)
			return
		}
		b.add(repl[:i])
		if i+1 == len(repl) {
			m.errorf("invalid use of '%%' in replacement string")
		}
		switch c := repl[i+1]; {
		case c == '0':
			b.add(m.src[s:e])
		case isDigit(c):
			b.add(lua.LVAsString(m.captureValue(int(c-'1'), s, e)))
		default:
			b.addByte(c)
		}
		repl = repl[i+2:]
	}
}
