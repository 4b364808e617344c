package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/p4hls/p4hls/synth/grammar"
)

// Cache keeps query results by QueryKey, so a second compile of the same
// program issues no solver query. Failed queries (no configuration) are
// kept too: they are the expensive ones.
type Cache interface {
	Get(key string) (cfg grammar.Config, found, ok bool)
	Put(key string, cfg grammar.Config, found bool)
}

// QueryKey names a query by what it means: the grammar's text, the
// spec's Key, the width and what the spec cares about; and by how it is
// searched (searchWidth, as in Options.SearchWidth), which picks the
// configuration found among those that hold and the work a budget counts.
// Two queries with the same key have the same answer. A spec without a
// Key has no key.
func QueryKey(g *grammar.Grammar, spec Spec, width, searchWidth int) (string, bool) {
	if spec.Key == "" {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintf(h, "p4hls query v3\ngrammar %s %d\n", g.Name, len(g.Source))
	h.Write(g.Source)
	fmt.Fprintf(h, "\nsearch %d", narrowWidth(searchWidth, width))
	fmt.Fprintf(h, "\nwidth %d\nshape %d %d\ncare %v %v\nwidths %v %v\nfixed %v\nzero %v\nspec %d\n", width, spec.States, spec.Packets,
		spec.CareStates, spec.CareOutput, spec.StateWidths, spec.PacketWidths, spec.Fixed, spec.ZeroStates, len(spec.Key))
	io.WriteString(h, spec.Key)
	return hex.EncodeToString(h.Sum(nil)), true
}

// termsKey writes terms canonically, in time linear in their DAG: each
// node once, numbered in the order first reached, leaves by the names
// bound gives them.
func termsKey(roots []*Term, bound map[*Term]string) string {
	var b strings.Builder
	num := map[*Term]int{}
	var walk func(t *Term) string
	walk = func(t *Term) string {
		if name, ok := bound[t]; ok {
			return name
		}
		if n, ok := num[t]; ok {
			return "n" + strconv.Itoa(n)
		}
		args := make([]string, len(t.Args))
		for i, a := range t.Args {
			args[i] = walk(a)
		}
		n := len(num)
		num[t] = n
		fmt.Fprintf(&b, "n%d=%d/%d/%d/%d/%d/%s(%s)\n", n, t.Op, t.Width, t.Value, t.Hi, t.Lo, leafName(t), strings.Join(args, ","))
		return "n" + strconv.Itoa(n)
	}
	for _, r := range roots {
		if r == nil {
			b.WriteString("root -\n")
			continue
		}
		b.WriteString("root " + walk(r) + "\n")
	}
	return b.String()
}

// leafName names an unbound leaf (which a spec should not have).
func leafName(t *Term) string {
	if t.IsLeaf() {
		return t.Name
	}
	return ""
}

// MemoryCache is a Cache in memory, safe for concurrent use.
type MemoryCache struct {
	mu sync.Mutex
	m  map[string]cacheEntry
}

type cacheEntry struct {
	Found  bool           `json:"found"`
	Config grammar.Config `json:"config"`
}

func NewMemoryCache() *MemoryCache { return &MemoryCache{m: map[string]cacheEntry{}} }

func (c *MemoryCache) Get(key string) (grammar.Config, bool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	return e.Config, e.Found, ok
}

func (c *MemoryCache) Put(key string, cfg grammar.Config, found bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = cacheEntry{found, cfg}
}

// DiskCache is a Cache in a folder, one small JSON file per query, in
// front of a MemoryCache. Writes go to a temporary file first and are
// renamed, so concurrent compiles never read half a file.
type DiskCache struct {
	Dir string
	mem *MemoryCache
}

func NewDiskCache(dir string) (*DiskCache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("query cache: %w", err)
	}
	return &DiskCache{Dir: dir, mem: NewMemoryCache()}, nil
}

func (c *DiskCache) path(key string) string { return filepath.Join(c.Dir, key[:2], key+".json") }

func (c *DiskCache) Get(key string) (grammar.Config, bool, bool) {
	if cfg, found, ok := c.mem.Get(key); ok {
		return cfg, found, true
	}
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil {
		return nil, false, false // a damaged entry is a miss
	}
	c.mem.Put(key, e.Config, e.Found)
	return e.Config, e.Found, true
}

// Put stores an entry; a cache that cannot be written only costs time, so
// errors are dropped.
func (c *DiskCache) Put(key string, cfg grammar.Config, found bool) {
	c.mem.Put(key, cfg, found)
	data, err := json.Marshal(cacheEntry{found, cfg})
	if err != nil {
		return
	}
	p := c.path(key)
	if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), "tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}
