package integration

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jido-run/jido/manager"
	"github.com/jido-run/jido/security"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The path attack corpus: testdata/path_attacks.txt documents its format. Every case runs
// through the Go API, in a fresh session, against the fixture of newFixture; the cases marked
// `bin` also run through `jido call --root`. See the corpus header for what every case
// asserts. The fixture is shared by the cases of a test and rebuilt whenever a case changed
// anything in it (see fixturePool), so every case starts from the same pristine tree.

const (
	corpusFile = "testdata/path_attacks.txt"
	// caseTimeout bounds one call: a FIFO or device that blocks fails the case instead of
	// hanging the suite. The watchdog fires a little later, then unblocks the FIFOs.
	caseTimeout = 10 * time.Second
	// minCases and minBinaryCases are the corpus sizes the suite promises.
	minCases       = 600
	minBinaryCases = 45
)

// attackTools are the tools the corpus must cover, every one of them.
var attackTools = []string{"read_file", "write_file", "edit_file", "multi_edit", "edit_region", "list_dir", "glob", "delete_file", "move_file", "create_directory"}

// knownErrorTypes are the error types a deny:TYPE expectation may name.
var knownErrorTypes = []string{"validation-error", "file-error", "process-error", "permission-error", "conflict-error", "timeout-error", "internal-error"}

// attackCase is one case of the corpus.
type attackCase struct {
	line      int
	name      string
	family    string
	tool      string
	args      string // JSON object with placeholders
	expect    string // "allow", "deny" or "safe"
	errType   string // with deny: the required error type, if any
	checks    []caseCheck
	readFirst []string
	bin       bool
	needs     string
}

// caseCheck is one post-condition of a case (see the corpus header).
type caseCheck struct{ kind, arg string }

// checkKinds are the key=value checks of the corpus.
var checkKinds = []string{"read-first", "exists", "absent", "symlink", "has", "out", "!out", "nohost", "needs"}

// loadCorpus parses the corpus file; a malformed line fails the test.
func loadCorpus(t *testing.T) []attackCase {
	t.Helper()
	f, err := os.Open(corpusFile)
	require.NoError(t, err)
	defer f.Close()
	var cases []attackCase
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c, err := parseCase(line)
		require.NoError(t, err, "%s:%d: %s", corpusFile, n, line)
		c.line = n
		if prev, dup := seen[c.name]; dup {
			require.Failf(t, "duplicate case name", "%s:%d: %q already at line %d", corpusFile, n, c.name, prev)
		}
		seen[c.name] = n
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases
}

// parseCase parses one corpus line.
func parseCase(line string) (attackCase, error) {
	fields := strings.Split(line, " | ")
	if len(fields) < 4 || len(fields) > 5 {
		return attackCase{}, fmt.Errorf("want 4 or 5 fields separated by \" | \", got %d", len(fields))
	}
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	c := attackCase{name: fields[0], tool: fields[1], args: fields[2]}
	family, _, ok := strings.Cut(c.name, "/")
	if !ok || family == "" {
		return c, fmt.Errorf("name %q has no family/ prefix", c.name)
	}
	c.family = family
	if !slices.Contains(attackTools, c.tool) {
		return c, fmt.Errorf("unknown tool %q", c.tool)
	}
	switch exp := fields[3]; {
	case exp == "allow" || exp == "deny" || exp == "safe":
		c.expect = exp
	case strings.HasPrefix(exp, "deny:"):
		c.expect, c.errType = "deny", strings.TrimPrefix(exp, "deny:")
		if !slices.Contains(knownErrorTypes, c.errType) {
			return c, fmt.Errorf("unknown error type %q", c.errType)
		}
	default:
		return c, fmt.Errorf("expect must be allow, deny, deny:TYPE or safe, got %q", exp)
	}
	if len(fields) == 5 {
		for _, tok := range strings.Fields(fields[4]) {
			if tok == "bin" {
				c.bin = true
				continue
			}
			kind, arg, ok := strings.Cut(tok, "=")
			if !ok || arg == "" || !slices.Contains(checkKinds, kind) {
				return c, fmt.Errorf("bad check %q", tok)
			}
			switch kind {
			case "read-first":
				c.readFirst = append(c.readFirst, arg)
			case "needs":
				if arg != "chardev" {
					return c, fmt.Errorf("unknown need %q", arg)
				}
				c.needs = arg
			default:
				c.checks = append(c.checks, caseCheck{kind, arg})
			}
		}
	}
	if c.bin && (len(c.readFirst) > 0 || c.needs != "") {
		return c, errors.New("a bin case cannot use read-first or needs (one call per process)")
	}
	return c, nil
}

// fixture is the tree a case runs against: {TMP}/root (the project), {TMP}/outside and
// {TMP}/root_evil (canaries), with {TMP} a fresh directory in the test's temp directory.
type fixture struct {
	tmp, root, out, evil string
	rand                 string   // {RAND}: fresh for every case
	canaries             []string // must never appear in any output
	chardev              bool     // root/chardev is a character device (mknod 1,5)
}

// hostFiles are files outside the temp directory that fixture links point at; they must
// not change.
var hostFiles = []string{"/etc/passwd"}

// newFixture builds the fixture described in the corpus header in a new directory of base
// (a t.TempDir()).
func newFixture(t *testing.T, base string) *fixture {
	t.Helper()
	tmp, err := os.MkdirTemp(base, "fx-")
	require.NoError(t, err)
	fx := &fixture{
		tmp:  tmp,
		root: filepath.Join(tmp, "root"),
		out:  filepath.Join(tmp, "outside"),
		evil: filepath.Join(tmp, "root_evil"),
		rand: randHex(t, 8),
	}
	require.NotContains(t, tmp, `"`, "placeholders are spliced into JSON strings")
	require.NotContains(t, tmp, `\`, "placeholders are spliced into JSON strings")
	id := randHex(t, 8)
	outCanary := "CANARY-OUTSIDE-" + id
	evilCanary := "CANARY-EVIL-" + id
	secretCanary := "CANARY-SECRET-" + id
	fx.canaries = []string{outCanary, evilCanary, secretCanary, "root:x:0:0"}
	writeTree(t, fx.out, map[string]string{
		"secret.txt":                 outCanary + "\n",
		"file.txt":                   outCanary + "\n",
		"hard.txt":                   outCanary + "\n",
		"odir/oinner.txt":            outCanary + "\n",
		"leak-" + outCanary + ".txt": outCanary + "\n",
		"sub/inner.txt":              outCanary + "\n",
		"newdir/keep-" + outCanary:   outCanary + "\n",
	})
	writeTree(t, fx.evil, map[string]string{
		"x":                           evilCanary + "\n",
		"secret.txt":                  evilCanary + "\n",
		"leak-" + evilCanary + ".txt": evilCanary + "\n",
	})
	writeTree(t, fx.root, map[string]string{
		"file.txt":                     "hello\nworld\n",
		"notes.md":                     "# notes\nalpha\n",
		"a/b/c.txt":                    "deep\n",
		"sub/inner.txt":                "inner\n",
		"sub/deep/x.txt":               "x\n",
		".env":                         "API_KEY=" + secretCanary + "\n",
		".env.local":                   "TOKEN=" + secretCanary + "\n",
		".env.example":                 "API_KEY=changeme\n",
		"id_rsa":                       "-----BEGIN OPENSSH PRIVATE KEY-----\n" + secretCanary + "\n-----END OPENSSH PRIVATE KEY-----\n",
		"id_rsa.pub":                   "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 public@example\n",
		".git/config":                  "[core]\n\tbare = false\n",
		".git/HEAD":                    "ref: refs/heads/main\n",
		".git/hooks/pre-commit.sample": "#!/bin/sh\n",
		".envrc":                       "export TOKEN=" + secretCanary + "\nsetting = 1\n",
		"nest/.envrc":                  "export TOKEN=" + secretCanary + "\nsetting = 1\n",
	})
	protected := "# MARK-PROTECTED original\nsetting = 1\n"
	files := map[string]string{
		".jido/config.toml":           "# MARK-PROTECTED original\n# setting = 1\n", // the binary loads it: TOML
		"nest/deep/.jido/config.toml": "# MARK-PROTECTED original\n# setting = 1\n",
	}
	for _, name := range []string{".vscode/settings.json", ".idea/workspace.xml", "nest/.vscode/tasks.json", "nest/.zshrc",
		".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".inputrc"} {
		files[name] = protected
	}
	writeTree(t, fx.root, files)
	deep := strings.Repeat("../", 40)
	links := [][2]string{
		{"out_file", fx.out + "/secret.txt"},
		{"out_file_rel", "../outside/secret.txt"},
		{"out_dir", fx.out},
		{"out_dir_rel", "../outside"},
		{"evil_dir", "../root_evil"},
		{"in_link", "file.txt"},
		{"in_dir_link", "sub"},
		{"abs_in", fx.root + "/file.txt"},
		{"abs_in_dir", fx.root + "/sub"},
		{"chain1", "chain2"}, {"chain2", "chain3"}, {"chain3", "../outside/secret.txt"},
		{"dchain1", "dchain2"}, {"dchain2", "out_dir_rel"},
		{"in_chain1", "in_chain2"}, {"in_chain2", "sub/../in_link"},
		{"sub/up", ".."},
		{"sub/esc", "../../outside"},
		{"sub/esc_file", "../../outside/secret.txt"},
		{"dangling_out", fx.out + "/created.txt"},
		{"dangling_out_rel", "../outside/created.txt"},
		{"dangling_dir", "../outside/newdir/deeper"},
		{"dangling_in", "newfile.txt"},
		{"passwd", "/etc/passwd"},
		{"passwd_rel", deep + "etc/passwd"},
		{"proc_root", "/proc/self/root"},
		{"proc_cwd", "/proc/self/cwd"},
		{"zero", "/dev/zero"},
		{"zero_rel", deep + "dev/zero"},
		{"loop1", "loop2"}, {"loop2", "loop1"},
		{"innocent.txt", ".env"},
		{"innocent2.txt", "sub/../innocent.txt"},
		{"git_cfg_link", ".git/config"},
		{"fifo_link", "fifo"},
		{"hl_link", "hardlink"},
		{"rc_link", ".bashrc"},
		{"vscode_link", ".vscode"},
		{"dangling_rc", "nest/.profile"},
		{"jido_tools_link", ".jido/tools"},
	}
	for _, l := range links {
		require.NoError(t, os.Symlink(l[1], filepath.Join(fx.root, l[0])))
	}
	require.NoError(t, os.Link(filepath.Join(fx.out, "hard.txt"), filepath.Join(fx.root, "hardlink")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(fx.root, "fifo"), 0o644))
	if os.Geteuid() == 0 {
		// makedev(1, 5): /dev/zero. Fails without CAP_MKNOD; the cases that need it are skipped.
		fx.chardev = syscall.Mknod(filepath.Join(fx.root, "chardev"), syscall.S_IFCHR|0o644, 1<<8|5) == nil
	}
	return fx
}

// fixturePool hands the cases of one test the fixture, built in the test's temp directory,
// and rebuilds it after a case changed anything in it (an allowed write, a failed case).
type fixturePool struct {
	base     string // t.TempDir() of the test: everything in it but the root is watched
	fx       *fixture
	pristine snapshots
	builds   int
}

// get returns the pristine fixture, building it if needed, with a fresh {RAND}.
func (p *fixturePool) get(t *testing.T) *fixture {
	t.Helper()
	if p.fx == nil {
		p.fx = newFixture(t, p.base)
		p.pristine = p.fx.snapshots(t)
		p.builds++
	}
	p.fx.rand = randHex(t, 8)
	return p.fx
}

// release discards the fixture unless after (nil: unknown) shows it is still pristine.
func (p *fixturePool) release(after *snapshots) {
	if p.fx == nil {
		return
	}
	if after != nil && len(diffSnapshots(p.pristine.root, after.root)) == 0 &&
		len(diffSnapshots(p.pristine.outside, after.outside)) == 0 &&
		len(diffSnapshots(p.pristine.host, after.host)) == 0 {
		return
	}
	os.RemoveAll(p.fx.tmp)
	p.fx = nil
}

// randHex returns n random bytes in hex.
func randHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return hex.EncodeToString(b)
}

var repPlaceholder = regexp.MustCompile(`\{rep:(\d+):([^}]*)\}`)

// expand substitutes the corpus placeholders.
func (fx *fixture) expand(s string) string {
	s = repPlaceholder.ReplaceAllStringFunc(s, func(m string) string {
		sub := repPlaceholder.FindStringSubmatch(m)
		n, _ := strconv.Atoi(sub[1])
		return strings.Repeat(sub[2], n)
	})
	return strings.NewReplacer(
		"{ROOT}", fx.root, "{OUT}", fx.out, "{EVIL}", fx.evil, "{TMP}", fx.tmp, "{RAND}", fx.rand,
	).Replace(s)
}

// argsOf returns the case's arguments with the placeholders substituted, as JSON and decoded.
func (fx *fixture) argsOf(t *testing.T, c attackCase) (string, map[string]any) {
	t.Helper()
	raw := fx.expand(c.args)
	var args map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &args), "%s:%d: args", corpusFile, c.line)
	return raw, args
}

// unblock opens the fixture's FIFO for writing and closes it, which releases a reader
// blocked in open(2) or read(2) on it.
func (fx *fixture) unblock() {
	for range 50 {
		f, err := os.OpenFile(filepath.Join(fx.root, "fifo"), os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			f.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// watchdog fails the test if stop is not called within caseTimeout plus a margin, and then
// unblocks the fixture's FIFO so that a call blocked on it can return.
func (fx *fixture) watchdog(t *testing.T, what string) (stop func()) {
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		limit := caseTimeout + 2*time.Second
		select {
		case <-done:
		case <-time.After(limit):
			t.Errorf("%s: no answer after %v: the call hangs", what, limit)
			fx.unblock()
		}
	}()
	return func() { close(done); <-exited }
}

// entryState is what a snapshot records of one file-system entry.
type entryState struct {
	Mode  fs.FileMode
	Size  int64
	MTime int64 // ns; zero in root snapshots
	Ino   uint64
	Hash  string // sha256 of a regular file's content
	Link  string // a symlink's target
}

// snapshot records every entry under dir (not following links), skipping the directories
// in skip (and what they hold). With times, modification times are recorded too.
func snapshot(t *testing.T, dir string, skip []string, times bool) map[string]entryState {
	t.Helper()
	snap := map[string]entryState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if slices.Contains(skip, p) {
			return fs.SkipDir
		}
		st, err := entryOf(p, times)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		snap[rel] = st
		return nil
	})
	require.NoError(t, err, "snapshot of %s", dir)
	return snap
}

// entryOf lstats (and for regular files reads) one entry.
func entryOf(p string, times bool) (entryState, error) {
	info, err := os.Lstat(p)
	if err != nil {
		return entryState{}, err
	}
	st := entryState{Mode: info.Mode(), Size: info.Size()}
	if sys, ok := info.Sys().(*syscall.Stat_t); ok {
		st.Ino = sys.Ino
	}
	if times {
		st.MTime = info.ModTime().UnixNano()
	}
	switch {
	case info.Mode().IsRegular():
		data, err := os.ReadFile(p)
		if err != nil {
			return entryState{}, err
		}
		sum := sha256.Sum256(data)
		st.Hash = hex.EncodeToString(sum[:])
	case info.Mode()&fs.ModeSymlink != 0:
		if st.Link, err = os.Readlink(p); err != nil {
			return entryState{}, err
		}
	}
	return st, nil
}

// diffSnapshots lists what differs between two snapshots, sorted.
func diffSnapshots(before, after map[string]entryState) []string {
	var diffs []string
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			diffs = append(diffs, "deleted "+p)
		case a != b:
			diffs = append(diffs, fmt.Sprintf("changed %s: %+v -> %+v", p, b, a))
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, "created "+p)
		}
	}
	sort.Strings(diffs)
	return diffs
}

// snapshots is the state a case must not change.
type snapshots struct {
	outside map[string]entryState // the case's temp directory's parent, minus the root
	host    map[string]entryState // hostFiles
	root    map[string]entryState // the root, without times
}

// watchDir is the directory whose whole content, but the root, must not change: the
// test's temp directory, which holds {TMP}, so that "../../x" from the root is watched too.
func (fx *fixture) watchDir() string { return filepath.Dir(fx.tmp) }

func (fx *fixture) snapshots(t *testing.T) snapshots {
	t.Helper()
	s := snapshots{
		outside: snapshot(t, fx.watchDir(), []string{fx.root}, true),
		host:    map[string]entryState{},
		root:    snapshot(t, fx.root, []string{filepath.Join(fx.root, ".jido")}, false),
	}
	for _, p := range hostFiles {
		if st, err := entryOf(p, true); err == nil {
			s.host[p] = st
		}
	}
	return s
}

// outcome is what one run of a case produced, through the API or the binary.
type outcome struct {
	ok      bool
	errType string
	output  string // everything the caller sees: the result JSON (and stderr for the binary)
	elapsed time.Duration
}

// attackSummary counts what the cases did.
type attackSummary struct {
	run, denied, allowed, skipped, escapes int
	perFamily                              map[string]int
}

// record checks one case's outcome against the fixture and counts it; it returns the
// fixture's state after the case.
func (s *attackSummary) record(t *testing.T, fx *fixture, c attackCase, before snapshots, got outcome) snapshots {
	s.run++
	s.perFamily[c.family]++
	if got.ok {
		s.allowed++
	} else {
		s.denied++
	}
	after, escaped := fx.verify(t, c, before, got)
	if escaped {
		s.escapes++
	}
	return after
}

func (s *attackSummary) String() string {
	families := make([]string, 0, len(s.perFamily))
	for f, n := range s.perFamily {
		families = append(families, fmt.Sprintf("%s=%d", f, n))
	}
	sort.Strings(families)
	return fmt.Sprintf("%d cases run, %d denied, %d allowed, %d skipped, escapes=%d (per family: %s)",
		s.run, s.denied, s.allowed, s.skipped, s.escapes, strings.Join(families, " "))
}

// verify asserts everything a case promises; it reports whether anything escaped, and
// returns the snapshots taken after the call.
func (fx *fixture) verify(t *testing.T, c attackCase, before snapshots, got outcome) (after snapshots, escaped bool) {
	t.Helper()
	where := fmt.Sprintf("%s:%d %s %s", corpusFile, c.line, c.tool, c.args)
	show := got.output
	if len(show) > 2000 {
		show = show[:2000] + "..."
	}
	switch c.expect {
	case "allow":
		assert.True(t, got.ok, "%s: want success, got %s", where, show)
	case "deny":
		assert.False(t, got.ok, "%s: want an error, got %s", where, show)
		if c.errType != "" && !got.ok {
			assert.Equal(t, c.errType, got.errType, "%s: error type; result %s", where, show)
		}
	}
	assert.Less(t, got.elapsed, caseTimeout, "%s: the call must not block", where)

	for _, canary := range fx.canaries {
		if !assert.NotContains(t, got.output, canary, "%s: outside or secret content leaked", where) {
			escaped = true
		}
	}
	after = fx.snapshots(t)
	if d := diffSnapshots(before.outside, after.outside); !assert.Empty(t, d, "%s: the outside tree changed", where) {
		escaped = true
	}
	if d := diffSnapshots(before.host, after.host); !assert.Empty(t, d, "%s: a host file changed", where) {
		escaped = true
	}
	if c.expect != "allow" {
		assert.Empty(t, diffSnapshots(before.root, after.root), "%s: a %s case changed the root", where, c.expect)
	}
	for _, ch := range c.checks {
		arg := fx.expand(ch.arg)
		p := filepath.Join(fx.root, filepath.FromSlash(arg))
		switch ch.kind {
		case "exists":
			_, err := os.Lstat(p)
			assert.NoError(t, err, "%s: %s must exist in the root", where, arg)
		case "absent":
			_, err := os.Lstat(p)
			assert.ErrorIs(t, err, fs.ErrNotExist, "%s: %s must not exist in the root", where, arg)
		case "symlink":
			info, err := os.Lstat(p)
			if assert.NoError(t, err, "%s: %s must exist", where, arg) {
				assert.NotZero(t, info.Mode()&fs.ModeSymlink, "%s: %s must still be a symlink", where, arg)
			}
		case "has":
			name, text, _ := strings.Cut(arg, ":")
			p = filepath.Join(fx.root, filepath.FromSlash(name))
			info, err := os.Lstat(p)
			if assert.NoError(t, err, "%s: %s must exist", where, name) && assert.True(t, info.Mode().IsRegular(), "%s: %s must be a regular file", where, name) {
				data, err := os.ReadFile(p)
				require.NoError(t, err)
				assert.Contains(t, string(data), text, "%s: content of %s", where, name)
			}
		case "out":
			assert.Contains(t, got.output, arg, "%s: result", where)
		case "!out":
			assert.NotContains(t, got.output, arg, "%s: result", where)
		case "nohost":
			if _, err := os.Lstat(arg); !errors.Is(err, fs.ErrNotExist) {
				escaped = true
				assert.Fail(t, "escape", "%s: %s exists on the host after the call (lstat: %v)", where, arg, err)
				os.RemoveAll(arg)
			}
		}
	}
	return after, escaped
}

// cleanupHost removes, at the end of the test, the host paths a case checks are absent, in
// case an escape created them.
func (fx *fixture) cleanupHost(t *testing.T, c attackCase) {
	for _, ch := range c.checks {
		if ch.kind == "nohost" {
			p := fx.expand(ch.arg)
			t.Cleanup(func() { os.RemoveAll(p) })
		}
	}
}

// TestPathAttackCorpus checks the corpus itself: size, coverage of every tool and family,
// a binary case in every family, and arguments that are JSON objects.
func TestPathAttackCorpus(t *testing.T) {
	cases := loadCorpus(t)
	assert.GreaterOrEqual(t, len(cases), minCases, "corpus size")
	tools, families, binFamilies := map[string]int{}, map[string]int{}, map[string]int{}
	bins := 0
	fx := &fixture{tmp: "/t", root: "/t/root", out: "/t/outside", evil: "/t/root_evil", rand: "00"}
	for _, c := range cases {
		tools[c.tool]++
		families[c.family]++
		if c.bin {
			bins++
			binFamilies[c.family]++
		}
		var args map[string]any
		assert.NoError(t, json.Unmarshal([]byte(fx.expand(c.args)), &args), "%s:%d: args of %s", corpusFile, c.line, c.name)
	}
	for _, tool := range attackTools {
		assert.Positive(t, tools[tool], "no case uses %s", tool)
	}
	assert.GreaterOrEqual(t, bins, minBinaryCases, "cases run through the binary")
	for f := range families {
		assert.Positive(t, binFamilies[f], "family %s has no case run through the binary", f)
	}
	t.Logf("corpus: %d cases, %d through the binary; per family %v; per tool %v", len(cases), bins, families, tools)
}

// writeTools are the tools that change files: each must be refused on each protected name.
var writeTools = []string{"write_file", "edit_file", "multi_edit", "edit_region", "delete_file", "move_file", "create_directory"}

// TestPathAttackCorpusCoversProtected checks that, for every name of
// security.DefaultProtected, every tool that writes has a deny case whose path has that
// name as one of its components, at the root and nested.
func TestPathAttackCorpusCoversProtected(t *testing.T) {
	cases := loadCorpus(t)
	names := map[string]bool{}
	for _, p := range security.DefaultProtected() {
		names[strings.TrimSuffix(strings.TrimPrefix(p, "**/"), "/**")] = true
	}
	require.Contains(t, names, ".vscode")
	fx := &fixture{tmp: "/t", root: "/t/root", out: "/t/outside", evil: "/t/root_evil", rand: "00"}
	type key struct{ tool, name string }
	covered, nested := map[key]bool{}, map[string]bool{}
	for _, c := range cases {
		if c.expect != "deny" {
			continue
		}
		var args map[string]any
		require.NoError(t, json.Unmarshal([]byte(fx.expand(c.args)), &args))
		for _, field := range []string{"path", "source", "destination"} {
			p, _ := args[field].(string)
			parts := strings.Split(p, "/")
			for i, part := range parts {
				if names[part] {
					covered[key{c.tool, part}] = true
					if i > 0 {
						nested[part] = true
					}
				}
			}
		}
	}
	for name := range names {
		for _, tool := range writeTools {
			assert.True(t, covered[key{tool, name}], "no deny case of %s on %s", tool, name)
		}
		assert.True(t, nested[name], "no deny case on %s below the root", name)
	}
}

// TestPathAttacks runs every case of the corpus through the Go API.
func TestPathAttacks(t *testing.T) {
	cases := loadCorpus(t)
	sum := &attackSummary{perFamily: map[string]int{}}
	pool := &fixturePool{base: t.TempDir()}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var after *snapshots
			defer func() { pool.release(after) }()
			fx := pool.get(t)
			if c.needs == "chardev" && !fx.chardev {
				sum.skipped++
				after = &pool.pristine
				t.Skip("no character device in the fixture (needs root and CAP_MKNOD)")
			}
			fx.cleanupHost(t, c)
			_, args := fx.argsOf(t, c)
			_, s := openSession(t, fx.root)
			for _, p := range c.readFirst {
				res := s.Call(t.Context(), manager.ToolCall{Name: "read_file", Args: map[string]any{"path": p}})
				require.True(t, res.OK, "precondition: read_file %s: %+v", p, res.Error)
			}
			before := fx.snapshots(t)

			ctx, cancel := context.WithTimeout(t.Context(), caseTimeout)
			defer cancel()
			stop := fx.watchdog(t, c.name)
			start := time.Now()
			res := s.Call(ctx, manager.ToolCall{Name: c.tool, Args: args})
			elapsed := time.Since(start)
			stop()

			out, err := json.Marshal(res)
			require.NoError(t, err)
			got := outcome{ok: res.OK, output: string(out), elapsed: elapsed}
			if res.Error != nil {
				got.errType = res.Error.Type
			}
			assert.Equal(t, c.tool, res.Name)
			assert.Equal(t, res.OK, res.Error == nil, "ok and error disagree: %s", out)

			snap := sum.record(t, fx, c, before, got)
			after = &snap
		})
	}
	t.Logf("path attacks (Go API): %s; fixture built %d times", sum, pool.builds)
	assert.Zero(t, sum.escapes, "escapes")
	assert.GreaterOrEqual(t, sum.run, minCases-sum.skipped, "cases run")
}

// TestPathAttacksBinary runs the cases marked `bin` through `jido call --root`.
func TestPathAttacksBinary(t *testing.T) {
	cases := loadCorpus(t)
	sum := &attackSummary{perFamily: map[string]int{}}
	pool := &fixturePool{base: t.TempDir()}
	for _, c := range cases {
		if !c.bin {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			var after *snapshots
			defer func() { pool.release(after) }()
			fx := pool.get(t)
			fx.cleanupHost(t, c)
			raw, _ := fx.argsOf(t, c)
			before := fx.snapshots(t)

			stop := fx.watchdog(t, c.name)
			start := time.Now()
			r := runJido(t, "", "call", "--root", fx.root, "--yes", c.tool, raw)
			elapsed := time.Since(start)
			stop()

			lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
			require.Len(t, lines, 1, "jido call prints one JSON line; stdout %q stderr %q", r.stdout, r.stderr)
			res := decodeJSON(t, lines[0])
			ok, _ := res["ok"].(bool)
			got := outcome{ok: ok, output: r.stdout + r.stderr, elapsed: elapsed}
			if e, isMap := res["error"].(map[string]any); isMap {
				got.errType, _ = e["type"].(string)
			}
			wantCode := 1
			if ok {
				wantCode = 0
			}
			assert.Equal(t, wantCode, r.code, "exit code; stderr %q", r.stderr)
			assert.Equal(t, c.tool, res["name"])

			snap := sum.record(t, fx, c, before, got)
			after = &snap
		})
	}
	t.Logf("path attacks (jido call): %s; fixture built %d times", sum, pool.builds)
	assert.Zero(t, sum.escapes, "escapes")
	assert.GreaterOrEqual(t, sum.run, minBinaryCases, "cases run through the binary")
}
