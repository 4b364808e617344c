package store

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/p4hls/p4hls/internal/redistest"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
)

// each runs a test on every kind of store: memory, a folder, a real
// redis-server.
func each(t *testing.T, test func(t *testing.T, s Store)) {
	ctx := context.Background()
	t.Run("memory", func(t *testing.T) { test(t, NewMemory(1<<20)) })
	t.Run("dir", func(t *testing.T) {
		s, err := Open(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		test(t, s)
	})
	t.Run("redis", func(t *testing.T) {
		s, err := Open(ctx, redistest.Start(t))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		test(t, s)
	})
}

// TestRoundTrip: a value put is got back byte for byte; a key never put
// is a miss, not an error; a second put replaces the first.
func TestRoundTrip(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		if _, ok, err := s.Get(ctx, "result/abc123"); ok || err != nil {
			t.Fatalf("missing key: found %v, err %v", ok, err)
		}
		value := []byte{0, 1, 2, 0xff, '\n'}
		if err := s.Put(ctx, "result/abc123", value); err != nil {
			t.Fatal(err)
		}
		value[0] = 9 // the store kept its own copy
		got, ok, err := s.Get(ctx, "result/abc123")
		if err != nil || !ok || !bytes.Equal(got, []byte{0, 1, 2, 0xff, '\n'}) {
			t.Fatalf("got %v, %v, %v", got, ok, err)
		}
		if err := s.Put(ctx, "result/abc123", []byte("second")); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := s.Get(ctx, "result/abc123"); string(got) != "second" {
			t.Errorf("after a second put: %q", got)
		}
	})
}

// TestMemoryBound: past its bound the memory store drops the least
// recently used value. Each entry here is 10 bytes (a 6-byte key and a
// 4-byte value) and the bound 30, so a fourth put drops one: q/key0 was
// read after q/key1 and q/key2 were put, so q/key1 is the one.
func TestMemoryBound(t *testing.T) {
	ctx := context.Background()
	m := NewMemory(30)
	for i := range 3 {
		m.Put(ctx, fmt.Sprintf("q/key%d", i), []byte("vvvv"))
	}
	m.Get(ctx, "q/key0") // now the most recently used
	m.Put(ctx, "q/key3", []byte("vvvv"))
	if m.Len() != 3 {
		t.Errorf("%d values held, want 3", m.Len())
	}
	for key, want := range map[string]bool{"q/key0": true, "q/key1": false, "q/key2": true, "q/key3": true} {
		if _, ok, _ := m.Get(ctx, key); ok != want {
			t.Errorf("%s held: %v, want %v", key, ok, want)
		}
	}
	m.Put(ctx, "q/big", make([]byte, 100)) // larger than the bound: not kept
	if _, ok, _ := m.Get(ctx, "q/big"); ok {
		t.Error("a value larger than the bound was kept")
	}
}

// TestDirSurvivesReopen: a folder store's values are there for the next
// store on the same folder (a restarted server); a key that would leave
// the folder is refused.
func TestDirSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, _ := NewDir(dir)
	if err := a.Put(ctx, "result/0123abcd", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	b, _ := NewDir(dir)
	if got, ok, err := b.Get(ctx, "result/0123abcd"); string(got) != "kept" || !ok || err != nil {
		t.Errorf("reopened: %q, %v, %v", got, ok, err)
	}
	for _, key := range []string{"result/../../etc", "../x/abcd", "noprefix", "result/a/b/cd"} {
		if err := b.Put(ctx, key, []byte("x")); err == nil {
			t.Errorf("key %q accepted", key)
		}
	}
}

// TestTieredFillsFront: a value found only in the back store is copied to
// the front, so the next get does not ask the back.
func TestTieredFillsFront(t *testing.T) {
	ctx := context.Background()
	front, back := NewMemory(1<<10), NewMemory(1<<10)
	back.Put(ctx, "query/k1", []byte("answer"))
	tiered := Tiered{front, back}
	if got, ok, _ := tiered.Get(ctx, "query/k1"); !ok || string(got) != "answer" {
		t.Fatalf("got %q, %v", got, ok)
	}
	if got, ok, _ := front.Get(ctx, "query/k1"); !ok || string(got) != "answer" {
		t.Errorf("front after a get: %q, %v", got, ok)
	}
	tiered.Put(ctx, "query/k2", []byte("both"))
	if _, ok, _ := back.Get(ctx, "query/k2"); !ok {
		t.Error("a put did not reach the back store")
	}
}

// TestQueryCache: synthesis's answers, found or not, go through a store
// and come back as they were, marked unchecked; a damaged value, one
// under another key and one with a wrong checksum are misses, counted.
func TestQueryCache(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		q := NewQueryCache(s, 0)
		q.Put("aa11", synth.Answer{Config: grammar.Config{3, 0, 1 << 40}, Found: true})
		q.Put("bb22", synth.Answer{})
		if a, ok := q.Get("aa11"); !ok || !a.Found || !a.Unchecked || len(a.Config) != 3 || a.Config[2] != 1<<40 {
			t.Errorf("aa11: %+v %v", a, ok)
		}
		if a, ok := q.Get("bb22"); !ok || a.Found {
			t.Errorf("bb22 (no configuration): %+v, ok %v", a, ok)
		}
		ctx := context.Background()
		s.Put(ctx, "query/cc33", []byte("{not json"))
		moved, _, _ := s.Get(ctx, "query/aa11")
		s.Put(ctx, "query/dd44", moved)
		s.Put(ctx, "query/ee55", bytes.Replace(moved, []byte(`"found":true`), []byte(`"found":false`), 1))
		for _, key := range []string{"cc33", "dd44", "ee55"} {
			if _, ok := q.Get(key); ok {
				t.Errorf("%s: a damaged value was a hit", key)
			}
		}
		if q.Damaged() != 3 {
			t.Errorf("%d damaged, want 3", q.Damaged())
		}
	})
}
