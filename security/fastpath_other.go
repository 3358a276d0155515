//go:build !linux

package security

import "os"

// fastPath is Linux's openat2 fast path; elsewhere it is always disabled and every name
// goes through the walk.
type fastPath struct{}

// openFastPath returns the disabled fast path.
func openFastPath(*os.Root) fastPath { return fastPath{} }

// close does nothing.
func (fastPath) close() {}

// fastResolve always leaves the name to the walk.
func (*Root) fastResolve([]string) (target, bool) { return target{}, false }

// fastOpen always leaves the open to os.Root.
func (*Root) fastOpen(string, int) (*os.File, bool) { return nil, false }
