package integration

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/jido-run/jido/agent/gemini/geminitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// terminal is a jido process on a pseudo-terminal, driven as a person would.
type terminal struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	seen int // output already matched by expect
}

func startTerminal(t *testing.T, dir string, env []string, args ...string) *terminal {
	cmd := exec.Command(jidoBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append(env, "TERM=xterm", "NO_COLOR=1")...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 160})
	require.NoError(t, err)
	term := &terminal{t: t, cmd: cmd, tty: tty}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		tty.Close()
	})
	return term
}

// expect waits until the output after the last match contains s.
func (term *terminal) expect(s string) {
	term.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		term.mu.Lock()
		rest := term.out.String()[term.seen:]
		if i := strings.Index(rest, s); i >= 0 {
			term.seen += i + len(s)
			term.mu.Unlock()
			return
		}
		term.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	term.mu.Lock()
	defer term.mu.Unlock()
	require.FailNowf(term.t, "terminal output", "no %q after:\n%s", s, term.out.String()[term.seen:])
}

// typeLine types text and Enter.
func (term *terminal) typeLine(text string) {
	_, err := io.WriteString(term.tty, text+"\r")
	require.NoError(term.t, err)
}

func TestChatInATerminal(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello\n"})
	srv := geminitest.NewServer(
		geminitest.Step{Calls: []geminitest.Call{{ID: "w1", Name: "write_file", Args: map[string]any{"path": "hello.txt", "content": "hi\n"}}}},
		geminitest.Step{Text: []string{"Created ", "hello.txt."}},
		geminitest.Step{Calls: []geminitest.Call{{ID: "w2", Name: "write_file", Args: map[string]any{"path": "bad.txt", "content": "no\n"}}}},
		geminitest.Step{Text: []string{"Understood, I will not write it."}},
		geminitest.Step{Calls: []geminitest.Call{{ID: "s1", Name: "run_shell", Args: map[string]any{"command": "sleep 30"}}}},
	)
	defer srv.Close()
	term := startTerminal(t, dir, srv.Env(), "chat")
	term.expect("jido chat · gemini")
	term.expect("› ")

	term.typeLine("create hello.txt")
	term.expect("write_file hello.txt")
	term.expect("+hi")
	term.expect("allow?")
	term.typeLine("y")
	term.expect("● write_file hello.txt → created, 3 bytes")
	term.expect("Created hello.txt.")
	data, err := os.ReadFile(filepath.Join(dir, "hello.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hi\n", string(data))

	term.typeLine("create bad.txt")
	term.expect("allow?")
	term.typeLine("n")
	term.expect("✗ write_file bad.txt → permission-error")
	term.expect("Understood, I will not write it.")
	assert.NoFileExists(t, filepath.Join(dir, "bad.txt"))
	reqs := srv.Requests()
	require.Len(t, reqs, 4)
	denied, _ := json.Marshal(functionResponses(t, reqs[3]))
	assert.Contains(t, string(denied), "the user denied write_file", "the denial reaches the model")

	term.typeLine("/diff")
	term.expect("+++ hello.txt")
	term.typeLine("/mode")
	term.expect("mode: default")

	term.typeLine("wait a while")
	term.expect("allow?")
	term.typeLine("y")
	time.Sleep(300 * time.Millisecond) // the command is running
	_, err = term.tty.Write([]byte{3}) // Ctrl-C
	require.NoError(t, err)
	term.expect("(stopped)")
	term.expect("› ")

	term.typeLine("/exit")
	assert.Equal(t, 0, term.waitExit(), "jido chat exits cleanly")
}

// waitExit waits for the terminal's process to end and returns its exit code.
func (term *terminal) waitExit() int {
	term.t.Helper()
	done := make(chan error, 1)
	go func() { done <- term.cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		require.NoError(term.t, err)
		return 0
	case <-time.After(10 * time.Second):
		require.FailNow(term.t, "jido chat did not exit")
		return -1
	}
}

func TestChatOfflineResume(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"README.md": "hello from the readme\n", "src/main.go": "package main\n"})
	state := t.TempDir() // this test's own transcripts
	env := append([]string{"XDG_STATE_HOME=" + state}, offlineEnv...)

	term := startTerminal(t, dir, env, "chat")
	term.expect("runs offline")
	term.expect("› ")
	term.typeLine("read README.md")
	term.expect("● read_file README.md → 1 line")
	term.expect("hello from the readme")
	term.expect("› ")
	_, err := term.tty.Write([]byte{3}) // Ctrl-C at the prompt: a hint, not an exit
	require.NoError(t, err)
	term.expect("press Ctrl-C again")
	_, err = term.tty.Write([]byte{3})
	require.NoError(t, err)
	assert.Equal(t, 0, term.waitExit(), "a second Ctrl-C leaves")

	// The saved conversation comes back: "the current file" is the one read before.
	term = startTerminal(t, dir, env, "chat", "--resume", "last")
	term.expect("› ")
	term.typeLine("read the current file")
	term.expect("● read_file README.md → 1 line")
	term.typeLine("/exit")
	assert.Equal(t, 0, term.waitExit())
}
