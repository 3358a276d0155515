package shellclass

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// arg is one word of a command after brace expansion and quote removal, as the program will see it.
type arg struct {
	val string // the literal value, or the source text when the word is not literal
	lit bool   // false when the value depends on $var, $(...), a glob, ...
	key []int  // source position, for ordering the commands found
}

// words turns the words of a simple command into args. Brace expansion ({a,b}) is applied
// as bash does, since it can build a command name: {rm,-rf,x} runs rm -rf x.
func (c *classifier) words(ctx *pctx, ws []*syntax.Word) []arg {
	out := make([]arg, 0, len(ws))
	for _, w := range ws {
		out = append(out, c.word(ctx, w)...)
	}
	return out
}

func (c *classifier) word(ctx *pctx, w *syntax.Word) []arg {
	if len(w.Parts) == 0 {
		return []arg{{val: "", lit: true, key: ctx.key(syntax.Pos{})}}
	}
	key, src := ctx.key(w.Pos()), ctx.text(w)
	if syntax.SplitBraces(w) {
		// An expansion that is too large, or not literal, is left as one non-literal word.
		limit := min(maxBraceWords, c.braceBudget)
		words, ok := braceWords(w.Parts, limit, maxBraceBytes)
		if !ok || len(words) == 0 {
			return []arg{{val: src, lit: false, key: key}}
		}
		c.braceBudget -= len(words)
		out := make([]arg, len(words))
		for i, v := range words {
			out[i] = arg{val: v, lit: true, key: key}
		}
		return out
	}
	if v, ok := literal(w); ok {
		return []arg{{val: v, lit: true, key: key}}
	}
	return []arg{{val: src, lit: false, key: key}}
}

// braceWords expands the brace expressions in parts (split by syntax.SplitBraces) into
// literal words, as bash does. It reports false when a part is not literal, or the expansion
// would make more than limit words or more than maxBytes bytes; it never builds more.
func braceWords(parts []syntax.WordPart, limit, maxBytes int) ([]string, bool) {
	words := []string{""}
	for _, part := range parts {
		br, isBrace := part.(*syntax.BraceExp)
		if !isBrace {
			s, ok := partLiteral(part)
			if !ok || len(words)*(len(words[0])+len(s)) > maxBytes {
				return nil, false
			}
			for i := range words {
				words[i] += s
			}
			continue
		}
		var alts []string
		if br.Sequence {
			seq, ok := braceSequence(br, limit)
			if !ok {
				return nil, false
			}
			alts = seq
		} else {
			for _, e := range br.Elems {
				sub, ok := braceWords(e.Parts, limit-len(alts), maxBytes)
				if !ok {
					return nil, false
				}
				alts = append(alts, sub...)
			}
		}
		if len(words)*len(alts) > limit {
			return nil, false
		}
		next := make([]string, 0, len(words)*len(alts))
		size := 0
		for _, w := range words {
			for _, a := range alts {
				if size += len(w) + len(a); size > maxBytes {
					return nil, false
				}
				next = append(next, w+a)
			}
		}
		words = next
	}
	return words, true
}

// braceSequence expands {from..to[..step]}: integers (zero-padded when an end has a leading
// zero) or single characters. It reports false for more than limit elements.
func braceSequence(br *syntax.BraceExp, limit int) ([]string, bool) {
	if len(br.Elems) < 2 {
		return nil, false
	}
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	chars := err1 != nil || err2 != nil
	if chars {
		if len(fromLit) != 1 || len(toLit) != 1 {
			return nil, false
		}
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	const bound = 1 << 40 // keeps the arithmetic below from overflowing
	if from > bound || from < -bound || to > bound || to < -bound {
		return nil, false
	}
	step := int64(1)
	if len(br.Elems) > 2 {
		n, err := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
		if err != nil || n > bound || n < -bound {
			return nil, false
		}
		if n < 0 {
			n = -n
		}
		if n != 0 {
			step = n
		}
	}
	span := to - from
	if span < 0 {
		span, step = -span, -step
	}
	if span/max(step, -step)+1 > int64(limit) {
		return nil, false
	}
	width := 0
	if !chars && (hasLeadingZeros(fromLit) || hasLeadingZeros(toLit)) {
		width = max(len(fromLit), len(toLit))
	}
	var out []string
	for n := from; (step > 0 && n <= to) || (step < 0 && n >= to); n += step {
		switch {
		case chars:
			out = append(out, string(rune(n)))
		case width > 0:
			out = append(out, fmt.Sprintf("%0*d", width, n))
		default:
			out = append(out, strconv.FormatInt(n, 10))
		}
	}
	return out, true
}

func hasLeadingZeros(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

// literal is the value of a word that has no expansions: quotes removed, escapes applied.
// It reports false for words holding parameters, substitutions, arithmetic or unquoted globs.
func literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	if len(w.Parts) == 1 {
		return partLiteral(w.Parts[0])
	}
	var b strings.Builder
	for _, part := range w.Parts {
		s, ok := partLiteral(part)
		if !ok {
			return "", false
		}
		b.WriteString(s)
	}
	return b.String(), true
}

// partLiteral is the value of one word part without expansions.
func partLiteral(part syntax.WordPart) (string, bool) {
	var b strings.Builder
	switch p := part.(type) {
	case *syntax.Lit:
		if hasGlob(p.Value) {
			return "", false
		}
		if !strings.ContainsRune(p.Value, '\\') {
			return p.Value, true
		}
		unescape(&b, p.Value, "")
	case *syntax.SglQuoted:
		if !p.Dollar {
			return p.Value, true
		}
		// $'...' escapes. A nil Config would share (and race on) the package's zero Config.
		s, err := expand.Literal(&expand.Config{}, &syntax.Word{Parts: []syntax.WordPart{p}})
		return s, err == nil
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			lit, ok := q.(*syntax.Lit)
			if !ok {
				return "", false
			}
			unescape(&b, lit.Value, "$`\"\\")
		}
	default:
		return "", false
	}
	return b.String(), true
}

// unescape writes s with backslash escapes removed. With special == "" (unquoted text) a
// backslash escapes any character; otherwise (inside double quotes or a heredoc) only the
// characters in special, and other backslashes stay. A backslash-newline is removed.
func unescape(b *strings.Builder, s, special string) {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch != '\\' || i+1 == len(s) {
			b.WriteByte(ch)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case special == "" || strings.IndexByte(special, next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(ch)
		}
	}
}

// hasGlob reports whether unquoted text holds an unescaped glob: *, ? or [...].
func hasGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.IndexByte(s[i+1:], ']') >= 0 {
				return true
			}
		}
	}
	return false
}

// Where a command's standard input comes from, as far as its redirections tell.
const (
	inInherited = iota // a pipe or the caller's input: unknown content
	inFile             // < file
	inScript           // a heredoc or here-string with literal text
	inDynamic          // computed content: <(...), <<<"$x", <&3, ...
)

// input is a command's standard input.
type input struct {
	kind int
	text string // the heredoc or here-string text (inScript), or the file name (inFile)
	key  []int
}

// stdinOf finds where the standard input of a command with these redirections comes from.
func stdinOf(ctx *pctx, redirs []*syntax.Redirect) input {
	in := input{}
	for _, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn:
			if v, ok := literal(r.Word); ok {
				in = input{kind: inFile, text: v}
			} else {
				in = input{kind: inDynamic}
			}
		case syntax.Hdoc, syntax.DashHdoc:
			if text, ok := heredoc(r); ok {
				in = input{kind: inScript, text: text, key: ctx.key(r.OpPos)}
			} else {
				in = input{kind: inDynamic}
			}
		case syntax.WordHdoc:
			if v, ok := literal(r.Word); ok {
				in = input{kind: inScript, text: v + "\n", key: ctx.key(r.OpPos)}
			} else {
				in = input{kind: inDynamic}
			}
		case syntax.DplIn, syntax.RdrInOut:
			in = input{kind: inDynamic}
		}
	}
	return in
}

// heredoc is the text of a here-document when it has no expansions. With a quoted delimiter
// (<<'EOF') the body is literal whatever it holds.
func heredoc(r *syntax.Redirect) (string, bool) {
	if r.Hdoc == nil {
		return "", true
	}
	quoted := false
	if r.Word != nil {
		for _, p := range r.Word.Parts {
			if lit, ok := p.(*syntax.Lit); !ok || strings.Contains(lit.Value, `\`) {
				quoted = true
			}
		}
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		if quoted {
			b.WriteString(lit.Value)
		} else {
			unescape(&b, lit.Value, "$`\\")
		}
	}
	return b.String(), true
}

// harmlessTargets are files a redirection may write without changing anything.
var harmlessTargets = map[string]bool{
	"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/stdin": true,
	"/dev/tty": true, "/dev/zero": true, "/dev/full": true,
}

// redirects classifies a statement's redirections (and the substitutions and heredoc bodies in
// them), returning the riskiest and the position of the redirection that caused it.
func (c *classifier) redirects(ctx *pctx, redirs []*syntax.Redirect, depth int) (verdict, []int) {
	v := verdict{ReadOnly, "read-only command"}
	var at []int
	for _, r := range redirs {
		c.subst(ctx, r.Word, depth)
		if r.Hdoc != nil {
			c.subst(ctx, r.Hdoc, depth)
		}
		rv := redirect(ctx, r)
		if rv.Class > v.Class {
			v, at = rv, ctx.key(r.Pos())
		}
	}
	return v, at
}

// redirect classifies one redirection: writing a file is Mutating, writing a device Destructive;
// input, heredocs, fd duplication (2>&1) and /dev/null are harmless.
func redirect(ctx *pctx, r *syntax.Redirect) verdict {
	harmless := verdict{ReadOnly, "read-only command"}
	if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc {
		if target, ok := literal(r.Word); ok && isNetDevice(target) {
			return verdict{Network, "redirection opens a network connection to " + target}
		}
	}
	verb := "writes"
	switch r.Op {
	case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob:
	case syntax.AppOut, syntax.AppClob, syntax.AppAll, syntax.AppAllClob:
		verb = "appends to"
	case syntax.RdrInOut:
		verb = "opens for writing"
	case syntax.DplOut:
		if v, ok := literal(r.Word); ok && isFdDup(v) {
			return harmless
		}
	case syntax.RdrIn:
		if target, ok := literal(r.Word); ok && isSecretPath(target) {
			return verdict{Mutating, "redirection reads secret file " + target}
		}
		return harmless
	default: // <<, <<<, <&
		return harmless
	}
	if r.Word == nil {
		return harmless
	}
	if len(r.Word.Parts) == 1 {
		if _, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
			return harmless // > >(cmd): the commands inside are classified on their own
		}
	}
	target, ok := literal(r.Word)
	if !ok {
		return verdict{Mutating, "redirection " + verb + " a computed path " + ctx.text(r.Word)}
	}
	clean := path.Clean(target)
	switch {
	case harmlessTargets[clean] || strings.HasPrefix(clean, "/dev/fd/"):
		return harmless
	case strings.HasPrefix(clean, "/dev/"):
		return verdict{Destructive, "redirection writes to device " + target}
	}
	return verdict{Mutating, "redirection " + verb + " " + target}
}

// isNetDevice reports whether path is one of bash's network pseudo-files, /dev/tcp/HOST/PORT
// and /dev/udp/HOST/PORT, which open a connection when redirected to or from.
func isNetDevice(p string) bool {
	p = path.Clean(p)
	return strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/")
}

// isFdDup reports whether the target of >& is a file descriptor ("1", "2-") or "-" (close).
func isFdDup(s string) bool {
	s = strings.TrimSuffix(s, "-")
	if s == "" {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
