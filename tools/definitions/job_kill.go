package definitions

// JobKillParams are the arguments of job_kill.
type JobKillParams struct {
	JobID string `json:"job_id" jsonschema:"the job_id run_shell returned"`
}

// JobKill declares job_kill. It is idempotent: the job is gone after the first call.
var JobKill = define[JobKillParams]("job_kill", Decl{Flags: Flags{Mutating: true, Idempotent: true}, Role: RoleRunner, Sessions: NotInPlan})
