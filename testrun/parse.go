package testrun

// parser reads one output format. ok is false when the output is not in
// that format, so that the next parser can try.
type parser func(in *input) (t *tally, ok bool)

// input is one finished run as Parse received it.
type input struct {
	invocation     Invocation
	stdout, stderr []byte
	report         []byte
	exitCode       int
}

// text is stdout then stderr, cleaned, for the parsers of text formats that
// may write to either stream.
func (in *input) text() string {
	out := cleanText(string(in.stdout))
	if len(in.stderr) > 0 {
		if out != "" && out[len(out)-1] != '\n' {
			out += "\n"
		}
		out += cleanText(string(in.stderr))
	}
	return out
}

// runnerParsers are each runner's formats, most precise first.
var runnerParsers = map[Runner][]parser{
	Go:     {parseGoJSON},
	Node:   {parseJUnitNode, parseTAP, parseNodeSpec},
	NPM:    {parseTAP, parseNodeSpec, parseJestLike},
	Pytest: {parseJUnitPytest, parsePytestText},
	Cargo:  {parseCargo},
	ERT:    {parseERT},
	// Unittest is only ever the fallback of pytest (see Fallback).
	Unittest: {parseUnittest},
}

// sniffParsers are tried, after the runner's own, on any output (a Makefile,
// a command override): each recognises only its own format, strictly.
var sniffParsers = []parser{
	parseGoJSON, parseJUnitGeneric, parseTAP, parseCargo, parseERT,
	parsePytestText, parseNodeSpec, parseJestLike, parseUnittest,
}

// Parse builds the summary of a finished run: stdout and stderr as captured,
// the exit code, and the report file content when the Invocation named one (nil if
// missing).
//
// The runner's own formats are tried first, then every known format (so a
// Makefile or a command override that runs a known runner is still
// understood); output in no known format gives Parsed=false with counts from
// the exit code and the end of the output in Report. Parse never panics.
func Parse(p Invocation, stdout, stderr []byte, exitCode int, report []byte) (s Summary) {
	defer func() {
		// The parsers are written not to panic; should one still do on
		// some output, the run is reported from its exit code rather
		// than taking the caller down.
		if recover() != nil {
			s = fallbackSummary(p, stdout, stderr, exitCode)
		}
	}()
	in := &input{invocation: p, stdout: stdout, stderr: stderr, report: report, exitCode: exitCode}
	for _, parsers := range [][]parser{runnerParsers[p.Runner], sniffParsers} {
		for _, parse := range parsers {
			if t, ok := parse(in); ok {
				return t.summary(p, stdout, stderr, exitCode)
			}
		}
	}
	return fallbackSummary(p, stdout, stderr, exitCode)
}
