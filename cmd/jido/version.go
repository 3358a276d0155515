package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set at release builds with -ldflags "-X main.version=...".
var version = ""

// runVersion prints the version of jido and of the Go toolchain that built it.
func runVersion(stdout io.Writer) int {
	fmt.Fprintf(stdout, "jido %s (%s)\n", jidoVersion(), runtime.Version())
	return exitOK
}

// jidoVersion is the release's version, the module's, or "dev".
func jidoVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

// parseVersion checks the arguments of `jido version`: none (but --help).
func parseVersion(args []string, stderr io.Writer) error {
	fs := newFlagSet("version", stderr)
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		err := fmt.Errorf("version takes no arguments, got %q", fs.Args())
		fmt.Fprintf(stderr, "jido version: %v\n", err)
		return err
	}
	return nil
}
