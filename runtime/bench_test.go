package runtime

import (
	"context"
	"runtime"
	"testing"
)

func BenchmarkNewVM(b *testing.B) {
	libs := []Library{testLib()}
	b.ReportAllocs()
	for b.Loop() {
		vm, err := New(Options{Libraries: libs})
		if err != nil {
			b.Fatal(err)
		}
		vm.Close()
	}
}

// BenchmarkIdleVM reports the memory an idle VM keeps: heap and its owner goroutine's stack.
func BenchmarkIdleVM(b *testing.B) {
	var perVM float64
	for b.Loop() {
		perVM = retainedPerVM(b, 100)
	}
	b.ReportMetric(perVM, "retained-B/vm")
}

func TestRetainedPerIdleVM(t *testing.T) {
	perVM := retainedPerVM(t, 50)
	t.Logf("%.0f bytes retained per idle VM", perVM)
	assert150KB := perVM <= 150<<10
	if !assert150KB {
		t.Errorf("an idle VM keeps %.0f bytes, over 150 KiB", perVM)
	}
}

// retainedPerVM creates n VMs and returns the growth of heap and stacks per VM.
func retainedPerVM(tb testing.TB, n int) float64 {
	libs := []Library{testLib()}
	before := inUse()
	vms := make([]*VM, n)
	for i := range vms {
		vm, err := New(Options{Libraries: libs})
		if err != nil {
			tb.Fatal(err)
		}
		vms[i] = vm
	}
	after := inUse()
	for _, vm := range vms {
		vm.Close()
	}
	return float64(after-before) / float64(n)
}

// inUse is the heap and stack memory in use after a full collection.
func inUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc + m.StackInuse
}

func BenchmarkCallReturn1(b *testing.B) {
	benchCall(b, "return 1")
}

func BenchmarkCallBridge(b *testing.B) {
	benchCall(b, "return jido.f(41)")
}

func benchCall(b *testing.B, src string) {
	vm, err := New(Options{Libraries: []Library{testLib()}})
	if err != nil {
		b.Fatal(err)
	}
	defer vm.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := vm.Call(ctx, "bench", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallAllocating builds tables, closures, keys and strings: what the memory
// accounting charges (compare with the same snippet before the accounting: at most +10%).
func BenchmarkCallAllocating(b *testing.B) {
	benchCall(b, `local t, h, s = {}, {}, ''
		for i = 1, 500 do t[i] = {i, i} h['k' .. i] = function() return i end end
		for i = 1, 200 do s = s .. 'x' end
		table.insert(t, s:upper())
		return #t + #s`)
}
