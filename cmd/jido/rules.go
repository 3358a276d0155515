package main

import (
	"encoding/json"
	"fmt"
	"io"
)

// runRules implements `jido rules`: the approval rules in force for a project, as JSON
// (one object per rule, in evaluation order), or with --revoke ID the removal of one.
func runRules(argv []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("rules", stderr)
	root := fs.String("root", ".", "project root directory")
	revoke := fs.String("revoke", "", "remove the rule with this id (from its config file)")
	if err := fs.Parse(argv); err != nil || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "jido rules: usage: jido rules [--root DIR] [--revoke ID]")
		return exitUsage
	}
	engine, err := loadPermissions(*root, "")
	if err != nil {
		fmt.Fprintf(stderr, "jido rules: %v\n", err)
		return exitUsage
	}
	if *revoke != "" {
		if err := engine.Revoke(*revoke); err != nil {
			fmt.Fprintf(stderr, "jido rules: %v\n", err)
			return exitToolError
		}
	}
	type ruleJSON struct {
		ID      string   `json:"id"`
		Action  string   `json:"action"`
		Tool    string   `json:"tool"`
		Paths   []string `json:"paths,omitempty"`
		Command string   `json:"command,omitempty"`
		Class   string   `json:"class,omitempty"`
		Scope   string   `json:"scope"`
		Source  string   `json:"source"`
	}
	out := struct {
		Mode  string     `json:"mode"`
		Rules []ruleJSON `json:"rules"`
	}{Mode: string(engine.Mode()), Rules: []ruleJSON{}}
	for _, r := range engine.Rules() {
		out.Rules = append(out.Rules, ruleJSON{r.ID, r.Action.String(), r.Tool, r.Paths, r.Command, r.Class, string(r.Scope), r.Source})
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return exitToolError
	}
	return exitOK
}
