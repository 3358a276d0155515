package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/termsafe"
)

// rulesOptions are the parsed arguments of `jido rules`.
type rulesOptions struct {
	root   projectRoot
	revoke string // the id of a rule to remove ("" for none)
	json   bool   // print JSON rather than a table
}

// parseRules parses the arguments of `jido rules`.
func parseRules(args []string, stderr io.Writer) (*rulesOptions, error) {
	o := &rulesOptions{}
	fs := newFlagSet("rules", stderr)
	registerRoot(fs, &o.root)
	fs.StringVar(&o.revoke, "revoke", "", "remove the rule with this id (from its config file)")
	fs.BoolVar(&o.json, "json", false, "print the mode and the rules as one JSON object, for scripts")
	if err := parseArgs(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, fmt.Errorf("rules takes no arguments, got %q", fs.Args())
	}
	return o, nil
}

// runRules implements `jido rules`: the approval rules in force for a project, in
// evaluation order, as a table for people or with --json as one JSON object; with
// --revoke ID, after removing that rule.
func runRules(argv []string, stdout, stderr io.Writer) int {
	o, err := parseRules(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "jido rules: %v\n", err)
		return exitUsage
	}
	engine, err := loadPermissions(o.root.dir, "")
	if err != nil {
		fmt.Fprintf(stderr, "jido rules: %v\n", err)
		return exitUsage
	}
	if o.revoke != "" {
		if err := engine.Revoke(o.revoke); err != nil {
			fmt.Fprintf(stderr, "jido rules: %v\n", err)
			return exitToolError
		}
	}
	if !o.json {
		writeRulesTable(stdout, string(engine.Mode()), engine.Rules())
		return exitOK
	}
	type ruleJSON struct {
		ID       string   `json:"id"`
		Action   string   `json:"action"`
		Tool     string   `json:"tool"`
		Paths    []string `json:"paths,omitempty"`
		Command  string   `json:"command,omitempty"`
		Commands []string `json:"commands,omitempty"`
		Class    string   `json:"class,omitempty"`
		Scope    string   `json:"scope"`
		Source   string   `json:"source"`
	}
	out := struct {
		Mode  string     `json:"mode"`
		Rules []ruleJSON `json:"rules"`
	}{Mode: string(engine.Mode()), Rules: []ruleJSON{}}
	for _, r := range engine.Rules() {
		out.Rules = append(out.Rules, ruleJSON{r.ID, r.Action.String(), r.Tool, r.Paths, r.Command, r.Commands, r.Class, string(r.Scope), r.Source})
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return exitToolError
	}
	return exitOK
}

// writeRulesTable prints the mode and the rules as a table: id, action, tool, what the
// rule matches, and where it comes from.
func writeRulesTable(w io.Writer, mode string, rules []policy.Rule) {
	fmt.Fprintf(w, "mode: %s\n", mode)
	if len(rules) == 0 {
		fmt.Fprintln(w, "no rules: the mode decides every call")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tACTION\tTOOL\tMATCHES\tSOURCE")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", cell(r.ID), cell(r.Action.String()), cell(r.Tool), cell(ruleMatches(r)), cell(r.Source))
	}
	_ = tw.Flush()
	fmt.Fprintln(w, "(the first rule that matches a call decides; jido rules --revoke ID removes one)")
}

// ruleMatches says what a rule matches besides its tool: its paths, command prefixes and
// class, or "any call" when it has none.
func ruleMatches(r policy.Rule) string {
	var parts []string
	if len(r.Paths) > 0 {
		parts = append(parts, "paths "+strings.Join(r.Paths, ", "))
	}
	if r.Command != "" {
		parts = append(parts, "command "+strconv.Quote(r.Command))
	}
	for _, c := range r.Commands {
		parts = append(parts, "command "+strconv.Quote(c))
	}
	if r.Class != "" {
		parts = append(parts, "class "+r.Class)
	}
	if len(parts) == 0 {
		return "any call"
	}
	return strings.Join(parts, "; ")
}

// cell makes a value safe for one table cell: no terminal escapes, tabs or newlines.
func cell(s string) string {
	s = termsafe.String(s)
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}
