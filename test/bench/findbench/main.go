// Command findbench measures jido's search, glob and listing against ripgrep and fd on a
// corpus made from the Go toolchain's own source tree, and checks that both find the same
// (path, line) matches. Commands run interleaved, one round at a time, so that the noise
// of a shared machine hits every command alike; it prints medians and ratios.
//
//	go run ./test/bench/findbench [-rounds 11] [-corpus DIR] [-keep]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// gitignore is the corpus's .gitignore: it makes the ignore rules matter on real data.
const gitignore = "testdata/\n*.golden\n*.out\n/cmd/dist/dist\n"

// group is one comparison: a jido tool call and the reference commands it is measured
// against; check says how to compare their outputs.
type group struct {
	name  string
	tool  string
	args  map[string]any
	refs  [][]string // reference commands; the first is the baseline of the ratios
	check string     // "lines": (path, line) sets equal; "files": path sets equal
}

func main() {
	rounds := flag.Int("rounds", 11, "measured rounds (after one warm-up round)")
	corpus := flag.String("corpus", "", "corpus directory (default: a new temporary copy of GOROOT/src)")
	keep := flag.Bool("keep", false, "keep the temporary corpus")
	flag.Parse()
	if err := run(*rounds, *corpus, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "findbench:", err)
		os.Exit(1)
	}
}

func run(rounds int, corpus string, keep bool) error {
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
		{"literal 'func main'", "search", map[string]any{"query": "func main", "case_sensitive": true, "max_results": all},
			[][]string{{rg, "-n", "-F", "func main"}}, "lines"},
		{"regex 'func \\w+\\(ctx context\\.Context'", "search", map[string]any{"query": `func \w+\(ctx context\.Context`, "is_regex": true, "max_results": all},
			[][]string{{rg, "-n", `func \w+\(ctx context\.Context`}}, "lines"},
		{"case-insensitive 'func main'", "search", map[string]any{"query": "func main", "case_sensitive": false, "max_results": all},
			[][]string{{rg, "-n", "-i", "-F", "func main"}}, "lines"},
		{"regex without literal '[0-9]{4}-[0-9]{2}-[0-9]{2}'", "search", map[string]any{"query": "[0-9]{4}-[0-9]{2}-[0-9]{2}", "is_regex": true, "max_results": all},
			[][]string{{rg, "-n", "[0-9]{4}-[0-9]{2}-[0-9]{2}"}}, "lines"},
		{"glob-filtered *.go 'func main'", "search", map[string]any{"query": "func main", "case_sensitive": true, "include_paths": []string{"*.go"}, "max_results": all},
			[][]string{{rg, "-n", "-F", "-g", "*.go", "func main"}}, "lines"},
		{"list all files", "glob", map[string]any{"pattern": "**", "max_results": all},
			refsWithFd([]string{rg, "--files"}, fd, "-t", "f"), "files"},
		{"glob **/*.go", "glob", map[string]any{"pattern": "**/*.go", "max_results": all},
			refsWithFd([]string{rg, "--files", "-g", "*.go"}, fd, "-t", "f", "-e", "go"), "files"},
	}
	fmt.Printf("corpus %s, %d rounds, medians (min..max)\n\n", corpus, rounds)
	for _, g := range groups {
		if err := measure(g, jido, corpus, rounds); err != nil {
			return fmt.Errorf("%s: %w", g.name, err)
		}
	}
	return nil
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

// measure runs one group interleaved and prints its table.
func measure(g group, jido, corpus string, rounds int) error {
	args, err := json.Marshal(g.args)
	if err != nil {
		return err
	}
	cmds := append([][]string{{jido, "call", "--root", corpus, g.tool, string(args)}}, g.refs...)
	times := make([][]time.Duration, len(cmds))
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
				return fmt.Errorf("%s: %v", strings.Join(c, " "), err)
			}
			if r == 0 {
				outs[i] = stdout.Bytes()
				continue // warm-up
			}
			times[i] = append(times[i], d)
		}
	}
	jidoSet, err := jidoOutput(outs[0], g.check)
	if err != nil {
		return err
	}
	fmt.Printf("## %s\n| command | median ms | min..max ms | ratio jido/ref | results |\n|---|---:|---:|---:|---:|\n", g.name)
	jm := median(times[0])
	fmt.Printf("| jido %s | %.1f | %.1f..%.1f | | %d |\n", g.tool, ms(jm), ms(slices.Min(times[0])), ms(slices.Max(times[0])), len(jidoSet))
	for i := 1; i < len(cmds); i++ {
		refSet := refOutput(outs[i], g.check)
		m := median(times[i])
		fmt.Printf("| %s | %.1f | %.1f..%.1f | **%.2fx** | %d |\n", strings.Join(shortCmd(cmds[i]), " "), ms(m), ms(slices.Min(times[i])), ms(slices.Max(times[i])), float64(jm)/float64(m), len(refSet))
		if missing, extra := diff(refSet, jidoSet); len(missing)+len(extra) > 0 {
			fmt.Printf("\nDIFFERENCE with %s: %d only in the reference, %d only in jido; e.g. %v %v\n", filepath.Base(cmds[i][0]), len(missing), len(extra), head(missing), head(extra))
		}
	}
	fmt.Println()
	return nil
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

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
