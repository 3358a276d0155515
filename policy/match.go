package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Command classes, in increasing order of risk.
const (
	classReadOnly    = "read-only"
	classMutating    = "mutating"
	classNetwork     = "network"
	classDestructive = "destructive"
)

var classRank = map[string]int{
	classReadOnly:    0,
	classMutating:    1,
	classNetwork:     2,
	classDestructive: 3,
}

// isShell reports whether tool runs shell command lines.
func isShell(tool string) bool { return tool == "run_shell" || tool == "run_tests" }

// isReadOnlyCall reports whether r is a call of a read-only (non-shell) tool that reaches
// nothing beyond the project: a web tool changes no file but has the network class.
// Contradictory flags count as not read-only.
func isReadOnlyCall(r Request) bool {
	return !isShell(r.Tool) && r.ReadOnly && !r.Mutating && !r.Destructive && (r.Class == "" || r.Class == classReadOnly)
}

// isFileMutation reports whether r is a file tool that changes files: a
// mutating non-shell call that names paths.
func isFileMutation(r Request) bool {
	return !isShell(r.Tool) && r.Mutating && len(r.Paths) > 0
}

// callClass ranks the call on the class scale. Unknown means riskiest.
func callClass(r Request) int {
	if r.Class != "" {
		if rank, ok := classRank[r.Class]; ok {
			return rank
		}
		return classRank[classDestructive]
	}
	switch {
	case isShell(r.Tool), r.Destructive:
		return classRank[classDestructive]
	case r.Mutating:
		return classRank[classMutating]
	case r.ReadOnly:
		return classRank[classReadOnly]
	}
	return classRank[classMutating]
}

// matches reports whether rule applies to r. Allow rules need every part of
// the call covered, and never cover a call that sets a risky variable; deny and ask rules
// need any part (see the package doc).
func matches(rule *Rule, r Request) bool {
	all := rule.Action == Allow
	if all && len(r.RiskyEnv) > 0 {
		return false
	}
	if rule.Tool != "" {
		if ok, _ := doublestar.Match(rule.Tool, r.Tool); !ok {
			return false
		}
	}
	if rule.Class != "" {
		want, call := classRank[rule.Class], callClass(r)
		if all && call > want || !all && call < want {
			return false
		}
	}
	if len(rule.Paths) > 0 && !matchEach(len(r.Paths), all, func(i int) bool { return pathMatches(rule.Paths, r.Paths[i]) }) {
		return false
	}
	if len(rule.Hosts) > 0 && !matchEach(len(r.Hosts), all, func(i int) bool { return hostMatches(rule.Hosts, r.Hosts[i]) }) {
		return false
	}
	if rule.Command != "" {
		words := strings.Fields(rule.Command)
		if !matchEach(len(r.Commands), all, func(i int) bool { return commandMatches(words, r.Commands[i]) }) {
			return false
		}
	}
	if len(rule.Commands) > 0 {
		prefixes := make([][]string, len(rule.Commands))
		for i, c := range rule.Commands {
			prefixes[i] = strings.Fields(c)
		}
		if !matchEach(len(r.Commands), all, func(i int) bool {
			return slices.ContainsFunc(prefixes, func(words []string) bool { return commandMatches(words, r.Commands[i]) })
		}) {
			return false
		}
	}
	return true
}

// matchEach reports whether ok holds for all (all=true) or any of n items.
// It is false for n == 0: a constraint never matches a call without items.
func matchEach(n int, all bool, ok func(int) bool) bool {
	if n == 0 {
		return false
	}
	for i := 0; i < n; i++ {
		if ok(i) != all {
			return !all
		}
	}
	return all
}

// hostMatches reports whether host (lower-case) matches one of the globs, compared
// without regard to case: "*.example.com" matches every subdomain of example.com.
func hostMatches(globs []string, host string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(strings.ToLower(g), host); ok {
			return true
		}
	}
	return false
}

func pathMatches(globs []string, p string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}

// commandMatches reports whether the prefix words equal the first words of c
// (its base name, then its arguments).
//
// A nameless command (a redirection, or assignments alone: its Args are their text, as
// ["2>", "err.log"]) matches only when the words are exactly its Args.
func commandMatches(words []string, c Command) bool {
	if c.Name == "" {
		return len(words) > 0 && strings.Join(words, " ") == strings.Join(c.Args, " ")
	}
	if len(words) == 0 || baseName(words[0]) != baseName(c.Name) {
		return false
	}
	if len(words) > 2 && isCodeArg(words[1]) {
		// An interpreter's program is matched whole: python3 -c 'print(1)' does not cover
		// python3 -c 'print(1)' more.py, and a program with two spaces or a newline where
		// the rule has one space is another program.
		return len(c.Args) > 1 && c.Args[0] == words[1] && strings.Join(c.Args[1:], " ") == strings.Join(words[2:], " ")
	}
	if len(c.Args)+1 < len(words) {
		return false
	}
	for i, w := range words[1:] {
		if c.Args[i] != w {
			return false
		}
	}
	return true
}

func baseName(name string) string {
	return name[strings.LastIndexByte(name, '/')+1:]
}

// describeCall renders a call for reasons: the tool, then its command line
// in backquotes or its paths.
func describeCall(r Request) string {
	tool := r.Tool
	if tool == "" {
		tool = "(unnamed tool)"
	}
	if len(r.Commands) > 0 {
		parts := make([]string, len(r.Commands))
		for i, c := range r.Commands {
			parts[i] = strings.Join(append([]string{c.Name}, c.Args...), " ")
		}
		return fmt.Sprintf("%s `%s`", tool, strings.Join(parts, "; "))
	}
	if len(r.Hosts) > 0 {
		return tool + " " + strings.Join(r.Hosts, ", ")
	}
	if len(r.Paths) > 0 {
		const max = 3
		if len(r.Paths) > max {
			return fmt.Sprintf("%s %s and %d more", tool, strings.Join(r.Paths[:max], ", "), len(r.Paths)-max)
		}
		return tool + " " + strings.Join(r.Paths, ", ")
	}
	return tool
}

// suggest returns RuleFor(r) as TOML.
func suggest(r Request) string {
	return strings.TrimSuffix(renderRule(RuleFor(r)), "\n")
}

// codeFlags are the arguments after which an interpreter's next argument is a program
// (python3 -c, node -e, perl -e, ruby -e, bash -c ...).
var codeFlags = map[string]bool{"-c": true, "-e": true, "-E": true, "--eval": true, "-p": true, "--print": true, "-r": true, "--command": true}

// isCodeArg reports whether the arguments after arg are an interpreter's program.
func isCodeArg(arg string) bool { return codeFlags[arg] || arg == "eval" }

// RuleFor is the allow rule that covers r and no more, which a "for the session" or
// "always" answer records and the prompt shows: the tool and its paths, or for a shell
// tool each simple command of the line (command, or commands for several), as its name
// and first argument (all of its arguments when they are an interpreter's program, so
// that approving one script does not approve every script), with the class of the
// approved line, so that the rule never admits a call of a higher class (`echo tick`
// approved does not cover `echo tick > main.go`).
func RuleFor(r Request) Rule {
	rule := Rule{Action: Allow, Tool: r.Tool}
	switch {
	case len(r.Commands) > 0:
		var prefixes []string
		for _, c := range r.Commands {
			if p := commandPrefix(c); !slices.Contains(prefixes, p) {
				prefixes = append(prefixes, p)
			}
		}
		// A command with nothing to record leaves a blank prefix, which Remember refuses:
		// a rule without commands would cover every line of the class.
		if len(prefixes) == 1 && strings.TrimSpace(prefixes[0]) != "" {
			rule.Command = prefixes[0]
		} else {
			rule.Commands = prefixes
		}
		if isShell(r.Tool) {
			rule.Class = r.Class
		}
	case len(r.Hosts) > 0:
		rule.Hosts = append([]string(nil), r.Hosts...)
	case len(r.Paths) > 0:
		rule.Paths = append([]string(nil), r.Paths...)
	}
	return rule
}

// commandPrefix is the part of a command a rule records: its name and first argument,
// or all of its arguments when they are an interpreter's program; all of a nameless
// command's (a redirection's operator and target).
func commandPrefix(c Command) string {
	if c.Name == "" {
		return strings.Join(c.Args, " ")
	}
	words := []string{baseName(c.Name)}
	if len(c.Args) > 0 {
		words = append(words, c.Args[0])
		if isCodeArg(c.Args[0]) {
			words = append(words, c.Args[1:]...)
		}
	}
	return strings.Join(words, " ")
}

// validateRule checks a rule's fields; it returns the bad field and what is
// wrong with it, or "" when the rule is fine.
func validateRule(r Rule) (field, msg string) {
	if r.Tool != "" && !doublestar.ValidatePattern(r.Tool) {
		return "tool", fmt.Sprintf("bad glob %q", r.Tool)
	}
	for _, p := range r.Paths {
		if p == "" {
			return "paths", "empty glob"
		}
		if !doublestar.ValidatePattern(p) {
			return "paths", fmt.Sprintf("bad glob %q", p)
		}
	}
	for _, h := range r.Hosts {
		if h == "" || strings.ContainsAny(h, "/: \t") || !doublestar.ValidatePattern(h) {
			return "hosts", fmt.Sprintf("bad host %q (want a host name or a glob such as *.example.com, without scheme, port or path)", h)
		}
	}
	if r.Command != "" && strings.TrimSpace(r.Command) == "" {
		return "command", "blank command"
	}
	for _, c := range r.Commands {
		if strings.TrimSpace(c) == "" {
			return "commands", "blank command"
		}
	}
	if _, ok := classRank[r.Class]; r.Class != "" && !ok {
		return "class", fmt.Sprintf("bad class %q (want read-only, mutating, network or destructive)", r.Class)
	}
	return "", ""
}

// renderRule writes r as a TOML array table, ending in a newline.
func renderRule(r Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[[%s]]\n", r.Action)
	if r.Tool != "" {
		fmt.Fprintf(&b, "tool = %s\n", tomlQuote(r.Tool))
	}
	if len(r.Paths) > 0 {
		q := make([]string, len(r.Paths))
		for i, p := range r.Paths {
			q[i] = tomlQuote(p)
		}
		fmt.Fprintf(&b, "paths = [%s]\n", strings.Join(q, ", "))
	}
	if len(r.Hosts) > 0 {
		q := make([]string, len(r.Hosts))
		for i, h := range r.Hosts {
			q[i] = tomlQuote(h)
		}
		fmt.Fprintf(&b, "hosts = [%s]\n", strings.Join(q, ", "))
	}
	if r.Command != "" {
		fmt.Fprintf(&b, "command = %s\n", tomlQuote(r.Command))
	}
	if len(r.Commands) > 0 {
		q := make([]string, len(r.Commands))
		for i, c := range r.Commands {
			q[i] = tomlQuote(c)
		}
		fmt.Fprintf(&b, "commands = [%s]\n", strings.Join(q, ", "))
	}
	if r.Class != "" {
		fmt.Fprintf(&b, "class = %s\n", tomlQuote(r.Class))
	}
	return b.String()
}

// tomlQuote renders s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, c)
			} else {
				b.WriteRune(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
