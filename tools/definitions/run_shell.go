package definitions

// RunShellParams are the arguments of run_shell.
type RunShellParams struct {
	Command    string            `json:"command,omitempty" jsonschema:"a shell command line, run by bash -c (sh -c where bash is absent)"`
	Cmd        []string          `json:"cmd,omitempty" jsonschema:"or a program and its arguments, run directly without a shell"`
	Cwd        string            `json:"cwd,omitempty" jido:"workdir" default:"\".\"" jsonschema:"working directory, relative to the project root"`
	Env        map[string]string `json:"env,omitempty" jsonschema:"environment variables to add (credentials of the host are never passed on)"`
	Stdin      *string           `json:"stdin,omitempty" jsonschema:"text to send on standard input (closed when left out)"`
	Timeout    float64           `json:"timeout,omitempty" default:"120" minimum:"0.1" maximum:"600" jsonschema:"seconds before the command and everything it started is killed"`
	Background bool              `json:"background,omitempty" jsonschema:"start the command as a job and return its job_id at once; read it with job_output, stop it with job_kill"`
	DryRun     bool              `json:"dry_run,omitempty" jido:"dry_run" jsonschema:"classify the command and say how it would run, without running it"`
	MaxOutput  int               `json:"max_output,omitempty" default:"30000" minimum:"100" jsonschema:"bytes of stdout and of stderr returned; longer output keeps its head and tail, and the whole of it goes to a file in .jido/output"`
}

// RunShell declares run_shell.
var RunShell = define[RunShellParams]("run_shell", Decl{Flags: Flags{Mutating: true, Destructive: true, OpenWorld: true}, Role: RoleRunner, Positional: []string{"command"}})
