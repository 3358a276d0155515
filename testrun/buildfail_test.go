package testrun

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goBrokenModule is a module with one package whose tests pass and three
// that do not build: a syntax error in a test file, a type error in the
// package, and a package without tests that does not compile. It is written
// at test time: a syntax error cannot live in the repository's .go files.
var goBrokenModule = map[string]string{
	"go.mod":           "module example.com/gb\n\ngo 1.22\n",
	"ok/ok.go":         "package ok\n\nfunc One() int { return 1 }\n",
	"ok/ok_test.go":    "package ok\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {\n\tif One() != 1 {\n\t\tt.Fatal(\"not one\")\n\t}\n}\n",
	"syntax/s.go":      "package syntax\n\nfunc Two() int { return 2 }\n",
	"syntax/s_test.go": "package syntax\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(\"not two\"\n\t}\n}\n",
	"broken/b.go":      "package broken\n\nfunc Three() int { return \"three\" }\n",
	"broken/b_test.go": "package broken\n\nimport \"testing\"\n\nfunc TestThree(t *testing.T) {}\n",
	"nodeps/n.go":      "package nodeps\n\nfunc Four() int { return undefinedThing }\n",
}

// goBrokenWant is what run_tests must say of goBrokenModule: one test
// passed, three packages failed to build, each named with its first error.
var goBrokenWant = want{runner: Go, passed: 1, errors: 3, parsed: true, exit: 1,
	failures: []Failure{
		{Name: "example.com/gb/syntax [setup failed]", File: "syntax/s_test.go", Line: 7},
		{Name: "example.com/gb/broken [build failed]", File: "broken/b.go", Line: 3},
		{Name: "example.com/gb/nodeps [build failed]", File: "nodeps/n.go", Line: 3},
	}}

// goBrokenCases run goBrokenModule with build failures in JSON (Go 1.24+)
// and as text on stderr (older Go, or GODEBUG=gotestjsonbuildtext=1).
var goBrokenCases = []struct {
	name string
	env  map[string]string
}{
	{"go_buildfail_json", nil},
	{"go_buildfail_text", map[string]string{"GODEBUG": "gotestjsonbuildtext=1"}},
}

// TestGoBuildFailuresReal runs go test -json on a module whose packages fail
// to build, and checks that every package that did not build is an error
// named in the failures (with -update, saves the outputs for
// TestParseGoBuildFailures).
func TestGoBuildFailuresReal(t *testing.T) {
	for _, tc := range goBrokenCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			for name, content := range goBrokenModule {
				p := filepath.Join(root, filepath.FromSlash(name))
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
			}
			plan, err := Detect(os.DirFS(root), Options{})
			require.NoError(t, err)
			require.Equal(t, []string{"go", "test", "-json", "./..."}, plan.Argv)
			for k, v := range tc.env {
				plan.Env[k] = v
			}
			out := runPlan(t, root, plan, t.TempDir())
			got := Parse(plan, out.stdout, out.stderr, out.exit, out.report)
			checkGoBroken(t, got, out.exit)
			if *update {
				saveGolden(t, tc.name, out, root, goldenRoot)
			}
		})
	}
}

// TestParseGoBuildFailures parses the saved outputs of TestGoBuildFailuresReal.
func TestParseGoBuildFailures(t *testing.T) {
	for _, tc := range goBrokenCases {
		t.Run(tc.name, func(t *testing.T) {
			g := loadGolden(t, tc.name)
			p := Invocation{Runner: Go, Argv: []string{"go", "test", "-json", "./..."}, Dir: ".", goModule: "example.com/gb"}
			checkGoBroken(t, Parse(p, g.stdout, g.stderr, g.exit, nil), g.exit)
		})
	}
	t.Run("text FAIL lines with no JSON of their packages", func(t *testing.T) {
		// What a Go older than 1.24 may print: the passing packages in JSON,
		// the packages that did not build only as text.
		stdout := `{"Action":"run","Package":"p/ok","Test":"TestA"}
{"Action":"pass","Package":"p/ok","Test":"TestA"}
{"Action":"pass","Package":"p/ok"}
FAIL	p/a [build failed]
FAIL	p/b [setup failed]
`
		stderr := "# p/a\na/a.go:3:9: undefined: x\n# p/b [p/b.test]\nb/b_test.go:4:1: syntax error: unexpected }\n"
		s := Parse(Invocation{Runner: Go, goModule: "p"}, []byte(stdout), []byte(stderr), 1, nil)
		assert.Equal(t, 1, s.Passed)
		assert.Equal(t, 2, s.Errors)
		assert.Equal(t, 2, s.BuildErrors)
		assert.Equal(t, []Failure{
			{Name: "p/a [build failed]", File: "a/a.go", Line: 3, Message: "a/a.go:3:9: undefined: x"},
			{Name: "p/b [setup failed]", File: "b/b_test.go", Line: 4, Message: "b/b_test.go:4:1: syntax error: unexpected }"},
		}, s.Failures)
		assert.Contains(t, s.Report, "2 packages failed to build")
	})
	t.Run("non-zero exit with every test passed is an error with the output's end", func(t *testing.T) {
		stdout := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p"}
`
		var stderr string
		for i := range 30 {
			stderr += "line " + string(rune('a'+i%26)) + "\n"
		}
		stderr += "go: something went wrong at the end\n"
		s := Parse(Invocation{Runner: Go}, []byte(stdout), []byte(stderr), 2, nil)
		assert.Equal(t, 1, s.Passed)
		assert.Equal(t, 1, s.Errors)
		assert.Equal(t, "exit status 2", s.Failures[0].Name)
		assert.Contains(t, s.Report, "exit status 2")
		assert.Contains(t, s.Report, "go: something went wrong at the end", "the report shows the output's last lines")
	})
}

func checkGoBroken(t *testing.T, got Summary, exit int) {
	t.Helper()
	checkSummary(t, got, goBrokenWant, exit, goldenRoot)
	assert.Equal(t, 3, got.BuildErrors)
	assert.Equal(t, "3 packages", got.BuildCount())
	assert.Contains(t, got.Report, "3 packages failed to build")
	assert.Contains(t, failureNamed(t, got, "example.com/gb/syntax [setup failed]").Message, "missing ',' before newline")
	assert.Contains(t, failureNamed(t, got, "example.com/gb/nodeps [build failed]").Message, "undefined: undefinedThing")
}
