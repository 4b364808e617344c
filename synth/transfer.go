package synth

import (
	"context"
	"slices"

	"github.com/p4hls/p4hls/synth/grammar"
)

// nearConstant are the values a configuration computes a constant c
// from most often: c, -c, and one either side of each (at the width the
// caller masks to). A constant hole's value is read as one of them when
// a configuration moves to other constants (transfer), and CEGIS's pool
// of likely constants holds them all (constantPool).
var nearConstant = []func(c uint64) uint64{
	func(c uint64) uint64 { return c },
	func(c uint64) uint64 { return -c },
	func(c uint64) uint64 { return c - 1 },
	func(c uint64) uint64 { return c + 1 },
	func(c uint64) uint64 { return -c - 1 },
	func(c uint64) uint64 { return -c + 1 },
}

// transfer reads cfg, found for a query whose constants were from, as
// configurations to try for a query of the same shape whose constants
// are to (an edited constant): each constant hole holding a value near a
// constant of from (nearConstant; the first that matches) takes the same
// value near the constant of to at that place, the other holes keep
// theirs. cfg itself comes second: a constant the configuration does not
// compute with may have changed. Each must still be proved for its query.
func transfer(holes []*grammar.Hole, cfg grammar.Config, from, to []uint64, width int) []grammar.Config {
	if len(from) != len(to) || len(cfg) != len(holes) {
		return nil
	}
	mask := uint64(1)<<uint(width) - 1
	moved := append(grammar.Config(nil), cfg...)
	for i, h := range holes {
		if h.Kind == grammar.HoleChoice {
			continue
		}
		if v, ok := movedConstant(h, cfg[i], from, to, width, mask); ok {
			moved[i] = v
		}
	}
	if slices.Equal(moved, cfg) {
		return []grammar.Config{cfg}
	}
	return []grammar.Config{moved, cfg}
}

// movedConstant is the value of hole h, which holds v near a constant of
// from, near the constant of to at the same place.
func movedConstant(h *grammar.Hole, v uint64, from, to []uint64, width int, mask uint64) (uint64, bool) {
	for j, c := range from {
		for _, near := range nearConstant {
			if old, ok := holeValue(h, near(c)&mask, width); !ok || old != v {
				continue
			}
			return holeValue(h, near(to[j])&mask, width)
		}
	}
	return 0, false
}

// transferred answers a query with a configuration kept under its shape,
// found for other constants (the cache's shapeKey entry), when one,
// moved to the query's constants, is proved to hold for it. An entry this
// run kept is not taken: its queries run in parallel, and which of two
// finished first must not decide an answer.
//
// A configuration that holds is taken even where the query's own search
// would have run out of its budget, so an edited program compiled with a
// cache may take fewer stages than compiled without one, never more.
func (s *synthesizer) transferred(ctx context.Context, sk sketch, spec Spec) (grammar.Config, bool) {
	key, ok := shapeKey(sk.grammar(), spec, s.width, s.searchWidth)
	if !ok {
		return nil, false
	}
	s.statsMu.Lock()
	own := s.keptShapes[key]
	s.statsMu.Unlock()
	if own {
		return nil, false
	}
	a, ok := s.cache.Get(key)
	if !ok || !a.Found {
		return nil, false
	}
	for _, cfg := range transfer(sk.holes(), a.Config, a.Constants, spec.shapeConstants, s.width) {
		if ok, err := verifySketch(ctx, sk, spec, cfg, s.width); err == nil && ok {
			return cfg, true
		}
	}
	// For its own constants, a configuration that does not hold is a
	// damaged or forged entry (see usable), which keepShape replaces.
	if a.Unchecked && slices.Equal(a.Constants, spec.shapeConstants) {
		s.count(func(st *Stats) {
			st.CacheRejected++
			s.badShapes = setKey(s.badShapes, key)
		})
	}
	return nil, false
}

func setKey(m map[string]bool, key string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[key] = true
	return m
}

// keepShape keeps a configuration found for spec under its shape, with
// the constants it was found for, for a query that differs in them. An
// entry already there stays, unless it was found damaged: the run's
// other queries may be reading it, and one replaced while they run would
// make their answers depend on which ran first.
func (s *synthesizer) keepShape(sk sketch, spec Spec, cfg grammar.Config) {
	key, ok := shapeKey(sk.grammar(), spec, s.width, s.searchWidth)
	if !ok {
		return
	}
	s.statsMu.Lock()
	bad := s.badShapes[key]
	s.statsMu.Unlock()
	if a, ok := s.cache.Get(key); ok && a.Found && !bad {
		return
	}
	s.count(func(*Stats) { s.keptShapes = setKey(s.keptShapes, key) })
	s.cache.Put(key, Answer{Config: cfg, Found: true, Constants: spec.shapeConstants})
}
