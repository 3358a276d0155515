package shellclass

import (
	"strings"
	"testing"
	"time"
)

// fuzzTimeLimit bounds one classification; real lines take microseconds, the limit leaves room
// for -race and a loaded machine.
const fuzzTimeLimit = 2 * time.Second

// FuzzClassify checks that Classify and ClassifyArgv never panic, return in bounded time, and
// keep the result invariants: unparsed is Destructive, parsed has the class of its riskiest
// command, and Reasons are the distinct reasons of the commands above read-only.
func FuzzClassify(f *testing.F) {
	for _, tc := range classifyCases {
		f.Add(tc.line)
	}
	for _, s := range []string{
		"echo {a,b}{c,d}{e,f} $'\\x41' \"$(ls `pwd`)\" <(cat) >(tee x)",
		"f() { g() { rm x; }; }; f; g",
		"cat <<-EOF\n\t$(curl x)\n\tEOF",
		"for ((i=0;i<$(rm x);i++)); do :; done",
		"a=(1 $(rm x) 3); echo ${a[$(curl y)]}",
		"bash -c \"eval 'sh -c \\\"rm x\\\"'\"",
		"select x in a b; do break; done",
		"echo ${x:-$(rm y)} ${#x} ${x/a/$(curl z)}",
		"let x=$(rm y)+1; (( y = $(curl z) ))",
		"[[ $(rm x) == y ]]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		res := withinLimit(t, line, func() Result { return Classify(line) })
		checkFuzzInvariants(t, line, res)

		argv := strings.Fields(line)
		res = withinLimit(t, line, func() Result { return ClassifyArgv(argv) })
		if !res.Parsed {
			if len(line) <= maxInput-len(argv) {
				t.Fatalf("ClassifyArgv(%q) not parsed: %v", argv, res.Reasons)
			}
			return
		}
		checkFuzzInvariants(t, line, res)
	})
}

// withinLimit runs classify and fails the test if it does not return within fuzzTimeLimit, so
// that a hang is reported with its input instead of stalling the fuzzer.
func withinLimit(t *testing.T, line string, classify func() Result) Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() { done <- classify() }()
	select {
	case res := <-done:
		return res
	case <-time.After(fuzzTimeLimit):
		t.Fatalf("classification of %q did not return within %v", line, fuzzTimeLimit)
		return Result{}
	}
}

func checkFuzzInvariants(t *testing.T, line string, res Result) {
	t.Helper()
	if !res.Parsed {
		if res.Class != Destructive || len(res.Reasons) == 0 || len(res.Commands) != 0 {
			t.Fatalf("unparsed %q: %+v", line, res)
		}
		return
	}
	want := ReadOnly
	seen := map[string]bool{}
	var reasons []string
	for _, c := range res.Commands {
		if c.Class < ReadOnly || c.Class > Destructive || c.Reason == "" {
			t.Fatalf("%q: bad command %+v", line, c)
		}
		if strings.HasPrefix(c.Reason, internalErrorPrefix) {
			t.Fatalf("%q: %s", line, c.Reason)
		}
		want = max(want, c.Class)
		if c.Class > ReadOnly && !seen[c.Reason] {
			seen[c.Reason] = true
			reasons = append(reasons, c.Reason)
		}
	}
	if res.Class != want {
		t.Fatalf("%q: class %v, max of commands %v: %+v", line, res.Class, want, res)
	}
	if strings.Join(reasons, "\x00") != strings.Join(res.Reasons, "\x00") {
		t.Fatalf("%q: reasons %q, want %q", line, res.Reasons, reasons)
	}
}
