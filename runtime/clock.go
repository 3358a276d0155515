package runtime

import (
	"context"
	"sync"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// Clock measures the Lua time of one call: wall time while the snippet's Lua runs, not
// while a host function (a library's Go function: a tool, which bounds its own waiting by
// its own timeout) runs. When the Lua time reaches the limit, expire is called once. A
// snippet that waits 100 s for a command with a 120 s timeout has used almost no Lua time;
// a snippet that loops for 30 s has used 30 s.
//
// The clock starts running. Stop and Start bracket the host's spans; Release frees its
// timer. Its methods are safe for concurrent use (the timer fires on its own goroutine).
type Clock struct {
	mu     sync.Mutex
	limit  time.Duration
	used   time.Duration // Lua time of the spans that ended
	since  time.Time     // start of the running span; zero while stopped
	host   int           // nesting of host spans (a host function calling back into Lua and out again)
	timer  *time.Timer
	expire func()
	done   bool // expired or released
}

// StartClock starts a running clock of limit; expire is called (once, on another goroutine)
// when the Lua time reaches it.
func StartClock(limit time.Duration, expire func()) *Clock {
	c := &Clock{limit: limit, since: time.Now(), expire: expire}
	c.timer = time.AfterFunc(limit, c.check)
	return c
}

// check runs when the timer fires: it expires the clock if the Lua time reached the limit,
// else sets the timer for the Lua time left (a stopped clock wakes once per limit at most).
func (c *Clock) check() {
	c.mu.Lock()
	if c.done {
		c.mu.Unlock()
		return
	}
	used := c.used
	if !c.since.IsZero() {
		used += time.Since(c.since)
	}
	if used < c.limit {
		c.timer.Reset(c.limit - used)
		c.mu.Unlock()
		return
	}
	c.done = true
	c.mu.Unlock()
	c.expire()
}

// Stop stops the clock for a host span; each Stop is undone by one Start.
func (c *Clock) Stop() {
	c.mu.Lock()
	if c.host == 0 && !c.since.IsZero() {
		c.used += time.Since(c.since)
		c.since = time.Time{}
	}
	c.host++
	c.mu.Unlock()
}

// Start ends a host span begun by Stop: the clock runs again when no host span is left.
// A clock whose limit passed while it ran expires at once.
func (c *Clock) Start() {
	c.mu.Lock()
	c.host--
	expired := false
	if c.host == 0 {
		c.since = time.Now()
		if c.used >= c.limit && !c.done {
			c.done, expired = true, true
		}
	}
	c.mu.Unlock()
	if expired {
		c.expire()
	}
}

// Resume runs the clock again inside a host span, for Lua that a host function calls
// back (a user's tool run by jido.call); the returned function stops it again.
func (c *Clock) Resume() (again func()) {
	c.mu.Lock()
	saved := c.host
	if saved > 0 {
		c.host = 0
		c.since = time.Now()
	}
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		if saved > 0 {
			if !c.since.IsZero() {
				c.used += time.Since(c.since)
			}
			c.since, c.host = time.Time{}, saved
		}
		c.mu.Unlock()
	}
}

// Release stops the clock for good: expire is not called after it returns.
func (c *Clock) Release() {
	c.mu.Lock()
	c.done = true
	c.mu.Unlock()
	c.timer.Stop()
}

// luaTimeoutKey carries a call's own Lua time limit in its context.
type luaTimeoutKey struct{}

// WithTimeout returns ctx carrying d as the Lua time limit of the calls made under it,
// instead of Limits.Timeout: longer or shorter, as the caller decides (a call's
// meta.timeout). d <= 0 leaves ctx as it is.
func WithTimeout(ctx context.Context, d time.Duration) context.Context {
	if d <= 0 {
		return ctx
	}
	return context.WithValue(ctx, luaTimeoutKey{}, d)
}

// TimeoutOf is the Lua time limit of a call made under ctx: WithTimeout's, else def.
func TimeoutOf(ctx context.Context, def time.Duration) time.Duration {
	if d, ok := ctx.Value(luaTimeoutKey{}).(time.Duration); ok {
		return d
	}
	return def
}

// hostFunc wraps a library function so that the time it takes is not charged to the
// call's Lua clock: a tool waiting for a command is bounded by the tool's own timeout.
func hostFunc(fn lua.LGFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		c, ok := L.Context().(*callCtx)
		if !ok {
			return fn(L)
		}
		c.clock.Stop()
		defer c.clock.Start()
		return fn(L)
	}
}

// CallLua calls a Lua function from inside a host function, as L.Call does, and charges
// the time its Lua runs to the call's clock again (a user's Lua tool that jido.call runs).
func CallLua(L *lua.LState, nargs, nresults int) {
	if c, ok := L.Context().(*callCtx); ok {
		defer c.clock.Resume()()
	}
	L.Call(nargs, nresults)
}
