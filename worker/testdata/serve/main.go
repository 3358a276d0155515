// Command serve is a worker and nothing else, built without the race detector by
// TestRlimitCeiling when the tests run with it: the race runtime cannot start under RLIMIT_AS.
package main

import "github.com/jido-run/jido/worker"

func main() { worker.MaybeServe() }
