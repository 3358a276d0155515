package runtime

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// compile returns the compiled chunk of src, from the cache or freshly compiled. The source size
// is capped first: compiling is uninterruptible Go whose time grows faster than the source.
func (vm *VM) compile(name, src string) (*lua.FunctionProto, *Error) {
	p, fresh, e := compileCached(vm.lim, name, src)
	if fresh {
		vm.compiles.Add(1)
	}
	return p, e
}

// compileCached is compile for any caller: fresh reports that src was compiled rather than
// taken from the cache.
func compileCached(lim Limits, name, src string) (p *lua.FunctionProto, fresh bool, e *Error) {
	if len(src) > lim.MaxSourceBytes {
		return nil, false, newError(KindSyntax, "the source is %d bytes, over the limit of %d", len(src), lim.MaxSourceBytes)
	}
	key := chunkKey(name, src)
	if p := chunks.get(key); p != nil {
		return p, false, nil
	}
	if e := checkNesting(src); e != nil {
		return nil, false, e
	}
	if p, e = compileChunk(name, src); e != nil {
		return nil, false, e
	}
	chunks.put(key, p)
	return p, true, nil
}

// compileChunk parses and compiles src; lua.Compile re-panics what is not a compile error, so a
// panic is recovered here.
func compileChunk(name, src string) (p *lua.FunctionProto, e *Error) {
	defer func() {
		if r := recover(); r != nil {
			p, e = nil, newError(KindInternal, "the compiler panicked: %v", r)
		}
	}()
	chunk, err := parse.Parse(strings.NewReader(src), name)
	if err == nil {
		p, err = lua.Compile(chunk, name)
	}
	if err != nil {
		return nil, newError(KindSyntax, "%v", err)
	}
	return p, nil
}
