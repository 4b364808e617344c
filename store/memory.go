package store

import (
	"container/list"
	"context"
	"sync"
)

// Memory is a store in memory that drops the least recently used values
// past a bound on their bytes, so a long-running server's cache does not
// grow without end.
type Memory struct {
	mu       sync.Mutex
	maxBytes int
	bytes    int
	order    *list.List // most recently used first; elements hold *entry
	byKey    map[string]*list.Element
}

type entry struct {
	key   string
	value []byte
}

// NewMemory makes a memory store holding at most maxBytes of keys and
// values.
func NewMemory(maxBytes int) *Memory {
	return &Memory{maxBytes: maxBytes, order: list.New(), byKey: map[string]*list.Element{}}
}

func (m *Memory) Get(_ context.Context, key string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.byKey[key]
	if !ok {
		return nil, false, nil
	}
	m.order.MoveToFront(el)
	return el.Value.(*entry).value, true, nil
}

// Put keeps a copy of value (the caller may reuse its slice). A value
// larger than the whole bound is not kept.
func (m *Memory) Put(_ context.Context, key string, value []byte) error {
	size := len(key) + len(value)
	if size > m.maxBytes {
		return nil
	}
	value = append([]byte(nil), value...)
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.byKey[key]; ok {
		m.remove(el)
	}
	m.byKey[key] = m.order.PushFront(&entry{key, value})
	m.bytes += size
	for m.bytes > m.maxBytes {
		m.remove(m.order.Back())
	}
	return nil
}

func (m *Memory) remove(el *list.Element) {
	e := m.order.Remove(el).(*entry)
	delete(m.byKey, e.key)
	m.bytes -= len(e.key) + len(e.value)
}

// Len is the number of values held.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.byKey)
}

// Bytes is the size of the keys and values held.
func (m *Memory) Bytes() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes
}

func (m *Memory) Name() string { return "memory" }
func (m *Memory) Close() error { return nil }
