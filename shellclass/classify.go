package shellclass

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep classification bounded whatever the input.
const (
	maxInput       = 64 << 10 // bytes of a command line, an argv, or a nested script
	maxDepth       = 64       // levels of nesting: compound commands, substitutions, wrappers, nested scripts
	maxSteps       = 1 << 18  // statements and commands visited in one classification
	maxBraceWords  = 256      // words one brace expansion may produce before it is left unexpanded
	maxBraceBytes  = 64 << 10 // bytes one brace expansion may produce
	maxBraceBudget = 4096     // words all brace expansions of one classification may produce
	maxReason      = 160      // bytes of a reason; longer ones (quoting long input) are cut
)

// verdict is a class with the phrase that explains it.
type verdict struct {
	Class  Class
	Reason string
}

// raise replaces v by o when o is riskier, so the first reason of the highest class is kept.
func (v *verdict) raise(o verdict) {
	if o.Class > v.Class {
		*v = o
	}
}

// entry is a Command with its position in the source, for ordering.
type entry struct {
	key []int // offset of the command's first word; nested scripts append their own offsets
	cmd Command
}

// classifier holds the state of one Classify or ClassifyArgv call.
type classifier struct {
	entries     []entry
	steps       int
	braceBudget int
	exhausted   bool
}

func newClassifier() *classifier {
	return &classifier{braceBudget: maxBraceBudget}
}

// pctx is one parsed script: the top-level line or a nested "bash -c" / eval string.
type pctx struct {
	src    string
	prefix []int            // key of the word the script came from
	funcs  map[string]Class // functions defined at the top level of this script so far
}

// key orders a node of this script among all commands found.
func (p *pctx) key(pos syntax.Pos) []int {
	k := make([]int, len(p.prefix)+1)
	copy(k, p.prefix)
	k[len(p.prefix)] = int(pos.Offset())
	return k
}

// text is the source text of node, as written.
func (p *pctx) text(node syntax.Node) string {
	start, end := node.Pos().Offset(), node.End().Offset()
	if start <= end && end <= uint(len(p.src)) && node.Pos().IsValid() {
		return p.src[start:end]
	}
	var b strings.Builder
	if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, node); err != nil {
		return "?"
	}
	return b.String()
}

// parsers are reused: a Parser is costly to allocate and may parse many inputs, one at a time.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// parse parses a bash script.
func parse(src string) (*syntax.File, error) {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	return p.Parse(strings.NewReader(src), "")
}

// tick counts one unit of work and reports whether the budget allows it. When the budget is
// spent, one Destructive entry records that the line was only partly analysed.
func (c *classifier) tick(key []int) bool {
	if c.exhausted {
		return false
	}
	c.steps++
	if c.steps > maxSteps {
		c.exhausted = true
		c.add(key, Command{Class: Destructive, Reason: "command line too complex to analyse completely"})
		return false
	}
	return true
}

func (c *classifier) add(key []int, cmd Command) int {
	c.entries = append(c.entries, entry{key: key, cmd: cmd})
	return len(c.entries) - 1
}

// tooDeep records that nesting went past maxDepth; what is below is not analysed.
func (c *classifier) tooDeep(key []int) {
	c.add(key, Command{Class: Destructive, Reason: "nesting deeper than 64 levels is not analysed"})
}

// file classifies the top-level statements of a script. A function defined by a plain top-level
// statement is remembered, so that later calls get the class of its body; definitions inside
// subshells, pipelines, conditionals or other functions may not exist when a call runs, and are
// not remembered.
func (c *classifier) file(ctx *pctx, list []*syntax.Stmt, depth int) {
	for _, s := range list {
		fd, ok := s.Cmd.(*syntax.FuncDecl)
		if !ok || fd.Name == nil || s.Background || s.Negated || len(s.Redirs) > 0 {
			c.stmt(ctx, s, depth)
			continue
		}
		start := len(c.entries)
		c.stmt(ctx, s, depth)
		if ctx.funcs == nil {
			ctx.funcs = map[string]Class{}
		}
		ctx.funcs[fd.Name.Value] = c.maxSince(start).Class
	}
}

// stmts classifies a statement list.
func (c *classifier) stmts(ctx *pctx, list []*syntax.Stmt, depth int) {
	for _, s := range list {
		c.stmt(ctx, s, depth)
	}
}

// stmt classifies one statement: its command and its redirections.
func (c *classifier) stmt(ctx *pctx, s *syntax.Stmt, depth int) {
	if s == nil {
		return
	}
	key := ctx.key(s.Pos())
	if !c.tick(key) {
		return
	}
	if depth > maxDepth {
		c.tooDeep(key)
		return
	}
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		c.call(ctx, cmd, s.Redirs, depth)
		return
	case nil:
	default:
		c.command(ctx, cmd, depth)
	}
	// A redirection of a compound command, or a statement that is only redirections.
	c.redirects(ctx, s.Redirs, depth)
	c.writes(ctx, s.Redirs)
}

// writes lists every redirection that raises the class (writes a file, opens a device or a
// connection) as a nameless Command whose Args are its operator and target as written
// (["2>", "err.log"]), so that a rule recorded from an approved line names the files the
// line writes, and the same line redirected elsewhere is not covered by it.
func (c *classifier) writes(ctx *pctx, redirs []*syntax.Redirect) {
	for _, r := range redirs {
		v := redirect(ctx, r)
		if v.Class == ReadOnly || r.Word == nil {
			continue
		}
		op := r.Op.String()
		if r.N != nil {
			op = r.N.Value + op
		}
		c.add(ctx.key(r.Pos()), Command{Args: []string{op, ctx.text(r.Word)}, Class: v.Class, Reason: v.Reason})
	}
}

// command classifies a compound command, walking into every statement list it holds.
func (c *classifier) command(ctx *pctx, cmd syntax.Command, depth int) {
	switch cmd := cmd.(type) {
	case *syntax.BinaryCmd:
		c.binary(ctx, cmd, depth)
	case *syntax.Subshell:
		c.stmts(ctx, cmd.Stmts, depth+1)
	case *syntax.Block:
		c.stmts(ctx, cmd.Stmts, depth+1)
	case *syntax.IfClause:
		for clause := cmd; clause != nil; clause = clause.Else {
			c.stmts(ctx, clause.Cond, depth+1)
			c.stmts(ctx, clause.Then, depth+1)
		}
	case *syntax.WhileClause:
		c.stmts(ctx, cmd.Cond, depth+1)
		c.stmts(ctx, cmd.Do, depth+1)
	case *syntax.ForClause:
		switch loop := cmd.Loop.(type) {
		case *syntax.WordIter:
			for _, w := range loop.Items {
				c.subst(ctx, w, depth)
			}
		case *syntax.CStyleLoop:
			for _, x := range []syntax.ArithmExpr{loop.Init, loop.Cond, loop.Post} {
				if x != nil {
					c.subst(ctx, x, depth)
				}
			}
		}
		c.stmts(ctx, cmd.Do, depth+1)
	case *syntax.CaseClause:
		c.subst(ctx, cmd.Word, depth)
		for _, item := range cmd.Items {
			for _, p := range item.Patterns {
				c.subst(ctx, p, depth)
			}
			c.stmts(ctx, item.Stmts, depth+1)
		}
	case *syntax.FuncDecl:
		c.stmt(ctx, cmd.Body, depth+1)
	case *syntax.DeclClause:
		c.decl(ctx, cmd, depth)
	case *syntax.ArithmCmd:
		c.subst(ctx, cmd.X, depth)
	case *syntax.TestClause:
		c.subst(ctx, cmd.X, depth)
	case *syntax.LetClause:
		for _, x := range cmd.Exprs {
			c.subst(ctx, x, depth)
		}
	case *syntax.TimeClause:
		c.stmt(ctx, cmd.Stmt, depth+1)
	case *syntax.CoprocClause:
		c.stmt(ctx, cmd.Stmt, depth+1)
	case *syntax.TestDecl:
		c.stmt(ctx, cmd.Body, depth+1)
	default:
		c.add(ctx.key(cmd.Pos()), Command{Class: Destructive, Reason: "unsupported shell construct"})
	}
}

// binary classifies a chain of pipes and && || lists left to right without recursing per link,
// so a very long chain cannot exhaust the stack.
func (c *classifier) binary(ctx *pctx, b *syntax.BinaryCmd, depth int) {
	stack := []*syntax.Stmt{b.Y, b.X}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if inner, ok := s.Cmd.(*syntax.BinaryCmd); ok && len(s.Redirs) == 0 {
			stack = append(stack, inner.Y, inner.X)
			continue
		}
		c.stmt(ctx, s, depth)
	}
}

// decl lists export/declare/local/readonly/typeset as a read-only command and classifies the
// substitutions in its assignments.
func (c *classifier) decl(ctx *pctx, d *syntax.DeclClause, depth int) {
	args := make([]string, 0, len(d.Args))
	for _, a := range d.Args {
		args = append(args, ctx.text(a))
	}
	i := c.add(ctx.key(d.Pos()), Command{Name: d.Variant.Value, Args: args, Class: ReadOnly,
		Reason: d.Variant.Value + " only sets shell variables"})
	v := verdict{ReadOnly, ""}
	for _, a := range d.Args {
		c.subst(ctx, a, depth)
		v.raise(c.assign(ctx, a, depth))
	}
	if e := &c.entries[i].cmd; v.Class > e.Class {
		e.Class, e.Reason = v.Class, v.Reason
	}
}

// assign classifies a shell assignment NAME=value by the variable it sets (see envVar).
func (c *classifier) assign(ctx *pctx, a *syntax.Assign, depth int) verdict {
	if a.Name == nil || a.Value == nil || a.Array != nil || a.Index != nil {
		return verdict{ReadOnly, ""}
	}
	v, lit := literal(a.Value)
	if !lit {
		v = ctx.text(a.Value)
	}
	return c.envVar(a.Name.Value, arg{val: v, lit: lit, key: ctx.key(a.Value.Pos())}, depth)
}

// call classifies a simple command: substitutions in its words, the command itself, and its
// redirections, which raise the command's own class.
func (c *classifier) call(ctx *pctx, call *syntax.CallExpr, redirs []*syntax.Redirect, depth int) {
	rv, at := verdict{ReadOnly, ""}, []int(nil)
	for _, a := range call.Assigns {
		c.subst(ctx, a, depth)
		if av := c.assign(ctx, a, depth); av.Class > rv.Class {
			rv, at = av, ctx.key(a.Pos())
		}
	}
	assigned, assignedAt := rv, at
	for _, w := range call.Args {
		c.subst(ctx, w, depth)
	}
	if v, k := c.redirects(ctx, redirs, depth); v.Class > rv.Class {
		rv, at = v, k
	}
	if assigned.Class > ReadOnly {
		// Risky assignments are a nameless command whose Args are their text, so that a rule
		// recorded without them (make) does not cover the line with them (BASH_ENV=x make).
		var assigns []string
		for _, a := range call.Assigns {
			assigns = append(assigns, ctx.text(a))
		}
		c.add(assignedAt, Command{Args: assigns, Class: assigned.Class, Reason: assigned.Reason})
	}
	if len(call.Args) == 0 {
		c.writes(ctx, redirs)
		return
	}
	args := c.words(ctx, call.Args)
	i := c.argv(ctx, args, stdinOf(ctx, redirs), depth, true)
	if e := &c.entries[i].cmd; rv.Class > e.Class {
		e.Class, e.Reason = rv.Class, rv.Reason
	}
	c.writes(ctx, redirs)
}

// subst classifies the commands inside $(...), `...` and <(...) anywhere below node. Text in
// single quotes and quoted heredocs holds no such nodes, so it stays literal.
func (c *classifier) subst(ctx *pctx, node syntax.Node, depth int) {
	if node == nil {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			c.stmts(ctx, n.Stmts, depth+1)
			return false
		case *syntax.ProcSubst:
			c.stmts(ctx, n.Stmts, depth+1)
			return false
		}
		return true
	})
}

// argv classifies a command given as words and records it, returning the index of its entry.
// direct is true for a command the shell runs itself (so a function of that name applies).
func (c *classifier) argv(ctx *pctx, args []arg, in input, depth int, direct bool) int {
	self := args[0]
	name := self.val
	if self.lit {
		name = baseName(self.val)
	}
	rest := make([]string, len(args)-1)
	for i, a := range args[1:] {
		rest[i] = a.val
	}
	i := c.add(self.key, Command{Name: name, Args: rest})
	var v verdict
	switch {
	case !c.tick(self.key):
		v = verdict{Destructive, "command line too complex to analyse completely"}
	case depth > maxDepth:
		v = verdict{Destructive, "nesting deeper than 64 levels is not analysed"}
	default:
		v = c.decide(&call{c: c, ctx: ctx, name: name, self: self, args: args[1:], in: in, depth: depth}, direct)
	}
	c.entries[i].cmd.Class, c.entries[i].cmd.Reason = v.Class, v.Reason
	return i
}

// run classifies args as a command and returns its verdict.
func (c *classifier) run(ctx *pctx, args []arg, in input, depth int) verdict {
	if len(args) == 0 {
		return verdict{ReadOnly, "no command"}
	}
	e := c.entries[c.argv(ctx, args, in, depth, false)].cmd
	return verdict{e.Class, e.Reason}
}

// script parses text as a nested script (bash -c, eval, trap, ssh) and classifies it, returning
// the highest verdict of the commands in it.
func (c *classifier) script(text string, prefix []int, depth int) verdict {
	if depth > maxDepth {
		return verdict{Destructive, "nesting deeper than 64 levels is not analysed"}
	}
	if len(text) > maxInput {
		return verdict{Destructive, "nested script over 64 KiB is not analysed"}
	}
	f, err := parse(text)
	if err != nil {
		return verdict{Destructive, "cannot parse nested script: " + err.Error()}
	}
	start := len(c.entries)
	c.file(&pctx{src: text, prefix: prefix}, f.Stmts, depth)
	return c.maxSince(start)
}

// maxSince is the highest verdict among the entries recorded from index start on.
func (c *classifier) maxSince(start int) verdict {
	v := verdict{ReadOnly, "read-only command"}
	for _, e := range c.entries[start:] {
		v.raise(verdict{e.cmd.Class, e.cmd.Reason})
	}
	return v
}

// result orders the recorded commands by source position and sums them up.
func (c *classifier) result() Result {
	slices.SortStableFunc(c.entries, func(a, b entry) int { return slices.Compare(a.key, b.key) })
	res := Result{Class: ReadOnly, Parsed: true}
	seen := map[string]bool{}
	for _, e := range c.entries {
		e.cmd.Reason = clip(e.cmd.Reason)
		res.Commands = append(res.Commands, e.cmd)
		res.Class = max(res.Class, e.cmd.Class)
		if e.cmd.Class > ReadOnly && !seen[e.cmd.Reason] {
			seen[e.cmd.Reason] = true
			res.Reasons = append(res.Reasons, e.cmd.Reason)
		}
	}
	return res
}

// clip shortens a reason that quotes a long piece of input.
func clip(s string) string {
	if len(s) <= maxReason {
		return s
	}
	cut := maxReason
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// baseName is the last element of a command path: /bin/rm -> rm.
func baseName(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}
