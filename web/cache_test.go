package web

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResultCacheExpires(t *testing.T) {
	c := newResultCache(4, time.Minute)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	c.put("k", &FetchResult{Content: "v"})

	now = now.Add(59 * time.Second)
	r, ok := c.get("k")
	require.True(t, ok)
	assert.Equal(t, "v", r.Content)
	assert.True(t, r.Cached)

	now = now.Add(time.Second)
	_, ok = c.get("k")
	assert.False(t, ok, "an entry is not served after its ttl")
	assert.Zero(t, c.order.Len(), "an expired entry is dropped")
}

func TestResultCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := newResultCache(2, time.Hour)
	c.put("a", &FetchResult{Content: "a"})
	c.put("b", &FetchResult{Content: "b"})
	_, ok := c.get("a") // a is now more recent than b
	require.True(t, ok)
	c.put("c", &FetchResult{Content: "c"})

	_, ok = c.get("b")
	assert.False(t, ok, "b was the least recently used")
	for _, k := range []string{"a", "c"} {
		_, ok = c.get(k)
		assert.True(t, ok, k)
	}

	c.put("a", &FetchResult{Content: "a2"})
	r, ok := c.get("a")
	require.True(t, ok)
	assert.Equal(t, "a2", r.Content, "put replaces an entry")
	assert.Equal(t, 2, c.order.Len())
}

func TestOutcome(t *testing.T) {
	assert.Equal(t, "200, 5 characters", (&FetchResult{Status: 200, Content: "héllo"}).Outcome())
	assert.Equal(t, "404, 1 character, cached (cut)", (&FetchResult{Status: 404, Content: "x", Cached: true, Truncated: true}).Outcome())
	assert.Equal(t, "2 results", (&SearchResult{Results: make([]SearchHit, 2)}).Outcome())
}
