package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// spareMain is the helper as a spare: it joins its command's cgroup and builds the private
// root for its spec's paths, as a one-shot helper does, then waits for its request and
// runs the request's command if its root fits it (else it exits, and the parent starts a
// helper for the command).
func spareMain(s spec) error {
	if err := join(s); err != nil {
		return err
	}
	var built map[string]uint64
	if s.Mounts {
		if err := privateRoot(s); err != nil {
			return fmt.Errorf("building the private root: %w", err)
		}
		built = mountStates(masked(s))
	}
	ans := os.NewFile(answerFD, "answer") // one File: a second would close the fd when collected
	if _, err := ans.Write([]byte{ready}); err != nil {
		return fmt.Errorf("saying it is ready: %w", err)
	}
	r, err := awaitRequest()
	if err != nil {
		return err
	}
	fits := r.Paths.equal(Paths{Protected: s.Protected, Hidden: s.Hidden, Writable: s.Writable}) && (!s.Mounts || intact(built, masked(s)))
	if err := answer(ans, fits); err != nil || !fits {
		return errors.Join(errors.New("the spare's root does not fit the command"), err)
	}
	if r.Merge {
		if err := unix.Dup2(1, 2); err != nil {
			return fmt.Errorf("merging stderr into stdout: %w", err)
		}
	}
	s.Dir, s.Argv = r.Dir, r.Argv
	setEnv(r.Env)
	return command(s, r.Env)
}

// awaitRequest reads the spare's request, to the end of reqFD.
func awaitRequest() (request, error) {
	f := os.NewFile(reqFD, "request")
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return request{}, fmt.Errorf("reading the request: %w", err)
	}
	return decodeRequest(data)
}

// answer tells the parent whether the spare runs the command, on ans (answerFD), and
// closes it (the command must not inherit it).
func answer(ans *os.File, yes bool) error {
	defer ans.Close()
	b := byte(refused)
	if yes {
		b = accepted
	}
	_, err := ans.Write([]byte{b})
	return err
}

// setEnv makes env the helper's environment, so that the program is looked up in the
// command's PATH as the one-shot helper, started with the command's environment, does.
func setEnv(env []string) {
	os.Clearenv()
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			os.Setenv(k, v)
		}
	}
}

// masked lists the paths that the private root masks with a mount of their own, which a
// change on the host can undo: the hidden system files and host keys, and the command's
// protected, hidden and writable paths.
func masked(s spec) []string {
	return slices.Concat(hiddenSystemFiles, hostKeys(""), s.Protected, s.Hidden, s.Writable)
}

// unmasked is the state of a path that exists but is not the root of a mount.
const unmasked = ^uint64(0)

// mountStates records the state of each path in the current root: the id of the mount it
// is the root of, 0 when it is missing or a symbolic link (which the root leaves alone),
// or unmasked. A kernel that cannot tell (before 5.8) gives no state at all.
func mountStates(paths []string) map[string]uint64 {
	states := map[string]uint64{}
	for _, p := range paths {
		var st unix.Statx_t
		err := unix.Statx(unix.AT_FDCWD, p, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_TYPE|unix.STATX_MNT_ID|unix.STATX_MNT_ID_UNIQUE, &st)
		switch {
		case err != nil || st.Mode&unix.S_IFMT == unix.S_IFLNK:
			states[p] = 0
		case st.Mask&(unix.STATX_MNT_ID|unix.STATX_MNT_ID_UNIQUE) == 0 || st.Attributes_mask&unix.STATX_ATTR_MOUNT_ROOT == 0:
			return nil
		case st.Attributes&unix.STATX_ATTR_MOUNT_ROOT == 0:
			states[p] = unmasked
		default:
			states[p] = st.Mnt_id
		}
	}
	return states
}

// intact reports whether every path is as the spare built its root: masked by the same
// mount, or missing (or a link) then and now. A path renamed over or removed on the host,
// or moved with its directory, is not: its mount is gone from it, and a helper started
// now would mask it again.
func intact(built map[string]uint64, paths []string) bool {
	now := mountStates(paths)
	if now == nil || built == nil {
		return false
	}
	for _, p := range paths {
		if b, ok := built[p]; !ok || b != now[p] || b == unmasked {
			return false
		}
	}
	return true
}
