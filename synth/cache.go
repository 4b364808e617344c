package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/p4hls/p4hls/internal/fsread"
	"github.com/p4hls/p4hls/synth/grammar"
)

// Cache keeps query answers by QueryKey, so a second compile of the same
// program issues no solver query. Failed queries (no configuration) are
// kept too: they are the expensive ones.
type Cache interface {
	Get(key string) (a Answer, ok bool)
	Put(key string, a Answer)
}

// Answer is a query's answer as a cache keeps it.
type Answer struct {
	Config grammar.Config
	Found  bool
	// Unchecked is set on an answer read from outside this process (a
	// folder, a shared store), which anyone may have written: synthesis
	// proves a configuration against its query before it uses one
	// (DecodeAnswer has checked the entry's key and checksum).
	Unchecked bool
	// Constants, in an answer kept under a query's shape (see
	// Spec.shape), are the constants of the query the configuration was
	// found for.
	Constants []uint64
}

// maxAnswerBytes bounds a stored answer (a configuration is a few dozen
// small numbers); maxHoles the configuration's length.
const (
	maxAnswerBytes = 16 << 10
	maxHoles       = 256
)

// storedAnswer is an answer as a folder or a shared store keeps it: with
// its key, so an entry under another key's name is refused, and a
// checksum of the rest, so a damaged entry is.
type storedAnswer struct {
	Key       string         `json:"key"`
	Found     bool           `json:"found"`
	Config    grammar.Config `json:"config"`
	Constants []uint64       `json:"constants,omitempty"`
	Sum       string         `json:"sum"`
}

func answerSum(key string, found bool, cfg grammar.Config, constants []uint64) string {
	h := sha256.New()
	fmt.Fprintf(h, "p4hls answer v1\n%s\n%t\n%v\n", key, found, []uint64(cfg))
	if len(constants) > 0 { // so that the entries written before shapes still hold
		fmt.Fprintf(h, "%v\n", constants)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// EncodeAnswer is the stored form of key's answer.
func EncodeAnswer(key string, a Answer) []byte {
	data, _ := json.Marshal(storedAnswer{Key: key, Found: a.Found, Config: a.Config, Constants: a.Constants,
		Sum: answerSum(key, a.Found, a.Config, a.Constants)})
	return data
}

// ErrBadAnswer is a stored answer that is damaged, misplaced or not one.
var ErrBadAnswer = errors.New("a damaged query cache entry")

// DecodeAnswer reads key's stored answer, refusing one that is too large,
// not an answer, under another key, or whose checksum does not match. The
// answer is Unchecked.
func DecodeAnswer(key string, data []byte) (Answer, error) {
	var e storedAnswer
	switch {
	case len(data) > maxAnswerBytes:
		return Answer{}, fmt.Errorf("%w: %d bytes", ErrBadAnswer, len(data))
	case json.Unmarshal(data, &e) != nil:
		return Answer{}, fmt.Errorf("%w: not JSON of an answer", ErrBadAnswer)
	case e.Key != key:
		return Answer{}, fmt.Errorf("%w: it holds the answer of another query", ErrBadAnswer)
	case e.Sum != answerSum(key, e.Found, e.Config, e.Constants):
		return Answer{}, fmt.Errorf("%w: its checksum does not match", ErrBadAnswer)
	case len(e.Config) > maxHoles || !e.Found && len(e.Config) > 0 || len(e.Constants) > maxHoles:
		return Answer{}, fmt.Errorf("%w: not the shape of a configuration", ErrBadAnswer)
	}
	return Answer{Config: e.Config, Found: e.Found, Constants: e.Constants, Unchecked: true}, nil
}

// QueryKey names a query by what it means: the grammar's text, the
// spec's Key, the width and what the spec cares about; and by how it is
// searched (searchWidth, as in Options.SearchWidth), which picks the
// configuration found among those that hold and the work a budget counts.
// Two queries with the same key have the same answer. A spec without a
// Key has no key.
func QueryKey(g *grammar.Grammar, spec Spec, width, searchWidth int) (string, bool) {
	return queryKey("p4hls query v3", g, spec, width, searchWidth, spec.Key, fmt.Sprint(spec.Fixed))
}

// shapeKey names the queries that differ from spec's in their
// constants only (Spec.shape), the values of its fixed inputs included.
func shapeKey(g *grammar.Grammar, spec Spec, width, searchWidth int) (string, bool) {
	fixed := slices.Sorted(maps.Keys(spec.Fixed))
	return queryKey("p4hls query shape v1", g, spec, width, searchWidth, spec.shape, fmt.Sprint(fixed))
}

func queryKey(version string, g *grammar.Grammar, spec Spec, width, searchWidth int, terms, fixed string) (string, bool) {
	if terms == "" {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\ngrammar %s %d\n", version, g.Name, len(g.Source))
	h.Write(g.Source)
	fmt.Fprintf(h, "\nsearch %d", narrowWidth(searchWidth, width))
	fmt.Fprintf(h, "\nwidth %d\nshape %d %d\ncare %v %v\nwidths %v %v\nfixed %s\nzero %v\nspec %d\n", width, spec.States, spec.Packets,
		spec.CareStates, spec.CareOutput, spec.StateWidths, spec.PacketWidths, fixed, spec.ZeroStates, len(terms))
	io.WriteString(h, terms)
	return hex.EncodeToString(h.Sum(nil)), true
}

// addTerms appends roots, written canonically (termsKeys), to the spec's
// Key after prefix, and to its shape: the same text with each constant
// written "k", its value appended to shapeConstants instead.
func (spec *Spec) addTerms(prefix string, roots []*Term, bound map[*Term]string) {
	key, shape, constants := termsKeys(roots, bound)
	spec.Key += prefix + key
	spec.shape += prefix + shape
	spec.shapeConstants = append(spec.shapeConstants, constants...)
}

// termsKeys writes terms canonically, in time linear in their DAG: each
// node once, numbered in the order first reached, leaves by the names
// bound gives them. The key is the text; the shape is the same text with
// each constant's value written "k", and constants are the values, in the
// order the shape meets them.
func termsKeys(roots []*Term, bound map[*Term]string) (key, shape string, constants []uint64) {
	var b, sh strings.Builder
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
		rest := fmt.Sprintf("/%d/%d/%s(%s)\n", t.Hi, t.Lo, leafName(t), strings.Join(args, ","))
		fmt.Fprintf(&b, "n%d=%d/%d/%d%s", n, t.Op, t.Width, t.Value, rest)
		value := strconv.FormatUint(t.Value, 10)
		if t.IsConst() {
			value = "k"
			constants = append(constants, t.Value)
		}
		fmt.Fprintf(&sh, "n%d=%d/%d/%s%s", n, t.Op, t.Width, value, rest)
		return "n" + strconv.Itoa(n)
	}
	for _, r := range roots {
		line := "root -\n"
		if r != nil {
			line = "root " + walk(r) + "\n"
		}
		b.WriteString(line)
		sh.WriteString(line)
	}
	return b.String(), sh.String(), constants
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
	m  map[string]Answer
}

func NewMemoryCache() *MemoryCache { return &MemoryCache{m: map[string]Answer{}} }

func (c *MemoryCache) Get(key string) (Answer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.m[key]
	return a, ok
}

func (c *MemoryCache) Put(key string, a Answer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = a
}

// DiskCache is a Cache in a folder, one small JSON file per query
// (EncodeAnswer's form), in front of a MemoryCache. Writes go to a
// temporary file first and are renamed, so concurrent compiles never read
// half a file. The folder is untrusted: an entry is read only if it is a
// regular file (not a link) of a bounded size, its answers are Unchecked,
// and a damaged one is counted (Damaged) and, once the query runs again,
// rewritten. Files are readable by everyone, so a group can share the
// folder.
type DiskCache struct {
	Dir     string
	mem     *MemoryCache
	damaged atomic.Int64
}

func NewDiskCache(dir string) (*DiskCache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("query cache: %w", err)
	}
	return &DiskCache{Dir: dir, mem: NewMemoryCache()}, nil
}

func (c *DiskCache) path(key string) string { return filepath.Join(c.Dir, key[:2], key+".json") }

func (c *DiskCache) Get(key string) (Answer, bool) {
	if a, ok := c.mem.Get(key); ok {
		return a, true
	}
	data, err := fsread.ReadRegularNoFollow(c.path(key), maxAnswerBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Answer{}, false
	}
	var a Answer
	if err == nil {
		a, err = DecodeAnswer(key, data)
	}
	if err != nil {
		c.damaged.Add(1) // a miss: the query runs, and Put rewrites the entry
		return Answer{}, false
	}
	return a, true
}

// Damaged counts the entries Get refused.
func (c *DiskCache) Damaged() int { return int(c.damaged.Load()) }

// Put stores an answer; a cache that cannot be written only costs time,
// so errors are dropped. An answer put in is one this process has (it
// asked the solver, or checked what it read), so the memory copy holds it
// checked.
func (c *DiskCache) Put(key string, a Answer) {
	a.Unchecked = false
	c.mem.Put(key, a)
	p := c.path(key)
	if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), "tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(EncodeAnswer(key, a))
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Chmod(tmp.Name(), 0o644) != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}
