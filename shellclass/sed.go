package shellclass

import (
	"strings"
)

// sedSpec are sed's options (GNU and BSD): -e SCRIPT, -f FILE, -l N take a value, -i and -I
// an attached suffix.
var sedSpec = optSpec{value: "efl", optional: "iI", long: longs("expression", "file", "line-length")}

// sedCmd: sed only prints, unless it edits in place (-i, --in-place; -I on BSD) or its script
// writes files (w FILE, s///w FILE), runs commands (e CMD, s///e) or cannot be read (-f FILE, a
// computed script). Files its script reads (r FILE, R FILE) are checked for secrets. GNU's
// --sandbox refuses e, r and w.
func sedCmd(x *call) verdict {
	opts, operands := sedSpec.scan(x.args)
	v := verdict{ReadOnly, x.name + " without -i only prints"}
	if has(opts, "-i", "-I", "--in-place") {
		v = verdict{Mutating, x.name + " -i edits files in place"}
	}
	if f, ok := optValue(opts, "-f", "--file"); ok {
		v.raise(verdict{Mutating, x.name + " -f runs script file " + f + ", which is not analysed"})
		return v
	}
	// The script is the -e/--expression values joined by newlines, or else the first operand.
	var parts []arg
	for i := 0; i < len(x.args); i++ {
		a := x.args[i]
		if !a.lit {
			continue
		}
		switch {
		case a.val == "--":
			i = len(x.args)
		case a.val == "-e" || a.val == "--expression":
			if i+1 < len(x.args) {
				i++
				parts = append(parts, x.args[i])
			}
		case strings.HasPrefix(a.val, "--expression="):
			parts = append(parts, arg{val: strings.TrimPrefix(a.val, "--expression="), lit: true, key: a.key})
		case len(a.val) > 1 && a.val[0] == '-' && a.val[1] != '-':
			// A cluster such as -ne 's/a/b/' or -nes/a/b/: the value follows the e.
			if j := shortValueAt(a.val, "e"); j > 0 {
				if j < len(a.val) {
					parts = append(parts, arg{val: a.val[j:], lit: true, key: a.key})
				} else if i+1 < len(x.args) {
					i++
					parts = append(parts, x.args[i])
				}
			} else if j := shortValueAt(a.val, "fl"); j == len(a.val) {
				i++ // the value of -f or -l is the next word
			}
		}
	}
	if len(parts) == 0 {
		if len(operands) == 0 {
			return v // sed without a script only prints its usage
		}
		parts = operands[:1]
	}
	texts := make([]string, len(parts))
	for i, p := range parts {
		if !p.lit {
			v.raise(verdict{Mutating, x.name + " script " + p.val + " is computed and may write files or run commands"})
			return v
		}
		texts[i] = p.val
	}
	at := parts[0]
	script := strings.Join(texts, "\n")
	fx, ok := parseSed(script)
	if !ok {
		v.raise(verdict{Mutating, x.name + " script is not understood and may write files or run commands"})
		return v
	}
	if has(opts, "--sandbox") {
		return v
	}
	for _, f := range fx.writes {
		v.raise(writeTarget(x.name+" w", "writes", arg{val: f, lit: true}))
	}
	for _, f := range fx.reads {
		if isSecretPath(f) {
			v.raise(verdict{Mutating, x.name + " r reads secret file " + f})
		}
	}
	for _, cmd := range fx.execs {
		if strings.TrimSpace(cmd) == "" {
			v.raise(verdict{Destructive, x.name + " e runs the text it edits as commands (dynamic code)"})
			continue
		}
		v.raise(verdict{Mutating, x.name + " e runs a command"})
		v.raise(x.script(cmd, at))
	}
	return v
}

// shortValueAt finds, in a short option cluster such as "-ne", the first option in values and
// returns the index where its value starts (len(cluster) when the value is the next word), or 0
// when the cluster holds none of them.
func shortValueAt(cluster, values string) int {
	for j := 1; j < len(cluster); j++ {
		if strings.IndexByte(values, cluster[j]) >= 0 {
			return j + 1
		}
		if strings.IndexByte(sedSpec.value+sedSpec.optional, cluster[j]) >= 0 {
			return 0 // another option takes the rest of the cluster
		}
	}
	return 0
}

// sedEffects are what a sed script does besides printing.
type sedEffects struct {
	writes []string // w FILE, W FILE, s///w FILE
	reads  []string // r FILE, R FILE
	execs  []string // e COMMAND, s///e; "" runs the pattern space
}

// parseSed reads a sed script (GNU syntax, a superset of POSIX and BSD) far enough to find the
// commands that write files, read files or run commands. It reports false for a command it does
// not know, so that such a script is not taken as read-only.
func parseSed(s string) (fx sedEffects, ok bool) {
	i := 0
	skip := func(set string) {
		for i < len(s) && strings.IndexByte(set, s[i]) >= 0 {
			i++
		}
	}
	// toEOL returns the rest of the line (file names and e commands run to the newline).
	toEOL := func() string {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			j = len(s) - i
		}
		t := s[i : i+j]
		i += j
		return t
	}
	// delimited skips a regex or replacement ending at an unescaped delim.
	delimited := func(delim byte) bool {
		for ; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case delim:
				i++
				return true
			}
		}
		return false
	}
	address := func() bool {
		switch {
		case i < len(s) && s[i] == '/':
			i++
			if !delimited('/') {
				return false
			}
			skip("IM")
		case i+1 < len(s) && s[i] == '\\':
			d := s[i+1]
			i += 2
			if !delimited(d) {
				return false
			}
			skip("IM")
		case i < len(s) && s[i] == '$':
			i++
		default:
			skip("0123456789~+")
		}
		return true
	}
	for {
		skip(" \t\n;")
		if i >= len(s) {
			return fx, true
		}
		if s[i] == '#' {
			toEOL()
			continue
		}
		if !address() {
			return fx, false
		}
		skip(" \t")
		if i < len(s) && s[i] == ',' {
			i++
			skip(" \t")
			if !address() {
				return fx, false
			}
		}
		skip(" \t!")
		if i >= len(s) {
			return fx, false // an address without a command
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			skip(" \t0123456789")
		case 'b', 't', 'T', ':', 'v':
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				i++
			}
		case 'a', 'i', 'c':
			// Text to the end of the line; a backslash at the end continues it.
			for i < len(s) && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		case 'r', 'R':
			fx.reads = append(fx.reads, strings.TrimSpace(toEOL()))
		case 'w', 'W':
			fx.writes = append(fx.writes, strings.TrimLeft(toEOL(), " \t"))
		case 'e':
			fx.execs = append(fx.execs, strings.TrimLeft(toEOL(), " \t"))
		case 'y', 's':
			if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
				return fx, false
			}
			d := s[i]
			i++
			if !delimited(d) || !delimited(d) {
				return fx, false
			}
			if c == 's' && !sedFlags(s, &i, &fx) {
				return fx, false
			}
		default:
			return fx, false
		}
	}
}

// sedFlags reads the flags of an s command from s[*i]: g p i I m M e, a number, and w FILE,
// which takes the rest of the line.
func sedFlags(s string, i *int, fx *sedEffects) bool {
	for ; *i < len(s); *i++ {
		switch ch := s[*i]; {
		case strings.IndexByte("gpiImM0123456789", ch) >= 0:
		case ch == 'e':
			fx.execs = append(fx.execs, "")
		case ch == 'w':
			*i++
			j := strings.IndexByte(s[*i:], '\n')
			if j < 0 {
				j = len(s) - *i
			}
			fx.writes = append(fx.writes, strings.TrimLeft(s[*i:*i+j], " \t"))
			*i += j
			return true
		case strings.IndexByte(" \t\n;}#", ch) >= 0:
			return true
		default:
			return false
		}
	}
	return true
}
