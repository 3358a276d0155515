package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// runTrust implements `jido trust`: it shows the project's config and records its current
// content as trusted, so that its allow rules, mode and roles apply. A later change to the
// file (a pull, a checkout) voids the trust until the user runs it again.
func runTrust(argv []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("trust", stderr)
	root := fs.String("root", ".", "project root directory")
	if err := fs.Parse(argv); err != nil || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "jido trust: usage: jido trust [--root DIR]")
		return exitUsage
	}
	path := filepath.Join(*root, ProjectConfig)
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "jido trust: %v\n", err)
		return exitToolError
	}
	engine, err := loadPermissions(*root, "")
	if err != nil {
		fmt.Fprintf(stderr, "jido trust: %v\n", err)
		return exitUsage
	}
	if err := engine.TrustContent(data); err != nil { // the bytes shown below, not a later read
		fmt.Fprintf(stderr, "jido trust: %v\n", err)
		return exitToolError
	}
	fmt.Fprintf(stdout, "%s\n--- trusted: %s, as it is now (a change to it needs jido trust again)\n", data, path)
	return exitOK
}
