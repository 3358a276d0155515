package instructions

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/jido-run/jido/testrun"
)

// Draft writes an AGENTS.md for the project in fsys (its root, e.g. an os.Root's FS, so
// that nothing outside it is read): the project's name (name when its files say none),
// its languages, how to build and test it (the test command is the one run_tests would
// detect), and its top-level layout. It returns the text for the user to review; it
// writes nothing. Only a few well-known files are read (go.mod, package.json, Cargo.toml,
// pyproject.toml), never more than 64 KB of each.
func Draft(fsys fs.FS, name string) string {
	p := detect(fsys)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", firstNonEmpty(p.name, name, "Project"))
	b.WriteString("Instructions for coding agents working in this repository (AGENTS.md). Keep it short and true: agents read it at the start of every conversation.\n")
	if len(p.languages) > 0 {
		fmt.Fprintf(&b, "\n## Languages\n\n%s.\n", strings.Join(p.languages, ", "))
	}
	if len(p.build) > 0 || p.test != "" {
		b.WriteString("\n## Build and test\n\n")
		for _, c := range p.build {
			fmt.Fprintf(&b, "- Build: `%s`\n", c)
		}
		if p.test != "" {
			fmt.Fprintf(&b, "- Test: `%s` (run the tests after every change)\n", p.test)
		}
	}
	if len(p.layout) > 0 {
		b.WriteString("\n## Layout\n\n")
		for _, l := range p.layout {
			fmt.Fprintf(&b, "- `%s`\n", l)
		}
	}
	b.WriteString("\n## Conventions\n\n- (Add the project's style rules, review expectations and things to avoid here.)\n")
	return b.String()
}

// project is what Draft found.
type project struct {
	name      string
	languages []string
	build     []string
	test      string
	layout    []string
}

func detect(fsys fs.FS) project {
	var p project
	has := func(name string) bool {
		st, err := fs.Stat(fsys, name)
		return err == nil && !st.IsDir()
	}
	if data := readSmall(fsys, "go.mod"); data != nil {
		if m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(data); m != nil {
			p.name = strings.Trim(string(m[1]), `"`)
		}
		p.languages = append(p.languages, "Go")
		p.build = append(p.build, "go build ./...", "go vet ./...")
	}
	if data := readSmall(fsys, "Cargo.toml"); data != nil {
		if m := regexp.MustCompile(`(?m)^name\s*=\s*"([^"]+)"`).FindSubmatch(data); m != nil && p.name == "" {
			p.name = string(m[1])
		}
		p.languages = append(p.languages, "Rust")
		p.build = append(p.build, "cargo build")
	}
	if data := readSmall(fsys, "package.json"); data != nil {
		var pkg struct {
			Name    string            `json:"name"`
			Scripts map[string]string `json:"scripts"`
		}
		_ = json.Unmarshal(data, &pkg)
		if p.name == "" {
			p.name = pkg.Name
		}
		lang := "JavaScript"
		if has("tsconfig.json") {
			lang = "TypeScript"
		}
		p.languages = append(p.languages, lang)
		if pkg.Scripts["build"] != "" {
			p.build = append(p.build, "npm run build")
		}
		if pkg.Scripts["lint"] != "" {
			p.build = append(p.build, "npm run lint")
		}
	}
	if data := readSmall(fsys, "pyproject.toml"); data != nil || has("setup.py") || has("requirements.txt") {
		if m := regexp.MustCompile(`(?m)^name\s*=\s*"([^"]+)"`).FindSubmatch(data); m != nil && p.name == "" {
			p.name = string(m[1])
		}
		p.languages = append(p.languages, "Python")
	}
	if has("Makefile") && len(p.build) == 0 {
		p.build = append(p.build, "make")
	}
	if inv, err := testrun.Detect(fsys, testrun.Options{}); err == nil {
		p.test = testCommand(inv)
	}
	entries, _ := fs.ReadDir(fsys, ".")
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") || slices.Contains(skippedDirs, n) {
			continue
		}
		if e.IsDir() {
			p.layout = append(p.layout, n+"/")
		}
	}
	if len(p.layout) > 30 {
		p.layout = append(p.layout[:30], "…")
	}
	return p
}

// skippedDirs are directories of dependencies and build output, not of the project's layout.
var skippedDirs = []string{"node_modules", "vendor", "dist", "build", "target", "__pycache__", "venv"}

// testCommand is the command people type for inv: without the flags jido adds to read the
// results (go test -json, a report file).
func testCommand(inv testrun.Invocation) string {
	var cmd string
	switch inv.Runner {
	case testrun.Go:
		cmd = "go test ./..."
	case testrun.Cargo:
		cmd = "cargo test"
	case testrun.NPM:
		cmd = "npm test"
	case testrun.Node:
		cmd = "node --test"
	case testrun.Pytest:
		cmd = "pytest"
	case testrun.Make:
		cmd = "make test"
	default:
		cmd = strings.Join(inv.Argv, " ")
	}
	if inv.Dir != "" && inv.Dir != "." {
		cmd = "cd " + inv.Dir + " && " + cmd
	}
	return cmd
}

// readSmall reads name from fsys, at most 64 KB; nil when it cannot.
func readSmall(fsys fs.FS, name string) []byte {
	f, err := fsys.Open(path.Clean(name))
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return nil
	}
	return data
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
