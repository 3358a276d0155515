package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// confineEnv, set, makes TestConfineSelf the confined child: "dir addr", a directory
// and a TCP listener of the parent's.
const confineEnv = "JIDO_TEST_CONFINE_SELF"

// confineReport is what the confined child tells its parent.
type confineReport struct {
	Conf   SelfConfinement
	Errnos map[string]int // each escape's errno, 0 when it worked
	Before []int          // threads that existed before ConfineSelf
	After  []int          // threads made after it
}

// TestConfineSelf confines a child (this test binary again) and has it try to escape:
// open, list or create files, dial the parent's listener, exec, make a process, signal
// its parent. Threads made before and after the confinement are all confined, and new
// threads can still be made.
func TestConfineSelf(t *testing.T) {
	if arg := os.Getenv(confineEnv); arg != "" {
		confinedChild(arg)
		return
	}
	requireLandlock(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestConfineSelf$")
	cmd.Env = append(os.Environ(), confineEnv+"="+dir+" "+ln.Addr().String())
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer cmd.Wait()
	defer stdin.Close() // the child exits when its stdin ends

	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err, "the child said nothing")
	var r confineReport
	require.NoError(t, json.Unmarshal([]byte(line), &r), line)
	t.Logf("%+v", r)
	assert.Equal(t, landlockABI(), r.Conf.LandlockABI)
	assert.True(t, r.Conf.Seccomp)
	assert.True(t, r.Conf.NoNewPrivs)

	want := map[string]syscall.Errno{
		"open": unix.EACCES, "readdir": unix.EACCES, "create": unix.EACCES,
		"dial": unix.EPERM, "exec": unix.EPERM, "raw exec": unix.EPERM,
		"process clone": unix.EPERM, "clone3": unix.ENOSYS,
		"thread clone": unix.EINVAL, // passed by the filter, refused by the kernel for its flags
		"pipe":         0,
	}
	for i := range r.Before {
		want["open on thread before "+strconv.Itoa(i)] = unix.EACCES
	}
	if r.Conf.LandlockABI >= 6 {
		want["signal parent"] = unix.EPERM
	}
	for name, errno := range want {
		assert.Equal(t, errno, syscall.Errno(r.Errnos[name]), name)
	}
	assert.Len(t, r.After, 50)

	// Every thread, before and after, has no_new_privs and the filter.
	tasks, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "task"))
	require.NoError(t, err)
	seen := map[int]bool{}
	for _, task := range tasks {
		status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "task", task.Name(), "status"))
		require.NoError(t, err)
		fields := map[string]string{}
		for line := range strings.Lines(string(status)) {
			k, v, _ := strings.Cut(line, ":")
			fields[k] = strings.TrimSpace(v)
		}
		assert.Equal(t, "1", fields["NoNewPrivs"], "thread %s", task.Name())
		assert.Equal(t, "2", fields["Seccomp"], "thread %s", task.Name())
		n, _ := strconv.Atoi(fields["Seccomp_filters"])
		assert.GreaterOrEqual(t, n, 1, "thread %s", task.Name())
		tid, _ := strconv.Atoi(task.Name())
		seen[tid] = true
	}
	for _, tid := range append(r.Before, r.After...) {
		assert.True(t, seen[tid], "thread %d is gone", tid)
	}
	t.Logf("%d threads, all filtered", len(tasks))
}

// confinedChild is TestConfineSelf's child: it confines itself, tries each escape and
// prints the report, then waits for its stdin to end with all its threads alive.
func confinedChild(arg string) {
	dir, addr, _ := strings.Cut(arg, " ")
	r := confineReport{Errnos: map[string]int{}}
	try := func(name string, err error) {
		var errno syscall.Errno
		if err != nil && !errors.As(err, &errno) {
			errno = 1 << 20 // not an errno: shows in the test's failure
		}
		r.Errnos[name] = int(errno)
	}
	// Threads of the process before it is confined, each kept by a goroutine.
	type before struct {
		tid  chan int
		open chan error
	}
	start, hold := make(chan struct{}), make(chan struct{})
	var threads []before
	for range 4 {
		b := before{make(chan int), make(chan error)}
		threads = append(threads, b)
		go func() {
			runtime.LockOSThread()
			b.tid <- unix.Gettid()
			<-start
			_, err := os.Open("/etc/passwd")
			b.open <- err
			<-hold
		}()
		r.Before = append(r.Before, <-b.tid)
	}

	conf, err := ConfineSelf()
	if err != nil {
		os.Stderr.WriteString("ConfineSelf: " + err.Error() + "\n")
		os.Exit(1)
	}
	r.Conf = conf
	close(start)
	for i, b := range threads {
		try("open on thread before "+strconv.Itoa(i), <-b.open)
	}
	_, err = os.Open("/etc/passwd")
	try("open", err)
	_, err = os.ReadDir("/")
	try("readdir", err)
	_, err = os.Create(filepath.Join(dir, "new"))
	try("create", err)
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
	}
	try("dial", err)
	cmd := exec.Command("/bin/true")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stderr, os.Stderr // not /dev/null, which it cannot open
	try("exec", cmd.Run())
	try("raw exec", syscall.Exec("/bin/true", []string{"true"}, nil))
	// Flags the kernel refuses (CLONE_SIGHAND needs CLONE_VM, CLONE_THREAD needs
	// CLONE_SIGHAND), so that nothing is made if the filter lets them through.
	_, _, errno := unix.RawSyscall(unix.SYS_CLONE, unix.CLONE_SIGHAND, 0, 0)
	try("process clone", errnoOrNil(errno))
	_, _, errno = unix.RawSyscall(unix.SYS_CLONE, unix.CLONE_THREAD, 0, 0)
	try("thread clone", errnoOrNil(errno))
	_, _, errno = unix.RawSyscall(unix.SYS_CLONE3, 0, 0, 0)
	try("clone3", errnoOrNil(errno))
	try("signal parent", syscall.Kill(os.Getppid(), 0))

	// New threads: 50 goroutines, each on a thread of its own, blocked in read(2).
	var p [2]int
	err = unix.Pipe2(p[:], unix.O_CLOEXEC)
	try("pipe", err)
	tids := make(chan int)
	for range 50 {
		go func() {
			runtime.LockOSThread()
			tids <- unix.Gettid()
			var b [1]byte
			unix.Read(p[0], b[:])
		}()
	}
	for range 50 {
		r.After = append(r.After, <-tids)
	}
	out, _ := json.Marshal(r)
	os.Stdout.Write(append(out, '\n'))
	os.Stdin.Read(make([]byte, 1))
	os.Exit(0)
}

func errnoOrNil(errno syscall.Errno) error {
	if errno == 0 {
		return nil
	}
	return errno
}
