package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/p4hls/p4hls/synth/grammar"
)

// QueryCache is synthesis's query cache (synth.Cache) over a store, so
// every request of a server, and every server sharing a store, reuses
// every query answered. synth.Cache's methods take no context: each
// access is bounded by Timeout instead, and a store that fails only
// costs a query (a miss, a value not kept).
type QueryCache struct {
	Store   Store
	Timeout time.Duration
}

// queryEntry is an answer as stored (as synth.DiskCache stores it).
type queryEntry struct {
	Found  bool           `json:"found"`
	Config grammar.Config `json:"config"`
}

func (q QueryCache) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), max(q.Timeout, 100*time.Millisecond))
}

func (q QueryCache) Get(key string) (grammar.Config, bool, bool) {
	ctx, cancel := q.ctx()
	defer cancel()
	data, ok, err := q.Store.Get(ctx, "query/"+key)
	if err != nil || !ok {
		return nil, false, false
	}
	var e queryEntry
	if json.Unmarshal(data, &e) != nil {
		return nil, false, false // a damaged entry is a miss
	}
	return e.Config, e.Found, true
}

func (q QueryCache) Put(key string, cfg grammar.Config, found bool) {
	data, err := json.Marshal(queryEntry{found, cfg})
	if err != nil {
		return
	}
	ctx, cancel := q.ctx()
	defer cancel()
	_ = q.Store.Put(ctx, "query/"+key, data) // a value not kept only costs time
}
