// Command jido-sandbox is jido's sandbox helper on its own: the few packages that confine a
// command, so that it starts in about a millisecond, where re-executing jido (which links the
// model SDKs) costs several per command. jido uses it when it sits next to the jido binary
// (go install ./cmd/... puts it there); otherwise jido re-executes itself.
package main

import (
	"fmt"
	"os"

	"github.com/jido-run/jido/sandbox"
)

func main() {
	sandbox.MaybeHelper()
	fmt.Fprintln(os.Stderr, "jido-sandbox: jido starts this program to confine a command; it is not run by hand")
	os.Exit(2)
}
