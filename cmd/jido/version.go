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
	v := version
	if v == "" {
		v = "dev"
		if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
	}
	fmt.Fprintf(stdout, "jido %s (%s)\n", v, runtime.Version())
	return exitOK
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
