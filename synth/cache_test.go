package synth_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
)

// forge writes key's entry as EncodeAnswer would for a (a valid checksum:
// what someone who knows the format can write), or raw bytes.
func forge(t *testing.T, path, key string, a *synth.Answer, raw []byte) {
	t.Helper()
	if a != nil {
		raw = synth.EncodeAnswer(key, *a)
	}
	os.Remove(path)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedCacheChangesNothing: the query cache is untrusted input. Each
// entry of a cache folder is damaged in one of the ways a disk, a bad
// copy or a hostile user can (null, {}, not JSON, a flipped found flag or
// a changed value without a new checksum, another query's entry, a
// configuration of the wrong length or that does not compute the query
// with a valid checksum, a link to /dev/zero); synthesis with that folder
// gives the graph it gives without a cache, and the damage is counted.
func TestDamagedCacheChangesNothing(t *testing.T) {
	_, tx, stateful, stateless := setup(t, "marple_tcp_nmo.p4", "pred_raw")
	clean, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cache, err := synth.NewDiskCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{Cache: cache}); err != nil {
		t.Fatal(err)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	var found []string // entries of configurations found
	for _, p := range entries {
		data, _ := os.ReadFile(p)
		var e struct{ Found bool }
		json.Unmarshal(data, &e)
		if e.Found {
			found = append(found, p)
		}
	}
	if len(found) == 0 {
		t.Fatal("no configuration in the cache")
	}
	damages := []struct {
		name   string
		damage func(path, key string, other []byte)
	}{
		{"null", func(p, k string, _ []byte) { forge(t, p, k, nil, []byte("null")) }},
		{"{}", func(p, k string, _ []byte) { forge(t, p, k, nil, []byte("{}")) }},
		{"not JSON", func(p, k string, _ []byte) { forge(t, p, k, nil, []byte("{\"found\": tr")) }},
		{"another query's entry", func(p, k string, other []byte) { forge(t, p, k, nil, other) }},
		{"found flipped, old checksum", func(p, k string, _ []byte) {
			data, _ := os.ReadFile(p)
			var e map[string]any
			json.Unmarshal(data, &e)
			e["found"] = false
			raw, _ := json.Marshal(e)
			forge(t, p, k, nil, raw)
		}},
		{"a short configuration", func(p, k string, _ []byte) {
			forge(t, p, k, &synth.Answer{Config: grammar.Config{1}, Found: true}, nil)
		}},
		{"a wrong configuration", func(p, k string, _ []byte) {
			data, _ := os.ReadFile(p)
			a, err := synth.DecodeAnswer(k, data)
			if err != nil {
				t.Fatal(err)
			}
			wrong := append(grammar.Config(nil), a.Config...)
			for i := range wrong {
				wrong[i] ^= 1
			}
			forge(t, p, k, &synth.Answer{Config: wrong, Found: true}, nil)
		}},
		{"a link to /dev/zero", func(p, k string, _ []byte) {
			os.Remove(p)
			if err := os.Symlink("/dev/zero", p); err != nil {
				t.Fatal(err)
			}
		}},
	}
	pristine := map[string][]byte{}
	for _, p := range entries {
		pristine[p], _ = os.ReadFile(p)
	}
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			for _, p := range entries {
				os.Remove(p)
				os.WriteFile(p, pristine[p], 0o644)
			}
			for _, p := range found {
				key := filepath.Base(p[:len(p)-len(".json")])
				other := pristine[entries[(indexOf(entries, p)+1)%len(entries)]]
				d.damage(p, key, other)
			}
			cache, err := synth.NewDiskCache(dir)
			if err != nil {
				t.Fatal(err)
			}
			g, stats, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			if g.String() != clean.String() {
				t.Errorf("another graph:\n%s\nwant\n%s", g, clean)
			}
			if cache.Damaged()+stats.CacheRejected < len(found) {
				t.Errorf("%d damaged and %d rejected, want %d counted", cache.Damaged(), stats.CacheRejected, len(found))
			}
		})
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// FuzzDecodeAnswer: any bytes under any key decode to an error or to an
// answer whose encoding decodes to itself; never a panic.
func FuzzDecodeAnswer(f *testing.F) {
	f.Add("k", synth.EncodeAnswer("k", synth.Answer{Config: grammar.Config{1, 2, 3}, Found: true}))
	f.Add("k", synth.EncodeAnswer("k", synth.Answer{}))
	f.Add("k", []byte("null"))
	f.Add("k", []byte(`{"key":"k","found":true,"config":[18446744073709551615]}`))
	f.Fuzz(func(t *testing.T, key string, data []byte) {
		a, err := synth.DecodeAnswer(key, data)
		if err != nil {
			return
		}
		b, err := synth.DecodeAnswer(key, synth.EncodeAnswer(key, a))
		if err != nil || b.Found != a.Found || len(b.Config) != len(a.Config) {
			t.Fatalf("%+v re-encoded decodes to %+v, %v", a, b, err)
		}
	})
}
