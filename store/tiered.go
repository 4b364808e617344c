package store

import (
	"context"
	"errors"
)

// Tiered answers from a fast store in front of a slow one (memory in
// front of Redis or a folder), filling the front from the back, so a
// server asks the shared store once per key.
type Tiered struct {
	Front, Back Store
}

func (t Tiered) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if v, ok, err := t.Front.Get(ctx, key); err == nil && ok {
		return v, true, nil
	}
	v, ok, err := t.Back.Get(ctx, key)
	if err != nil || !ok {
		return nil, false, err
	}
	return v, true, t.Front.Put(ctx, key, v)
}

func (t Tiered) Put(ctx context.Context, key string, value []byte) error {
	return errors.Join(t.Front.Put(ctx, key, value), t.Back.Put(ctx, key, value))
}

func (t Tiered) Name() string { return t.Front.Name() + " + " + t.Back.Name() }
func (t Tiered) Close() error { return errors.Join(t.Front.Close(), t.Back.Close()) }
