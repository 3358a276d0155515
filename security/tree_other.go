//go:build !linux

package security

// fastOpenTree is Linux's openat2 open; elsewhere walks go through os.Root.
func (*Root) fastOpenTree(string, bool) (int, error) { return -1, errFastPathOff }

// fastReadTree is Linux's openat2 read; elsewhere walks go through os.Root.
func (*Root) fastReadTree(_ string, buf []byte) ([]byte, error) { return buf, errFastPathOff }

// fdEntries is never called: TreeDir always holds an *os.File here.
func (d *TreeDir) fdEntries(out []TreeEntry) ([]TreeEntry, error) { return out, errFastPathOff }

// fdLstat is never called: TreeDir always holds an *os.File here.
func (d *TreeDir) fdLstat(string) (TreeInfo, error) { return TreeInfo{}, errFastPathOff }

// closeFD is never called: TreeDir always holds an *os.File here.
func closeFD(int) error { return nil }
