package planshell

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jido-run/jido/test/testenv"
	"github.com/spf13/afero"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textTree is the project the new builtins are tried on, in plan mode and on disk.
var textTree = map[string]string{
	"data.json":  `{"items":[{"id":1,"name":"a","tags":["x","y"]},{"id":2,"name":"b","tags":[]}],"ok":true}` + "\n",
	"vals.json":  "1 \"two\" null false [3,4] {\"k\":\"v\"}\n",
	"rows.jsonl": "{\"a\":1,\"b\":\"p\"}\n{\"a\":2,\"b\":\"q\"}\n",
	"bad.json":   "{\"a\":1}\n{\"a\":\n",
	"table.txt":  "name:age:city\nann:31:paris\nbob:25:oslo\n",
	"cols.tsv":   "a\tb\tc\td\n1\t2\t3\t4\nno delimiter here\n",
	"words.txt":  "Hello  World\nfoo   bar baz\n\nHELLO again\n",
	"nums.txt":   "3\n1\n2\n",
	"list.txt":   "a.txt\nsub/file\n",
	"a.txt":      "alpha\nbeta\n",
	"sub/file":   "in sub\n",
	"odd name":   "spaced\n",
}

// newTextTree writes textTree to a MemMapFs and to a directory of the disk.
func newTextTree(t *testing.T) (afero.Fs, string) {
	t.Helper()
	fsys, dir := afero.NewMemMapFs(), t.TempDir()
	for name, data := range textTree {
		require.NoError(t, fsys.MkdirAll("/"+filepath.Dir(name), 0o755))
		require.NoError(t, afero.WriteFile(fsys, "/"+name, []byte(data), 0o644))
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	return fsys, dir
}

// realCase is a command line whose stdout and exit status in plan mode must be those of
// bash running the real programs on the same files.
type realCase struct {
	name string
	cmd  string
}

// compareWithReal runs each case in plan mode and with bash and the real program (in
// the C locale); it skips, with an install hint, where the program is missing.
func compareWithReal(t *testing.T, program string, cases []realCase) {
	t.Helper()
	if _, err := exec.LookPath(program); err != nil {
		testenv.Program(t, program)
	}
	testenv.Program(t, "bash")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys, dir := newTextTree(t)
			res := run(t, fsys, tc.cmd, Options{})

			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-c", tc.cmd)
			cmd.Dir = dir
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C", "HOME=/"}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			code := 0
			if err := cmd.Run(); err != nil {
				exitErr, ok := errors.AsType[*exec.ExitError](err)
				require.True(t, ok, "bash -c %q: %v", tc.cmd, err)
				code = exitErr.ExitCode()
			}
			assert.Equal(t, stdout.String(), res.Stdout, "stdout of %q (real stderr %q, plan stderr %q)",
				tc.cmd, stderr.String(), res.Stderr)
			assert.Equal(t, code, res.ExitCode, "exit status of %q (real stderr %q, plan stderr %q)",
				tc.cmd, stderr.String(), res.Stderr)
			if stderr.Len() > 0 {
				assert.NotEmpty(t, res.Stderr, "a failure is explained")
			}
		})
	}
}

func TestJqAgainstReal(t *testing.T) {
	compareWithReal(t, "jq", []realCase{
		{"identity pretty", "jq . data.json"},
		{"compact", "jq -c . data.json"},
		{"field", "jq .ok data.json"},
		{"iterate and raw", "jq -r '.items[].name' data.json"},
		{"map select", "jq -c '[.items[] | select(.id > 1) | .name]' data.json"},
		{"stdin", "cat data.json | jq '.items | length'"},
		{"stream of values", "jq -c 'type' vals.json"},
		{"several files", "jq -c '.a' rows.jsonl rows.jsonl"},
		{"slurp", "jq -c -s 'map(.a) | add' rows.jsonl"},
		{"slurp empty", "printf '' | jq -c -s ."},
		{"null input", "jq -n '1 + 2'"},
		{"null input and inputs", "jq -n -c '[inputs | .b]' rows.jsonl"},
		{"arg and argjson", "jq -n -c --arg x 1 --argjson y '{\"a\":[2]}' '[$x, $y, $ARGS.named.x]'"},
		{"grouped options", "jq -rc '.items[0]' data.json"},
		{"options after filter", "jq '.items[0].tags' -c data.json"},
		{"exit status true", "jq -e .ok data.json"},
		{"exit status false", "echo false | jq -e ."},
		{"exit status null", "jq -e .missing data.json"},
		{"raw strings with newline", `jq -n -r '"a\nb", 1, [1]'`},
		{"unicode and escapes", `jq -n -c '"é\t\u0001<&>"'`},
		{"keys sorted", "jq -c 'keys' data.json"},
		{"to_entries", "jq -c '.items[1] | to_entries' data.json"},
		{"string interpolation", `jq -r '.items[] | "\(.id)=\(.name)"' data.json`},
		{"runtime error", "jq '.[0]' data.json"},
		{"error then next input", "jq -c '.[0]?, .a' rows.jsonl"},
		{"error function", `jq -n 'error("boom")'`},
		{"compile error", "jq '.[' data.json"},
		{"missing file", "jq . nope.json"},
		{"halt_error", `jq -n '"bye\n" | halt_error(3)'`},
		{"empty output", "jq -c 'empty' data.json"},
		{"pipeline", "jq -r '.items[].name' data.json | sort -r"},
	})
}

func TestAwkAgainstReal(t *testing.T) {
	compareWithReal(t, "awk", []realCase{
		{"print field", "awk -F: '{print $2}' table.txt"},
		{"F attached", "awk -F, 'BEGIN{print FS}'"},
		{"pattern and NR", "awk -F: 'NR > 1 && $2 > 26 {print NR, $1}' table.txt"},
		{"sum in END", "awk '{s += $1} END {print s, NR}' nums.txt"},
		{"default fields", "awk '{print NF \":\" $1}' words.txt"},
		{"-v with escape", `awk -v 'sep=\t' -F: '{print $1 sep $3}' table.txt`},
		{"stdin", "cat table.txt | awk -F: '{print toupper($1)}'"},
		{"stdin dash", "cat nums.txt | awk '{print FNR}' -"},
		{"several files FNR", "awk '{print NR, FNR}' nums.txt table.txt"},
		{"assignment operand", "awk '{print x, $0}' x=1 nums.txt x=2 nums.txt"},
		{"OFS", "awk -F: -v OFS=- '{$1=$1; print}' table.txt"},
		{"printf", `awk -F: 'NR>1 {printf "%-5s|%3d\n", $1, $2}' table.txt`},
		{"arrays", `awk '{c[length($0)]++} END {for (k in c) n++; print n}' words.txt`},
		{"gsub and match", `awk '{n = gsub(/o/, "0"); print n, $0}' words.txt`},
		{"split and substr", `awk 'BEGIN {n = split("a:b:c", p, ":"); print n, p[3], substr("hello", 2, 3)}'`},
		{"exit status", "awk 'BEGIN {exit 3}'"},
		{"exit in main", "awk 'NR == 2 {exit} {print}' nums.txt"},
		{"getline", "awk 'NR == 1 {getline; print \"next:\", $0}' nums.txt"},
		{"ENVIRON of the shell", "X=1 awk 'BEGIN {print ENVIRON[\"X\"]}'"},
		{"pipeline", "awk -F: 'NR>1 {print $3}' table.txt | sort"},
		{"no input for BEGIN only", "awk 'BEGIN {print 1+1}' nope.txt"},
	})
}

func TestTrAgainstReal(t *testing.T) {
	compareWithReal(t, "tr", []realCase{
		{"lower to upper", "tr a-z A-Z < words.txt"},
		{"classes", "tr '[:lower:]' '[:upper:]' < words.txt"},
		{"upper to lower", "tr '[:upper:]' '[:lower:]' < words.txt"},
		{"delete", "tr -d 'lo' < words.txt"},
		{"delete class", "tr -d '[:space:]' < words.txt"},
		{"squeeze", "tr -s ' ' < words.txt"},
		{"squeeze newlines", "tr -s '\\n' < words.txt"},
		{"translate and squeeze", "tr -s ' ' '_' < words.txt"},
		{"complement delete", "tr -cd '[:alpha:]\\n' < words.txt"},
		{"complement translate", "tr -c '[:alnum:]' '.' < words.txt"},
		{"short set2 extended", "tr 'abcde' 'xy' < words.txt"},
		{"truncate", "tr -t 'abcde' 'xy' < words.txt"},
		{"escapes", "printf 'a\\tb\\n' | tr '\\t' ' '"},
		{"octal", "echo abc | tr 'b' '\\101'"},
		{"repeat", "echo abcdef | tr 'a-f' '[x*3]y'"},
		{"fill", "echo abcdef | tr 'a-f' 'q[z*]'"},
		{"delete and squeeze", "echo 'aabbccdd' | tr -ds 'a' 'c'"},
		{"dash literal", "echo 'a-b' | tr -- '-' '_'"},
		{"digits", "echo 'a1b22c' | tr -d '0-9'"},
		{"reverse range", "echo x | tr z-a x"},
		{"missing set2", "echo x | tr abc"},
		{"missing operand", "echo x | tr"},
	})
}

func TestCutAgainstReal(t *testing.T) {
	compareWithReal(t, "cut", []realCase{
		{"field", "cut -d: -f1 table.txt"},
		{"fields list", "cut -d : -f 1,3 table.txt"},
		{"field range", "cut -d: -f2- table.txt"},
		{"field open start", "cut -d: -f-2 table.txt"},
		{"tab default", "cut -f2,4 cols.tsv"},
		{"no delimiter line kept", "cut -f1 cols.tsv"},
		{"-s", "cut -s -f1 cols.tsv"},
		{"bytes", "cut -b1-3 table.txt"},
		{"chars", "cut -c2,4-5 table.txt"},
		{"chars open end", "cut -c5- words.txt"},
		{"complement", "cut -d: --complement -f2 table.txt"},
		{"output delimiter", "cut -d: -f1,3 --output-delimiter=' | ' table.txt"},
		{"overlapping", "cut -d: -f3,1,1-2 table.txt"},
		{"stdin", "cat table.txt | cut -d: -f2"},
		{"no final newline", "printf 'a:b' | cut -d: -f2"},
		{"field past end", "cut -d: -f9 table.txt"},
		{"missing file", "cut -f1 nope table.txt"},
		{"no list", "cut table.txt"},
		{"zero", "cut -f0 table.txt"},
		{"decreasing", "cut -f3-1 table.txt"},
		{"two lists", "cut -f1 -b1 table.txt"},
		{"delimiter without fields", "cut -d: -b1 table.txt"},
		{"long delimiter", "cut -d:: -f1 table.txt"},
	})
}

func TestXargsAgainstReal(t *testing.T) {
	compareWithReal(t, "xargs", []realCase{
		{"default echo", "cat nums.txt | xargs"},
		{"cat files", "cat list.txt | xargs cat"},
		{"-n", "cat nums.txt | xargs -n 2 echo"},
		{"-I", "cat list.txt | xargs -I {} wc -l {}"},
		{"-I in a word", "cat nums.txt | xargs -I % echo 'n=%;'"},
		{"quotes", `printf '"odd name" a.txt\n' | xargs cat`},
		{"backslash", `printf 'odd\\ name\n' | xargs cat`},
		{"-0", `printf 'odd name\0a.txt\0' | xargs -0 cat`},
		{"-L", "printf '1 2\\n3\\n4 5\\n' | xargs -L 2 echo"},
		{"empty input runs once", "printf '' | xargs echo hi"},
		{"-r", "printf '' | xargs -r echo hi"},
		{"options of the command", "echo table.txt | xargs grep -n bob"},
		{"failing command", "printf 'nope\\na.txt\\n' | xargs -n 1 cat"},
		{"grep no match", "echo a.txt | xargs grep zzz"},
		{"xargs of find", "find sub -type f | xargs wc -c"},
		{"unmatched quote", `printf "it's\n" | xargs echo`},
		{"echo -n", "echo a b | xargs echo -n"},
	})
}

func TestBasenameDirnameAgainstReal(t *testing.T) {
	for _, program := range []string{"basename", "dirname"} {
		t.Run(program, func(t *testing.T) {
			var cases []realCase
			for _, name := range []string{"a", "/a", "a/b/", "//", "//a", "///", "", "a//b//", "/a/b", ".", "..", "x/.."} {
				cases = append(cases, realCase{"'" + name + "'", program + " '" + name + "'"})
			}
			cases = append(cases, realCase{"missing operand", program})
			if program == "dirname" {
				cases = append(cases, realCase{"several", "dirname a/b c/d/ e"})
			} else {
				cases = append(cases,
					realCase{"suffix", "basename src/main.go .go"},
					realCase{"suffix is the name", "basename .go .go"},
					realCase{"suffix not matching", "basename a.txt .go"},
					realCase{"-s", "basename -s .go a.go b/c.go d"},
					realCase{"-a", "basename -a x/y z/ /"},
					realCase{"extra operand", "basename a b c"},
					realCase{"in a command substitution", `f=$(basename "$(dirname /x/y/z)"); echo "[$f]"`},
				)
			}
			compareWithReal(t, program, cases)
		})
	}
}

// TestNewBuiltinsConfined proves that jq, awk and xargs cannot reach the host: no host
// file, no process, no host environment variable, nothing outside the plan's Fs.
func TestNewBuiltinsConfined(t *testing.T) {
	t.Setenv("JIDO_PLANSHELL_HOST_SECRET", "leaked")
	leak := filepath.Join(t.TempDir(), "leak")
	cases := []shellCase{
		{"jq host file", "jq . /etc/passwd", "", "jq: error: Could not open /etc/passwd: No such file or directory", 2},
		{"jq outside the root", "cd sub && jq . ../../../etc/hostname", "", "Could not open ../../../etc/hostname: No such file or directory", 2},
		{"jq import", `jq -n 'import "a" as a; 1'`, "", "jq: 1 compile error", 3},
		{"jq include", `jq -n 'include "/etc/passwd"; 1'`, "", "jq: 1 compile error", 3},
		{"jq import data", `jq -n 'import "/etc/passwd" as $p; $p'`, "", "jq: 1 compile error", 3},
		{"jq no host environment", `jq -n -r '$ENV.JIDO_PLANSHELL_HOST_SECRET, env.JIDO_PLANSHELL_HOST_SECRET, env.HOME'`, "null\nnull\n/\n", "", 0},
		{"jq shell environment", `X=1 jq -n -r 'env.X'`, "1\n", "", 0},
		{"jq input_filename", "echo 1 > n.json && jq -r input_filename n.json && echo 1 | jq input_filename", "n.json\nnull\n", "", 0},
		{"awk host file operand", "awk '{print}' /etc/passwd", "", "awk: cannot open /etc/passwd: No such file or directory", 2},
		{"awk outside the root", "awk '{print}' ../../etc/passwd", "", "No such file or directory", 2},
		{"awk getline from a file", `awk 'BEGIN { while ((getline l < "/etc/passwd") > 0) print l }'`, "", "can't read from file due to NoFileReads", 2},
		{"awk getline from a file of the Fs", `awk 'BEGIN { getline l < "a.txt"; print l }'`, "", "can't read from file due to NoFileReads", 2},
		{"awk system", `awk 'BEGIN { system("touch ` + leak + `") }'`, "", "can't call system() due to NoExec", 2},
		{"awk pipe to a command", `awk 'BEGIN { print "x" | "cat > ` + leak + `" }'`, "", "can't write to pipe due to NoExec", 2},
		{"awk pipe from a command", `awk 'BEGIN { "id" | getline x; print x }'`, "", "can't read from pipe due to NoExec", 2},
		{"awk write a file", `awk 'BEGIN { print "x" > "` + leak + `" }'`, "", "can't write to file due to NoFileWrites", 2},
		{"awk no host environment", `awk 'BEGIN { print ENVIRON["JIDO_PLANSHELL_HOST_SECRET"] "|" ENVIRON["HOME"] }'`, "|/\n", "", 0},
		{"awk -f refused", "awk -f prog.awk a.txt", "", "awk: unknown option -f", 2},
		{"xargs external program", "echo x | xargs go version", "", "xargs: plan mode: go: external programs cannot run in plan mode; builtins: awk, basename, cat,", 127},
		{"xargs absolute program", "echo x | xargs /bin/cat", "", "plan mode: /bin/cat: external programs cannot run", 127},
		{"xargs sh", "echo 'touch " + leak + "' | xargs sh -c", "", "plan mode: sh: external programs cannot run", 127},
		{"xargs host file", "echo /etc/passwd | xargs cat", "", "cat: /etc/passwd: No such file or directory", 123},
		{"xargs writes only to the Fs", "echo new | xargs touch && ls new", "new\n", "", 0},
		{"xargs of xargs", "echo a.txt | xargs xargs cat", "alpha\nbeta TODO\ngamma\n", "", 0},
		{"cut host file", "cut -f1 /etc/passwd", "", "cut: /etc/passwd: No such file or directory", 1},
		{"tr reads only stdin", "tr a b /etc/passwd", "", "tr: extra operand '/etc/passwd'", 1},
	}
	runCases(t, cases)
	_, err := os.Stat(leak)
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing was written on the host")
}

func TestNewBuiltinsDetails(t *testing.T) {
	runCases(t, []shellCase{
		{"jq reads the overlay", "echo '{\"k\":[1,2]}' > j.json && jq -c '.k | add' j.json", "3\n", "", 0},
		{"jq -j", `jq -n -j '"a", 1'`, "a1", "", 0},
		{"jq unknown option", "jq -Z . a.txt", "", "jq: Unknown option: -Z", 2},
		{"jq argjson invalid", "jq -n --argjson x '{' '$x'", "", "Invalid JSON text passed to --argjson", 2},
		{"jq arg missing value", "jq -n --arg x", "", "--arg takes two parameters", 2},
		{"jq exit status no output", "jq -n -e empty", "", "", 4},
		{"jq input not JSON", "printf '{\"a\":1}\n{\"a\":\n' > bad.json && jq -c .a bad.json", "1\n", "jq: error (at bad.json): unexpected EOF", 2},
		{"jq default filter", "echo '[1]' | jq -c", "[1]\n", "", 0},
		{"jq halt", "jq -n '1, halt, 2'", "1\n", "", 0},
		{"awk syntax error", "awk '{print' a.txt", "", "awk: parse error", 2},
		{"awk usage", "awk", "", "awk: usage", 2},
		{"awk nextfile with several files", "awk 'FNR==1{print; nextfile}' a.txt a.txt", "", "nextfile is not supported", 2},
		{"awk nextfile with one file", "awk '{print; nextfile}' a.txt", "alpha\n", "", 0},
		{"awk FILENAME", "awk '{print FILENAME; exit}' a.txt", "-\n", "", 0},
		{"awk bad -v", "awk -v 1x=2 'BEGIN{}'", "", "improper assignment", 2},
		{"xargs bad -n", "echo a | xargs -n 0 echo", "", "invalid number", 1},
		{"xargs unknown option", "echo a | xargs -z echo", "", "invalid option", 1},
		{"xargs status 255 stops", "printf 'a\\nb\\n' | xargs -n 1 jq -n 'halt_error(255)'", "", "exited with status 255; aborting", 124},
		{"basename unknown option", "basename -z a", "", "basename: unknown option -z", 2},
		{"type knows the new builtins", "type jq awk xargs", "jq is a shell builtin\nawk is a shell builtin\nxargs is a shell builtin\n", "", 0},
	})
}

func TestNewBuiltinsStop(t *testing.T) {
	for _, cmd := range []string{
		"jq -n 'repeat(1)'",
		"jq -n '[limit(100000000; repeat(1))] | length'",
		"awk 'BEGIN { while (1) n++ }'",
		"awk 'BEGIN { while (1) print \"y\" }'",
		"while true; do echo a; done | xargs -n 1 echo",
		"while true; do echo a; done | tr a b | cut -c1",
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		start := time.Now()
		_, err := Run(ctx, newTree(t), cmd, Options{MaxOutput: 1 << 10})
		cancel()
		assert.Error(t, err, cmd)
		assert.Less(t, time.Since(start), 5*time.Second, "%s stops soon after its deadline", cmd)
	}
}

func TestCommandsListsNewBuiltins(t *testing.T) {
	names := strings.Join(Commands(), " ")
	for _, name := range []string{"jq", "awk", "tr", "cut", "xargs", "basename", "dirname"} {
		assert.Contains(t, " "+names+" ", " "+name+" ")
	}
}
