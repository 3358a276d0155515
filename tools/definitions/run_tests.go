package definitions

// RunTestsParams are the arguments of run_tests.
type RunTestsParams struct {
	Path     string   `json:"path,omitempty" jido:"workdir" default:"\".\"" jsonschema:"directory or file whose tests to run, relative to the project root"`
	Selector string   `json:"selector,omitempty" jsonschema:"only the tests matching this name filter (go -run, pytest -k, node --test-name-pattern, cargo test filter, ERT selector)"`
	Runner   string   `json:"runner,omitempty" enum:"go|node|npm|pytest|cargo|ert|make" jsonschema:"force a test runner instead of detecting it"`
	Command  []string `json:"command,omitempty" jsonschema:"run this argv instead of the detected command (its output is still parsed)"`
	DryRun   bool     `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"detect the runner and return the command it would run, without running it"`
	Timeout  float64  `json:"timeout,omitempty" default:"600" minimum:"1" maximum:"600" jsonschema:"seconds before the run is killed"`
}

// RunTests declares run_tests.
var RunTests = define[RunTestsParams]("run_tests", Decl{Flags: Flags{Mutating: true}, Role: RoleRunner, Sessions: NotInPlan})
