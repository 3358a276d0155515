package shell

import (
	"context"
	"fmt"
	"time"
)

// Job is a command started in the background; its output is read as it comes.
type Job struct {
	ID      string
	Command string
	pr      *process
	readOut int64 // bytes of stdout already returned by Output
	readErr int64
}

// JobStatus is what job_output returns.
type JobStatus struct {
	ID        string `json:"job_id"`
	Running   bool   `json:"running"`
	ExitCode  *int   `json:"exit_code,omitempty"`
	Stdout    string `json:"stdout"` // new output since the last read
	Stderr    string `json:"stderr"`
	Truncated bool   `json:"truncated"` // some new output was cut (it is in the output files)
	*Result   `json:"result,omitempty"`
}

// Start starts a background job; it runs until it ends, is killed, or the session closes.
func (r *Runner) Start(req Request) (*Job, error) {
	id := r.newID("job")
	pr, err := r.start(req, id)
	if err != nil {
		return nil, err
	}
	j := &Job{ID: id, Command: req.Command, pr: pr}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		j.kill()
		return nil, ErrClosed
	}
	r.jobs[id] = j
	r.mu.Unlock()
	return j, nil
}

// job finds a job by id.
func (r *Runner) job(id string) (*Job, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	j, ok := r.jobs[id]
	if !ok {
		return nil, fmt.Errorf("no job %q in this session", id)
	}
	return j, nil
}

// Output returns a job's new output since the last call, first waiting up to wait for the
// job to end (0: no wait). A finished job reports its exit code and full result.
func (r *Runner) Output(ctx context.Context, id string, wait time.Duration) (*JobStatus, error) {
	j, err := r.job(id)
	if err != nil {
		return nil, err
	}
	if wait > 0 {
		t := time.NewTimer(min(wait, MaxTimeout))
		select {
		case <-j.pr.done:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	st := &JobStatus{ID: id, Running: true}
	select {
	case <-j.pr.done:
		st.Running = false
		res := j.pr.result()
		st.ExitCode = &res.ExitCode
		st.Result = res
	default:
	}
	var cut1, cut2 bool
	st.Stdout, j.readOut, cut1 = j.pr.stdout.since(j.readOut)
	st.Stderr, j.readErr, cut2 = j.pr.stderr.since(j.readErr)
	st.Truncated = cut1 || cut2
	if st.Result != nil {
		st.Result.Stdout, st.Result.Stderr = "", "" // the new output is above; the rest was read before
	}
	return st, nil
}

// Kill kills a job and returns its final status.
func (r *Runner) Kill(id string) (*JobStatus, error) {
	j, err := r.job(id)
	if err != nil {
		return nil, err
	}
	j.kill()
	return r.Output(context.Background(), id, 0)
}

// kill kills the job's processes and waits for its cleanup.
func (j *Job) kill() {
	j.pr.p.Kill()
	<-j.pr.done
}
