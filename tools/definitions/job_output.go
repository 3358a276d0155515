package definitions

// JobOutputParams are the arguments of job_output.
type JobOutputParams struct {
	JobID string  `json:"job_id" jsonschema:"the job_id run_shell returned"`
	Wait  float64 `json:"wait,omitempty" minimum:"0" maximum:"600" jsonschema:"seconds to wait for the job to end before answering (0: answer at once)"`
}

// JobOutput declares job_output. Though read-only, it is not idempotent: each call consumes
// the output it returns, so a retried call would lose it.
var JobOutput = define[JobOutputParams]("job_output", Decl{Flags: Flags{ReadOnly: true}, Role: RoleRunner, Sessions: NotInPlan})
