package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jido-run/jido/policy"
	"github.com/jido-run/jido/termsafe"
)

// runTrust implements `jido trust`: it shows the project's config and Lua tools and records
// their current content as trusted, so that the config's allow rules, mode and roles apply
// and the tools load. A later change to any of them (a pull, a checkout) voids the trust
// until the user runs it again.
func runTrust(argv []string, stdout, stderr io.Writer) int {
	root, err := parseTrust(argv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "jido trust: usage: jido trust [--root DIR]")
		return exitUsage
	}
	path := filepath.Join(root, ProjectConfig)
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "jido trust: %v\n", err)
		return exitToolError
	}
	engine, err := loadPermissions(root, "")
	if err != nil {
		fmt.Fprintf(stderr, "jido trust: %v\n", err)
		return exitUsage
	}
	tools := engine.ProjectTools()
	if data == nil && len(tools) == 0 {
		fmt.Fprintf(stderr, "jido trust: %s: no project config and no project tools to trust\n", path)
		return exitToolError
	}
	// What is shown is what is recorded: the bytes read once, above.
	if err := engine.TrustProject(data, tools); err != nil {
		fmt.Fprintf(stderr, "jido trust: %v\n", err)
		return exitToolError
	}
	if data != nil {
		fmt.Fprintf(stdout, "--- %s\n%s", path, termsafe.String(string(data)))
	}
	toolsDir := filepath.Join(filepath.Dir(path), policy.ToolsDir)
	for _, t := range tools {
		fmt.Fprintf(stdout, "--- %s\n%s", filepath.Join(toolsDir, t.Name), termsafe.String(string(t.Data)))
	}
	fmt.Fprintf(stdout, "--- trusted: the project's config and %d tool files, as they are now (a change to any needs jido trust again)\n", len(tools))
	return exitOK
}

// parseTrust parses the arguments of `jido trust`: the project root.
func parseTrust(args []string, stderr io.Writer) (string, error) {
	fs := newFlagSet("trust", stderr)
	var root projectRoot
	registerRoot(fs, &root)
	if err := parseArgs(fs, args); err != nil {
		return "", err
	}
	if fs.NArg() != 0 {
		return "", fmt.Errorf("trust takes no arguments, got %q", fs.Args())
	}
	return root.dir, nil
}
