// Command findbench measures jido's search, glob and listing against ripgrep and fd on a
// corpus made from the Go toolchain's own source tree, and checks that both find the same
// (path, line) matches; and jido's start-up (version, a small call) against fd's. Commands
// run interleaved, one round at a time, so that the noise of a shared machine hits every
// command alike; it prints medians and ratios, and a summary with the targets.
//
//	go run ./test/bench/findbench [-rounds 11] [-corpus DIR] [-keep] [-summary FILE]
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// gitignore is the corpus's .gitignore: it makes the ignore rules matter on real data.
const gitignore = "testdata/\n*.golden\n*.out\n/cmd/dist/dist\n"

// group is one comparison: a jido tool call (or, with argv, another jido command) and the
// reference commands it is measured against; check says how to compare their outputs.
type group struct {
	name   string
	tool   string
	args   map[string]any
	refs   [][]string // reference commands; the last is the baseline of the summary's ratio
	check  string     // "lines": (path, line) sets equal; "files": path sets equal; "": not compared
	target string     // what to reach (issue 23)
	argv   []string   // jido's arguments instead of `call --root CORPUS tool args`
}

// row is one line of the summary: a group's medians, its baseline's, and max RSS.
type row struct {
	name            string
	jido, ref       time.Duration
	jidoRSS, refRSS int64 // KiB
	refName         string
	target          string
}

func main() {
	rounds := flag.Int("rounds", 11, "measured rounds (after one warm-up round)")
	corpus := flag.String("corpus", "", "corpus directory (default: a new temporary copy of GOROOT/src)")
	keep := flag.Bool("keep", false, "keep the temporary corpus")
	summary := flag.String("summary", "", "also write the summary rows to this file, tab-separated: name, jido ms, reference ms, ratio, target, jido KiB, reference KiB")
	flag.Parse()
	if err := run(*rounds, *corpus, *keep, *summary); err != nil {
		fmt.Fprintln(os.Stderr, "findbench:", err)
		os.Exit(1)
	}
}

func run(rounds int, corpus string, keep bool, summary string) error {
	rg, err := exec.LookPath("rg")
	if err != nil {
		return fmt.Errorf("ripgrep (rg) is needed as the reference: %w", err)
	}
	fd := lookFd()
	tmp, err := os.MkdirTemp("", "findbench-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(tmp)
	}
	jido := filepath.Join(tmp, "jido")
	if out, err := exec.Command("go", "build", "-o", jido, "./cmd/jido").CombinedOutput(); err != nil {
		return fmt.Errorf("building jido: %v: %s", err, out)
	}
	if corpus == "" {
		corpus = filepath.Join(tmp, "corpus")
		if err := makeCorpus(corpus); err != nil {
			return err
		}
	}
	const all = 10_000_000
	groups := []group{
		{name: "search: literal 'func main'", tool: "search", args: map[string]any{"query": "func main", "case_sensitive": true, "max_results": all},
			refs: [][]string{{rg, "-n", "-F", "func main"}}, check: "lines", target: "<= 1.2x"},
		{name: "search: regex 'func \\w+\\(ctx context\\.Context'", tool: "search", args: map[string]any{"query": `func \w+\(ctx context\.Context`, "is_regex": true, "max_results": all},
			refs: [][]string{{rg, "-n", `func \w+\(ctx context\.Context`}}, check: "lines", target: "<= 1.2x"},
		{name: "search: case-insensitive 'func main'", tool: "search", args: map[string]any{"query": "func main", "case_sensitive": false, "max_results": all},
			refs: [][]string{{rg, "-n", "-i", "-F", "func main"}}, check: "lines", target: "<= 1.2x"},
		{name: "search: regex without literal (dates)", tool: "search", args: map[string]any{"query": "[0-9]{4}-[0-9]{2}-[0-9]{2}", "is_regex": true, "max_results": all},
			refs: [][]string{{rg, "-n", "[0-9]{4}-[0-9]{2}-[0-9]{2}"}}, check: "lines", target: "<= 1.2x"},
		{name: "search: -g '*.go' 'func main'", tool: "search", args: map[string]any{"query": "func main", "case_sensitive": true, "include_paths": []string{"*.go"}, "max_results": all},
			refs: [][]string{{rg, "-n", "-F", "-g", "*.go", "func main"}}, check: "lines", target: "<= 1.2x"},
		{name: "glob: list all files", tool: "glob", args: map[string]any{"pattern": "**", "max_results": all},
			refs: refsWithFd([]string{rg, "--files"}, fd, "-t", "f"), check: "files", target: "<= 1.0x"},
		{name: "glob: **/*.go", tool: "glob", args: map[string]any{"pattern": "**/*.go", "max_results": all},
			refs: refsWithFd([]string{rg, "--files", "-g", "*.go"}, fd, "-t", "f", "-e", "go"), check: "files", target: "<= 1.0x"},
		{name: "start-up: jido version", argv: []string{"version"}, refs: startRef(rg, fd), target: "<= 3 ms, <= 20 MiB"},
		{name: "start-up: jido call file_exists", argv: []string{"call", "--root", corpus, "file_exists", `{"path":"go.mod"}`}, refs: startRef(rg, fd), target: "<= 3 ms, <= 20 MiB"},
	}
	fmt.Printf("corpus %s, %d rounds, medians (min..max)\n\n", corpus, rounds)
	var rows []row
	for _, g := range groups {
		r, err := measure(g, jido, corpus, rounds)
		if err != nil {
			return fmt.Errorf("%s: %w", g.name, err)
		}
		rows = append(rows, r)
	}
	return printSummary(rows, summary)
}

// startRef is the reference of the start-up rows: fd's (else rg's) --version, a program
// that starts and exits as a fast Rust CLI does. The target is 3 ms and 20 MB.
func startRef(rg, fd string) [][]string {
	if fd != "" {
		return [][]string{{fd, "--version"}}
	}
	return [][]string{{rg, "--version"}}
}

// printSummary prints one table of every group against its baseline, and writes it to
// file as tab-separated rows when file is set.
func printSummary(rows []row, file string) error {
	fmt.Printf("## summary\n| figure | jido ms | reference ms | ratio | target | jido max RSS MiB | reference max RSS MiB |\n|---|---:|---:|---:|---:|---:|---:|\n")
	var tsv strings.Builder
	for _, r := range rows {
		ratio := float64(r.jido) / float64(r.ref)
		fmt.Printf("| %s (vs %s) | %.1f | %.1f | **%.2fx** | %s | %.1f | %.1f |\n", r.name, r.refName, ms(r.jido), ms(r.ref), ratio, r.target, float64(r.jidoRSS)/1024, float64(r.refRSS)/1024)
		fmt.Fprintf(&tsv, "%s (vs %s)\t%.2f\t%.2f\t%.2f\t%s\t%d\t%d\n", r.name, r.refName, ms(r.jido), ms(r.ref), ratio, r.target, r.jidoRSS, r.refRSS)
	}
	if file == "" {
		return nil
	}
	return os.WriteFile(file, []byte(tsv.String()), 0o644)
}

// lookFd finds fd (Debian names it fdfind); "" when absent.
func lookFd() string {
	for _, name := range []string{"fd", "fdfind"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func refsWithFd(rg []string, fd string, args ...string) [][]string {
	if fd == "" {
		return [][]string{rg}
	}
	return [][]string{rg, append([]string{fd}, args...)}
}

// makeCorpus copies GOROOT/src to dir and makes it a git repository with the .gitignore.
func makeCorpus(dir string) error {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return err
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
		return fmt.Errorf("copying %s: %v: %s", src, err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(gitignore), 0o644); err != nil {
		return err
	}
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	return nil
}

// measure runs one group interleaved, prints its table and returns its summary row.
func measure(g group, jido, corpus string, rounds int) (row, error) {
	args, err := json.Marshal(g.args)
	if err != nil {
		return row{}, err
	}
	first := []string{jido, "call", "--root", corpus, g.tool, string(args)}
	if g.argv != nil {
		first = append([]string{jido}, g.argv...)
	}
	cmds := append([][]string{first}, g.refs...)
	times := make([][]time.Duration, len(cmds))
	rss := make([][]int64, len(cmds))
	outs := make([][]byte, len(cmds))
	for r := 0; r <= rounds; r++ {
		for i, c := range cmds {
			cmd := exec.Command(c[0], c[1:]...)
			cmd.Dir = corpus
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			start := time.Now()
			err := cmd.Run()
			d := time.Since(start)
			if err != nil && !(i > 0 && stdout.Len() == 0) {
				return row{}, fmt.Errorf("%s: %v", strings.Join(c, " "), err)
			}
			if r == 0 {
				outs[i] = stdout.Bytes()
				continue // warm-up
			}
			times[i] = append(times[i], d)
			rss[i] = append(rss[i], maxRSS(cmd))
		}
	}
	fmt.Printf("## %s\n| command | median ms | min..max ms | ratio jido/ref | results |\n|---|---:|---:|---:|---:|\n", g.name)
	jm := median(times[0])
	jidoSet := map[string]bool{}
	if g.check != "" {
		if jidoSet, err = jidoOutput(outs[0], g.check); err != nil {
			return row{}, err
		}
	}
	fmt.Printf("| %s | %.1f | %.1f..%.1f | | %d |\n", strings.Join(shortCmd(first[:min(len(first), 2)]), " "), ms(jm), ms(slices.Min(times[0])), ms(slices.Max(times[0])), len(jidoSet))
	for i := 1; i < len(cmds); i++ {
		m := median(times[i])
		refSet := map[string]bool{}
		if g.check != "" {
			refSet = refOutput(outs[i], g.check)
		}
		fmt.Printf("| %s | %.1f | %.1f..%.1f | **%.2fx** | %d |\n", strings.Join(shortCmd(cmds[i]), " "), ms(m), ms(slices.Min(times[i])), ms(slices.Max(times[i])), float64(jm)/float64(m), len(refSet))
		if missing, extra := diff(refSet, jidoSet); len(missing)+len(extra) > 0 {
			fmt.Printf("\nDIFFERENCE with %s: %d only in the reference, %d only in jido; e.g. %v %v\n", filepath.Base(cmds[i][0]), len(missing), len(extra), head(missing), head(extra))
		}
	}
	fmt.Println()
	last := len(cmds) - 1
	return row{name: g.name, jido: jm, ref: median(times[last]), jidoRSS: median(rss[0]), refRSS: median(rss[last]),
		refName: filepath.Base(cmds[last][0]), target: g.target}, nil
}

// maxRSS is the peak resident set of a command that ran, in KiB (0 where unknown).
func maxRSS(cmd *exec.Cmd) int64 {
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}

func shortCmd(c []string) []string { return append([]string{filepath.Base(c[0])}, c[1:]...) }

// jidoOutput extracts the (path, line) or path set of a jido call's ToolResult.
func jidoOutput(out []byte, check string) (map[string]bool, error) {
	var res struct {
		OK     bool `json:"ok"`
		Result struct {
			Matches []struct {
				Path string `json:"path"`
				Line int    `json:"line"`
			} `json:"matches"`
			Files []struct {
				Path string `json:"path"`
			} `json:"files"`
			Truncated bool `json:"truncated"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("jido output: %v", err)
	}
	if !res.OK {
		return nil, fmt.Errorf("jido failed: %s", res.Error)
	}
	set := map[string]bool{}
	for _, m := range res.Result.Matches {
		set[fmt.Sprintf("%s:%d", m.Path, m.Line)] = true
	}
	for _, f := range res.Result.Files {
		set[f.Path] = true
	}
	return set, nil
}

// refOutput extracts the (path, line) or path set of rg -n / rg --files / fd output.
func refOutput(out []byte, check string) map[string]bool {
	set := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "./")
		if check == "lines" {
			parts := strings.SplitN(line, ":", 3)
			if len(parts) < 3 {
				continue // "binary file matches" notes
			}
			line = parts[0] + ":" + parts[1]
		}
		set[line] = true
	}
	return set
}

func diff(ref, got map[string]bool) (missing, extra []string) {
	for k := range ref {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	for k := range got {
		if !ref[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}

func head(s []string) []string { return s[:min(len(s), 5)] }

func median[T cmp.Ordered](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
