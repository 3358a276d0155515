package planshell

import (
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/afero"
)

// visit is called by walk for each entry; it returns whether to descend into it.
type visit func(display string, info fs.FileInfo, depth int) bool

// walk visits display (whose Fs name is name) and the tree below it, depth first in
// name order. A directory that cannot be read is reported and makes walk return false.
func (c *call) walk(display, name string, info fs.FileInfo, depth int, fn visit) (bool, error) {
	if err := c.ctx.Err(); err != nil {
		return false, err
	}
	if !fn(display, info, depth) || !info.IsDir() {
		return true, nil
	}
	infos, err := afero.ReadDir(c.fsys, name)
	if err != nil {
		c.report(display, err)
		return false, nil
	}
	ok := true
	for _, child := range infos {
		cok, err := c.walk(joinDisplay(display, child.Name()), path.Join(name, child.Name()), child, depth+1, fn)
		if err != nil {
			return false, err
		}
		ok = ok && cok
	}
	return ok, nil
}

// find [path...] [expression]: the expression is an implicit "and" of -name, -iname,
// -path, -type f|d, -maxdepth, -mindepth, -print, each of which may be negated by
// "!" or -not; matches are printed.
func find(c *call) error {
	var starts []string
	args := c.args
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") && args[0] != "!" && args[0] != "(" {
		starts, args = append(starts, args[0]), args[1:]
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	minDepth, maxDepth := 0, -1
	var preds []func(display string, info fs.FileInfo) bool
	negate := false
	for len(args) > 0 {
		tok := args[0]
		args = args[1:]
		switch tok {
		case "!", "-not":
			negate = !negate
			continue
		case "-print", "-a", "-and":
			continue
		}
		if len(args) == 0 {
			return c.fail(2, "missing argument to '%s'", tok)
		}
		arg := args[0]
		args = args[1:]
		var pred func(string, fs.FileInfo) bool
		switch tok {
		case "-name", "-iname":
			fold := tok == "-iname"
			if fold {
				arg = strings.ToLower(arg)
			}
			if _, err := path.Match(arg, ""); err != nil {
				return c.fail(2, "bad pattern '%s'", arg)
			}
			pred = func(display string, _ fs.FileInfo) bool {
				base := path.Base(display)
				if fold {
					base = strings.ToLower(base)
				}
				ok, _ := path.Match(arg, base)
				return ok
			}
		case "-path":
			re, err := regexp.Compile(globRegexp(arg))
			if err != nil {
				return c.fail(2, "bad pattern '%s'", arg)
			}
			pred = func(display string, _ fs.FileInfo) bool { return re.MatchString(display) }
		case "-type":
			if arg != "f" && arg != "d" {
				return c.fail(2, "unsupported -type '%s' (plan mode supports f and d)", arg)
			}
			dir := arg == "d"
			pred = func(_ string, info fs.FileInfo) bool {
				return info.IsDir() == dir && (dir || info.Mode().IsRegular())
			}
		case "-maxdepth", "-mindepth":
			n, err := strconv.Atoi(arg)
			if err != nil || n < 0 {
				return c.fail(2, "invalid argument '%s' to %s", arg, tok)
			}
			if tok == "-maxdepth" {
				maxDepth = n
			} else {
				minDepth = n
			}
			continue
		default:
			return c.fail(2, "unknown predicate '%s' (plan mode supports -name -iname -path -type -maxdepth -mindepth -not -print)", tok)
		}
		if negate {
			p := pred
			pred = func(display string, info fs.FileInfo) bool { return !p(display, info) }
			negate = false
		}
		preds = append(preds, pred)
	}
	ok := true
	for _, start := range starts {
		info, err := c.fsys.Stat(c.abs(start))
		if err != nil {
			c.errorf("'%s': %s", start, reason(err))
			ok = false
			continue
		}
		wok, err := c.walk(start, c.abs(start), info, 0, func(display string, info fs.FileInfo, depth int) bool {
			match := depth >= minDepth
			for _, p := range preds {
				match = match && p(display, info)
			}
			if match {
				c.stdout.Write([]byte(display + "\n"))
			}
			return maxDepth < 0 || depth < maxDepth
		})
		if err != nil {
			return err
		}
		ok = ok && wok
	}
	return status(ok)
}

// globRegexp translates a shell pattern whose "*" and "?" also match "/" (as find -path
// wants) into an anchored regular expression.
func globRegexp(glob string) string {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); i++ {
		switch ch := glob[i]; ch {
		case '*':
			b.WriteString("(?s:.*)")
		case '?':
			b.WriteString("(?s:.)")
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
			}
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := glob[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	b.WriteString("$")
	return b.String()
}
