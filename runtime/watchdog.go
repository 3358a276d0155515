package runtime

import (
	"math"
	"runtime/metrics"
	"sync"
	"time"
)

// heapMetric is the heap as runtime/metrics reports it: cheap to read (no stop-the-world,
// unlike runtime.ReadMemStats) and updated as the heap grows. It counts live objects and dead
// ones the collector has not freed yet.
const heapMetric = "/memory/classes/heap/objects:bytes"

// watchInterval is how often the watchdog reads the heap.
const watchInterval = time.Millisecond

// watchdog cancels, with errMemory, calls during which the heap grew more than their
// MaxHeapGrowth. gopher-lua has no allocator hook, so this is the only bound on memory a snippet
// builds in Lua (e.g. s = s..s). One goroutine serves every running call of the process and runs
// only while calls run. The heap is process-wide: concurrent calls see each other's growth, and
// garbage the collector has not freed yet counts as growth.
type watchdog struct {
	mu      sync.Mutex
	calls   map[*callCtx]struct{}
	running bool
}

var heapWatch = &watchdog{calls: map[*callCtx]struct{}{}}

// liveHeap reads the heap into sample; it is 0 where the metric is not supported.
func liveHeap(sample []metrics.Sample) int64 {
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(min(sample[0].Value.Uint64(), math.MaxInt64))
}

// add watches c until remove; c.heapStart must be set.
func (w *watchdog) add(c *callCtx) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls[c] = struct{}{}
	if !w.running {
		w.running = true
		go w.loop()
	}
}

// remove stops watching c.
func (w *watchdog) remove(c *callCtx) {
	w.mu.Lock()
	delete(w.calls, c)
	w.mu.Unlock()
}

// loop reads the heap every watchInterval until no call is left.
func (w *watchdog) loop() {
	tick := time.NewTicker(watchInterval)
	defer tick.Stop()
	sample := []metrics.Sample{{Name: heapMetric}}
	for range tick.C {
		if !w.check(liveHeap(sample)) {
			return
		}
	}
}

// check cancels the calls over their limit at heap; it reports false, and stops the loop, when
// no call is left.
func (w *watchdog) check(heap int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.calls) == 0 {
		w.running = false
		return false
	}
	for c := range w.calls {
		if heap-c.heapStart > int64(min(c.st.lim.MaxHeapGrowth, math.MaxInt64)) {
			c.cancel(errMemory)
		}
	}
	return true
}
