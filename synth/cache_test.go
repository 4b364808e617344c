package synth_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
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
// with a valid checksum, a link to /dev/zero), the entries kept under a
// query's shape too; synthesis with that folder gives the graph it gives
// without a cache, the damage to the queries' entries is counted, and a
// second run finds every answer whole.
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
	exact := 0         // of them, entries of a query (the rest are of a shape)
	for _, p := range entries {
		data, _ := os.ReadFile(p)
		var e struct {
			Found     bool
			Constants []uint64
		}
		json.Unmarshal(data, &e)
		if e.Found {
			found = append(found, p)
		}
		if e.Found && e.Constants == nil {
			exact++
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
			// A shape's entry found for other constants than a query's
			// may just not hold for it: only the queries' are sure to be
			// counted.
			if cache.Damaged()+stats.CacheRejected < exact {
				t.Errorf("%d damaged and %d rejected, want %d counted", cache.Damaged(), stats.CacheRejected, exact)
			}
			// The run wrote good entries over the damaged ones it read.
			again, err := synth.NewDiskCache(dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, stats, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{Cache: again}); err != nil || again.Damaged()+stats.CacheRejected > 0 || stats.Queries > 0 {
				t.Errorf("again: %v; %d damaged, %d rejected, %d queries; want none", err, again.Damaged(), stats.CacheRejected, stats.Queries)
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

// TestEditedConstantReusesConfigurations: after a constant of an action is
// edited, the queries whose configuration moves with the constant are
// answered from the cache (the shape's entry, proved for the new
// constant), so the edited action asks fewer solver queries than it does
// without a cache, and maps as deep, to a graph that means it.
func TestEditedConstantReusesConfigurations(t *testing.T) {
	tests := []struct{ file, atom, define, edited string }{
		{"sampling.p4", "if_else_raw", "#define N 30", "#define N 20"},
		{"rcp.p4", "pred_raw", "#define MAX_ALLOWABLE_RTT 30", "#define MAX_ALLOWABLE_RTT 50"},
		{"snap_heavy_hitter.p4", "pair", "#define THRESHOLD 1000", "#define THRESHOLD 2000"},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			_, tx, stateful, stateless := setup(t, tc.file, tc.atom)
			src, err := os.ReadFile(filepath.Join(corpus.Dir(), "ok", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), tc.define) {
				t.Fatalf("%s has no %q", tc.file, tc.define)
			}
			edited := corpus.LoadSource(t, tc.file, []byte(strings.Replace(string(src), tc.define, tc.edited, 1)))
			_, txEdited, _, _ := setupProgram(t, edited, tc.atom)

			cache := synth.NewMemoryCache()
			if _, _, err := synth.Synthesize(ctx, tx, stateful, stateless, synth.Options{Cache: cache}); err != nil {
				t.Fatal(err)
			}
			g, stats, err := synth.Synthesize(ctx, txEdited, stateful, stateless, synth.Options{Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			cold, coldStats, err := synth.Synthesize(ctx, txEdited, stateful, stateless, synth.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if stats.CacheHits == 0 || stats.Queries >= coldStats.Queries {
				t.Errorf("edited: %d queries and %d cache hits; without a cache %d queries", stats.Queries, stats.CacheHits, coldStats.Queries)
			}
			if g.Depth() != cold.Depth() {
				t.Errorf("edited: depth %d, without a cache %d", g.Depth(), cold.Depth())
			}
			if err := synth.Prove(ctx, txEdited, g, synth.DefaultWidth); err != nil {
				t.Error(err)
			}
		})
	}
}
