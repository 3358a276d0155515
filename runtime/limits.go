package runtime

import (
	"sync"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// Limits bound one call. Zero (or negative) fields take the defaults of DefaultLimits.
type Limits struct {
	Timeout        time.Duration // wall clock per call (default 30s)
	Instructions   int64         // VM instructions per call, pattern-matching steps included (default 50_000_000)
	MaxMemory      uint64        // bytes of Lua data a call may allocate, charged before each allocation (default 256 MiB)
	MaxSourceBytes int           // snippet source size (default 64 KiB)
	MaxStringBytes int           // any string built by a builtin: rep/format/gsub/concat (default 16 MiB)
	CallStackSize  int           // Lua call depth (default 200)
	MaxDepth       int           // nesting depth in Lua<->Go conversion (default 64)
	MaxValues      int           // values in one conversion (default 200_000)
}

// DefaultLimits returns the default limits.
func DefaultLimits() Limits {
	return Limits{
		Timeout:        30 * time.Second,
		Instructions:   50_000_000,
		MaxMemory:      256 << 20,
		MaxSourceBytes: 64 << 10,
		MaxStringBytes: 16 << 20,
		CallStackSize:  200,
		MaxDepth:       64,
		MaxValues:      200_000,
	}
}

// withDefaults returns l with every non-positive field replaced by its default.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	if l.Instructions <= 0 {
		l.Instructions = d.Instructions
	}
	if l.MaxMemory == 0 {
		l.MaxMemory = d.MaxMemory
	}
	if l.MaxSourceBytes <= 0 {
		l.MaxSourceBytes = d.MaxSourceBytes
	}
	if l.MaxStringBytes <= 0 {
		l.MaxStringBytes = d.MaxStringBytes
	}
	if l.CallStackSize <= 0 {
		l.CallStackSize = d.CallStackSize
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxValues <= 0 {
		l.MaxValues = d.MaxValues
	}
	return l
}

// Fixed bounds that are not worth a Limits field.
const (
	registrySize     = 2048    // initial value-stack slots (16 B each)
	registryMaxSize  = 65536   // the value stack never grows beyond this
	registryGrowStep = 4096    // linear growth step: large enough to keep big pushes O(n)
	maxArrayIndex    = 1 << 20 // see init
	maxUnpack        = 10_000  // values unpack may push
	maxSortPlain     = 100_000 // elements table.sort sorts without a comparator (uninterruptible Go)
	maxSyntaxLevels  = 200     // nesting of brackets and blocks in a snippet, as Lua 5.1's LUAI_MAXCCALLS
	maxMessageBytes  = 4 << 10 // Error.Message
	cacheEntries     = 256     // compiled chunks kept
)

// useLuaSettings sets, the first time a VM is made (not when the package is imported),
// the two gopher-lua knobs that have no per-state form and so hold for the whole process,
// any other gopher-lua user in it included (see the package documentation).
// MaxArrayIndex is lowered so that a sparse key such as t[2^26-1] goes to the hash part
// instead of making the VM fill 64 M array slots; 1 M keeps `#t` (which counts the array
// part only) right for any list a call can return, while one sparse write costs at most
// ~80 MB and ~0.1 s. CompatVarArg off drops Lua 5.0's implicit `arg` table from every
// vararg call: snippets use `...`, and it was most of a call's garbage.
var useLuaSettings = sync.OnceFunc(func() {
	lua.MaxArrayIndex = maxArrayIndex
	lua.CompatVarArg = false
})
