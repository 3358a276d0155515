//go:build !linux

package worker

import (
	"os"
	"syscall"
)

// Ways a worker's memory is capped (Client.Ceiling); only Linux has one.
const (
	CeilingCgroupV2 = "cgroup-v2"
	CeilingCgroupV1 = "cgroup-v1"
	CeilingRlimit   = "rlimit-as"
	CeilingNone     = "none"
)

type ceiling struct{ kind string }

func newCeiling(int64) *ceiling         { return &ceiling{kind: CeilingNone} }
func (c *ceiling) join(int) error       { return nil }
func (c *ceiling) oomKilled() bool      { return false }
func (c *ceiling) remove()              {}
func limitSelf(int64) error             { return nil }
func sysProcAttr() *syscall.SysProcAttr { return nil }

func blockingPipe() (r, w *os.File, err error) { return os.Pipe() }
