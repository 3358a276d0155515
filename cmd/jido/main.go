// Command jido is the command-line face of the jido sandboxed tool runtime.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
