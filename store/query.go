package store

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/p4hls/p4hls/synth"
)

// QueryCache is synthesis's query cache (synth.Cache) over a store, so
// every request of a server, and every server sharing a store, reuses
// every query answered. synth.Cache's methods take no context: each
// access is bounded by Timeout instead, and a store that fails only
// costs a query (a miss, a value not kept). A store is shared, so its
// answers are untrusted: they are stored in synth.EncodeAnswer's form,
// read back Unchecked, and a damaged one is a miss, counted in Damaged.
type QueryCache struct {
	Store   Store
	Timeout time.Duration
	damaged *atomic.Int64
}

// NewQueryCache makes the query cache over s.
func NewQueryCache(s Store, timeout time.Duration) QueryCache {
	return QueryCache{Store: s, Timeout: timeout, damaged: new(atomic.Int64)}
}

func (q QueryCache) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), max(q.Timeout, 100*time.Millisecond))
}

func (q QueryCache) Get(key string) (synth.Answer, bool) {
	ctx, cancel := q.ctx()
	defer cancel()
	data, ok, err := q.Store.Get(ctx, "query/"+key)
	if err != nil || !ok {
		return synth.Answer{}, false
	}
	a, err := synth.DecodeAnswer(key, data)
	if errors.Is(err, synth.ErrBadAnswer) {
		if q.damaged != nil {
			q.damaged.Add(1)
		}
		return synth.Answer{}, false // a miss: the query runs, and Put rewrites it
	}
	return a, err == nil
}

func (q QueryCache) Put(key string, a synth.Answer) {
	ctx, cancel := q.ctx()
	defer cancel()
	_ = q.Store.Put(ctx, "query/"+key, synth.EncodeAnswer(key, a)) // a value not kept only costs time
}

// Damaged counts the entries Get refused.
func (q QueryCache) Damaged() int {
	if q.damaged == nil {
		return 0
	}
	return int(q.damaged.Load())
}
