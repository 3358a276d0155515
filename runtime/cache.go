package runtime

import (
	"container/list"
	"crypto/sha256"
	"sync"

	lua "github.com/yuin/gopher-lua"
)

// protoCache keeps compiled chunks, least recently used out first. A FunctionProto is read-only
// once compiled, so every VM of the process shares the cache: a tool's script compiles once.
type protoCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *cacheEntry, most recently used first
	index map[[sha256.Size]byte]*list.Element
}

type cacheEntry struct {
	key   [sha256.Size]byte
	proto *lua.FunctionProto
}

// chunks is the process's cache of compiled chunks.
var chunks = newProtoCache(cacheEntries)

func newProtoCache(max int) *protoCache {
	return &protoCache{max: max, order: list.New(), index: map[[sha256.Size]byte]*list.Element{}}
}

// chunkKey is the cache key of a chunk: the SHA-256 of its name (which its error messages
// carry) and its source.
func chunkKey(name, src string) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write([]byte(src))
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

func (c *protoCache) get(key [sha256.Size]byte) *lua.FunctionProto {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.index[key]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).proto
}

func (c *protoCache) put(key [sha256.Size]byte, p *lua.FunctionProto) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.index[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.index[key] = c.order.PushFront(&cacheEntry{key: key, proto: p})
	if c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.index, last.Value.(*cacheEntry).key)
	}
}
