package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a store in a Redis server, which several p4hls servers share.
// Values expire after TTL, so the server's memory policy need not be
// set for the cache to stay bounded.
type Redis struct {
	client *redis.Client
	addr   string
	ttl    time.Duration
}

// DefaultRedisTTL is how long a value is kept in Redis.
const DefaultRedisTTL = 7 * 24 * time.Hour

// OpenRedis connects to the server url names (redis://HOST:PORT[/DB])
// and checks that it answers.
func OpenRedis(ctx context.Context, url string) (*Redis, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("cache %s: %w", url, err)
	}
	r := &Redis{client: redis.NewClient(opts), addr: opts.Addr, ttl: DefaultRedisTTL}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := r.client.Ping(ctx).Err(); err != nil {
		r.client.Close()
		return nil, fmt.Errorf("cache %s: %w", url, err)
	}
	return r, nil
}

// keyPrefix keeps p4hls's keys apart from others in a shared server.
const keyPrefix = "p4hls/"

func (r *Redis) Get(ctx context.Context, key string) ([]byte, bool, error) {
	data, err := r.client.Get(ctx, keyPrefix+key).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("redis get: %w", err)
	}
	return data, true, nil
}

func (r *Redis) Put(ctx context.Context, key string, value []byte) error {
	if err := r.client.Set(ctx, keyPrefix+key, value, r.ttl).Err(); err != nil {
		return fmt.Errorf("redis set: %w", err)
	}
	return nil
}

func (r *Redis) Name() string { return "redis " + r.addr }
func (r *Redis) Close() error { return r.client.Close() }
