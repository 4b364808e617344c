// Package store keeps the service's caches: compile results by the hash
// of their request, and synthesis query answers by synth.QueryKey. One
// interface, three stores: memory (bounded, the default), a folder
// (survives restarts) and Redis (shared by several servers behind a load
// balancer).
package store

import (
	"context"
	"fmt"
	"strings"
)

// Store keeps values by key. Keys are hex hashes with a short prefix
// ("result/", "query/"); values are opaque. Safe for concurrent use.
type Store interface {
	// Get returns the value of key; found is false for a missing key.
	Get(ctx context.Context, key string) (value []byte, found bool, err error)
	Put(ctx context.Context, key string, value []byte) error
	// Name says what the store is, for logs ("memory", "dir /var/cache",
	// "redis 127.0.0.1:6379").
	Name() string
	Close() error
}

// DefaultMemoryBytes bounds the memory store that Open("") makes.
const DefaultMemoryBytes = 256 << 20

// Open makes the store spec names: "" or "memory" for memory, a
// redis://HOST:PORT[/DB] URL for Redis, anything else a folder.
func Open(ctx context.Context, spec string) (Store, error) {
	switch {
	case spec == "" || spec == "memory":
		return NewMemory(DefaultMemoryBytes), nil
	case strings.HasPrefix(spec, "redis://") || strings.HasPrefix(spec, "rediss://"):
		return OpenRedis(ctx, spec)
	}
	s, err := NewDir(spec)
	if err != nil {
		return nil, fmt.Errorf("cache %s: %w", spec, err)
	}
	return s, nil
}
