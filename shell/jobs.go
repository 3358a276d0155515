package shell

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// Job is a command started in the background; its output is read as it comes.
type Job struct {
	ID       string
	Command  string
	pr       *process
	readOut  int64 // bytes of stdout already returned by Output
	readErr  int64
	lifetime time.Duration // how long it may run
	expired  atomic.Bool   // killed for running longer than lifetime
}

// ErrTooManyJobs refuses a background job while the session's limit of running ones is reached.
var ErrTooManyJobs = errors.New("too many background jobs")

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

// Start starts a background job; it runs until it ends, is killed, outlives the session's
// job lifetime, or the session closes. At most maxJobs run at once: a slot is taken before
// the command starts, so that concurrent Starts cannot pass the cap together.
func (r *Runner) Start(req Request) (*Job, error) {
	r.mu.Lock()
	if n := r.runningJobsLocked() + r.starting; n >= r.maxJobs {
		r.mu.Unlock()
		return nil, fmt.Errorf("%w: %d running, the most a session may have; wait for one with job_output or end one with job_kill", ErrTooManyJobs, n)
	}
	r.starting++
	r.mu.Unlock()
	id := r.newID("job")
	pr, err := r.start(req, id)
	r.mu.Lock()
	r.starting--
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	j := &Job{ID: id, Command: req.Command, pr: pr, lifetime: r.lifetime}
	if r.closed {
		r.mu.Unlock()
		j.kill()
		return nil, ErrClosed
	}
	r.jobs[id] = j
	r.mu.Unlock()
	timer := time.AfterFunc(j.lifetime, func() {
		select {
		case <-pr.done: // it ended on its own
		default:
			j.expired.Store(true)
			pr.p.Kill()
		}
	})
	go func() {
		<-pr.done
		timer.Stop()
	}()
	return j, nil
}

// runningJobs counts the session's jobs that have not ended.
func (r *Runner) runningJobs() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runningJobsLocked()
}

// runningJobsLocked is runningJobs with r.mu held.
func (r *Runner) runningJobsLocked() int {
	n := 0
	for _, j := range r.jobs {
		select {
		case <-j.pr.done:
		default:
			n++
		}
	}
	return n
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
		if j.expired.Load() {
			res.TimedOut = true
			res.Notes = append(res.Notes, fmt.Sprintf("the job ran longer than a session's jobs may (%s) and was killed", j.lifetime))
		}
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
