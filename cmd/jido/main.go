// Command jido is the command-line face of the jido sandboxed tool runtime.
package main

import (
	"os"

	"github.com/jido-run/jido/sandbox"
	"github.com/jido-run/jido/worker"
)

func main() {
	sandbox.MaybeHelper() // jido re-executes itself to confine the commands it runs
	worker.MaybeServe()   // and to run sessions' Lua in worker processes (Config.Isolation)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
