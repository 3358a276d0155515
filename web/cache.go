package web

import (
	"container/list"
	"sync"
	"time"
)

// resultCache keeps the most recent successful fetches for a while, so that a model that
// fetches the same page twice in a conversation does not hit the site twice. It is a
// small LRU: on a put beyond its size the least recently used entry goes.
type resultCache struct {
	mu    sync.Mutex
	size  int
	ttl   time.Duration
	now   func() time.Time // time.Now; tests move it
	order *list.List       // of *cacheEntry, most recently used first
	byKey map[string]*list.Element
}

// cacheEntry is one cached result and when it stops being served.
type cacheEntry struct {
	key     string
	result  FetchResult
	expires time.Time
}

// newResultCache returns a cache of size entries that live for ttl.
func newResultCache(size int, ttl time.Duration) *resultCache {
	return &resultCache{size: size, ttl: ttl, now: time.Now, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns a copy of the live entry under key, marked cached.
func (c *resultCache) get(key string) (*FetchResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if !c.now().Before(e.expires) {
		c.order.Remove(el)
		delete(c.byKey, key)
		return nil, false
	}
	c.order.MoveToFront(el)
	r := e.result
	r.Cached = true
	return &r, true
}

// put stores a copy of r under key.
func (c *resultCache) put(key string, r *FetchResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := &cacheEntry{key: key, result: *r, expires: c.now().Add(c.ttl)}
	if el, ok := c.byKey[key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(e)
	for c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).key)
	}
}
