package interp

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"sort"

	"github.com/p4hls/p4hls/ir"
)

// compiledAction runs an action: it binds its parameters' slots from the
// arguments, then runs the body.
type compiledAction struct {
	action *ir.Action
	params []int // slots, in parameter order
	types  []ir.Type
	body   execFn
}

func (s *scope) action(a *ir.Action) *compiledAction {
	if ca, ok := s.actions[a]; ok {
		return ca
	}
	ca := &compiledAction{action: a}
	s.actions[a] = ca // before the body: the body may not call itself, but be safe
	for _, p := range a.Params {
		ca.params = append(ca.params, s.slot(p))
		ca.types = append(ca.types, p.Type)
	}
	if o := s.sw.opts.Override[a]; o != nil {
		ca.body = s.override(a, o)
		return ca
	}
	ca.body = s.block(a.Body)
	return ca
}

// override compiles a replacement body: read the fields, run, write back.
func (s *scope) override(a *ir.Action, o *Override) execFn {
	refs := make([]refFn, len(o.Fields))
	widths := make([]int, len(o.Fields))
	for i, f := range o.Fields {
		if w := ir.WidthBits(f.Type()); w == 0 || w > 64 {
			s.fail("action %s: the override's field %s is not 1 to 64 bits wide", a.Name, ir.Format(f))
		}
		refs[i] = s.ref(f)
		widths[i] = ir.WidthBits(f.Type())
	}
	regs := registers{s.sw}
	vals := make([]uint64, len(refs))
	return func(fr *frame) flow {
		for i, r := range refs {
			vals[i] = 0
			if p := r(fr); p != nil {
				vals[i] = p.U
			}
		}
		o.Run(vals, regs)
		for i, r := range refs {
			if p := r(fr); p != nil {
				p.U = vals[i] & mask(widths[i])
			}
		}
		return flowNext
	}
}

// run runs the action with argument values already bound. An exit inside
// it ends the enclosing control; a return only the action.
func (ca *compiledAction) run(fr *frame, args []Value) {
	for i, slot := range ca.params {
		if i < len(args) {
			fr.slots[slot] = copyValue(args[i])
		} else {
			fr.slots[slot] = zero(ca.types[i])
		}
	}
	if ca.body(fr) == flowExit {
		fr.exiting = true
	}
}

// callAction compiles a direct action call: in and inout arguments are
// copied in, out and inout ones copied back (P4-16 §6.8 copy-in/copy-out).
func (s *scope) callAction(call *ir.ActionCall) execFn {
	ca := s.action(call.Action)
	args := make([]evalFn, len(call.Args))
	var back []func(fr *frame)
	for i, a := range call.Args {
		args[i] = s.expr(a)
		p := call.Action.Params[i]
		if p.Dir == ir.DirOut || p.Dir == ir.DirInOut {
			dst, slot := s.store(a), ca.params[i]
			back = append(back, func(fr *frame) { dst(fr, fr.slots[slot]) })
		}
	}
	return func(fr *frame) flow {
		vals := make([]Value, len(args))
		for i, a := range args {
			vals[i] = a(fr)
		}
		ca.run(fr, vals)
		for _, b := range back {
			b(fr)
		}
		return fr.pending()
	}
}

// ------------------------------------------------------------------ tables

// compiledTable is a table's keys and actions, compiled in the scope of
// its control. Its entries live in the Switch (they change at run time).
type compiledTable struct {
	t       *ir.Table
	keys    []evalFn
	keyBuf  []Value // reused: a table is never applied while it is applied
	widths  []int
	actions map[*ir.Action]*compiledAction
	bound   map[*ir.Action][]evalFn // directional arguments bound in the actions list
	// back copies the out and inout ones back after the action ran.
	back  map[*ir.Action][]func(fr *frame)
	state *tableState
}

func (s *scope) table(t *ir.Table) *compiledTable {
	if ct, ok := s.sw.compiledTables[t]; ok && ct.keys != nil {
		return ct
	}
	ct := &compiledTable{t: t, actions: map[*ir.Action]*compiledAction{}, bound: map[*ir.Action][]evalFn{}, back: map[*ir.Action][]func(*frame){}}
	s.sw.compiledTables[t] = ct
	ct.state = s.sw.tableState(t)
	for _, k := range t.Keys {
		ct.keys = append(ct.keys, s.expr(k.Expr))
		ct.widths = append(ct.widths, keyWidth(k.Expr.Type()))
	}
	for _, ar := range t.Actions {
		ca := s.action(ar.Action)
		ct.actions[ar.Action] = ca
		for i, a := range ar.Args {
			ct.bound[ar.Action] = append(ct.bound[ar.Action], s.expr(a))
			if d := ar.Action.Params[i].Dir; d == ir.DirOut || d == ir.DirInOut {
				dst, slot := s.store(a), ca.params[i]
				ct.back[ar.Action] = append(ct.back[ar.Action], func(fr *frame) { dst(fr, fr.slots[slot]) })
			}
		}
	}
	if t.Default != nil {
		if _, ok := ct.actions[t.Default.Action]; !ok {
			ct.actions[t.Default.Action] = s.action(t.Default.Action)
		}
	}
	return ct
}

func keyWidth(t ir.Type) int {
	if w := ir.WidthBits(t); w > 0 {
		return w
	}
	return 32 // enums and errors match on their index
}

// apply looks the keys up and runs the chosen action. It returns whether
// an entry matched and which action ran.
func (ct *compiledTable) apply(fr *frame) (bool, *ir.Action) {
	if ct.keyBuf == nil {
		ct.keyBuf = make([]Value, len(ct.keys))
	}
	keys := ct.keyBuf
	for i, k := range ct.keys {
		keys[i] = k(fr)
	}
	call, hit := ct.state.lookup(keys)
	if call == nil {
		return false, nil
	}
	ca := ct.actions[call.action]
	if ca == nil {
		fr.sw.fault(fmt.Errorf("table %s: action %s is not one of its actions", ct.t.Name, call.action.Name))
		return hit, nil
	}
	args := make([]Value, 0, len(ca.params))
	for _, b := range ct.bound[call.action] {
		args = append(args, b(fr))
	}
	args = append(args, call.data...)
	ca.run(fr, args)
	for _, b := range ct.back[call.action] {
		b(fr)
	}
	return hit, call.action
}

// boundCall is an action with its action data, as an entry or default
// action holds it.
type boundCall struct {
	action *ir.Action
	data   []Value
}

// Entry is a table entry installed at run time (or a const entry).
type Entry struct {
	// Keys holds one match per table key.
	Keys []Match
	// Priority ranks entries that may both match (larger wins); entries of
	// tables with only exact and lpm keys need none.
	Priority int
	Action   string
	Data     []*big.Int // action data, in parameter order

	keyNames  []string // the STF reader's key names, before orderKeys
	dataNames []string // and the action's parameters', before orderData
}

// MatchKind says how a Match matches.
type MatchKind int

const (
	MatchExact   MatchKind = iota // Value
	MatchTernary                  // Value &&& Mask
	MatchLPM                      // Value / PrefixLen
	MatchRange                    // Value .. Hi
	MatchAny                      // a wildcard (optional or ternary don't-care)
)

// Match is one key's part of an entry.
type Match struct {
	Kind      MatchKind
	Value     *big.Int
	Mask      *big.Int
	Hi        *big.Int
	PrefixLen int
}

// entry is an installed entry, ready to match.
type entry struct {
	keys     []Match
	priority int
	order    int // installation order, for ties
	call     *boundCall
	// small holds each key's value, mask (or high bound) as uint64 when
	// every key is at most 64 bits wide: the common case, matched without
	// big.Int.
	small []smallMatch
}

type smallMatch struct {
	kind              MatchKind
	value, mask, high uint64
}

// tableState is a table's entries and default action.
type tableState struct {
	t       *ir.Table
	widths  []int
	small   bool   // every key is at most 64 bits wide
	keyBuf  []byte // reused to build exact-match index keys
	entries []*entry
	exact   map[string]*entry // when every key is exact: an index by key bytes
	dflt    *boundCall
	sorted  bool
	order   int
}

func newTableState(t *ir.Table) *tableState {
	ts := &tableState{t: t, small: true}
	for _, k := range t.Keys {
		w := keyWidth(k.Expr.Type())
		ts.widths = append(ts.widths, w)
		ts.small = ts.small && w <= 64
	}
	allExact := len(t.Keys) > 0
	for _, k := range t.Keys {
		allExact = allExact && k.Match == ir.MatchExact
	}
	if allExact {
		ts.exact = map[string]*entry{}
	}
	return ts
}

// add installs an entry. A second entry with the same keys replaces the
// first (as a control plane's modify would).
func (ts *tableState) add(e *entry) {
	e.order = ts.order
	ts.order++
	if ts.exact != nil {
		ts.exact[string(ts.matchKey(e.keys))] = e
		return
	}
	if ts.small {
		e.small = make([]smallMatch, len(e.keys))
		for i, m := range e.keys {
			sm := smallMatch{kind: m.Kind}
			switch m.Kind {
			case MatchExact:
				sm.value = m.Value.Uint64()
			case MatchTernary:
				sm.mask = m.Mask.Uint64()
				sm.value = m.Value.Uint64() & sm.mask
			case MatchLPM:
				sm.mask = prefixMask(m.PrefixLen, ts.widths[i]).Uint64()
				sm.value = m.Value.Uint64() & sm.mask
			case MatchRange:
				sm.value, sm.high = m.Value.Uint64(), m.Hi.Uint64()
			}
			e.small[i] = sm
		}
	}
	ts.entries = append(ts.entries, e)
	ts.sorted = false
}

// matchKey encodes exact match values as the index key: each value in as
// many bytes as its key is wide.
func (ts *tableState) matchKey(ms []Match) []byte {
	b := ts.keyBuf[:0]
	for i, m := range ms {
		b = appendKey(b, m.Value, ts.widths[i])
	}
	ts.keyBuf = b
	return b
}

func (ts *tableState) valueKey(vs []Value) []byte {
	b := ts.keyBuf[:0]
	for i, v := range vs {
		if v.Big == nil && ts.widths[i] <= 64 {
			b = binary.BigEndian.AppendUint64(b, v.U)
			continue
		}
		b = appendKey(b, bigOf(v), ts.widths[i])
	}
	ts.keyBuf = b
	return b
}

func appendKey(b []byte, v *big.Int, width int) []byte {
	if width <= 64 {
		return binary.BigEndian.AppendUint64(b, v.Uint64())
	}
	start := len(b)
	b = append(b, make([]byte, (width+7)/8)...)
	v.FillBytes(b[start:])
	return b
}

// lookup returns the action to run and whether an entry matched (false:
// the default action).
func (ts *tableState) lookup(keys []Value) (*boundCall, bool) {
	if ts.exact != nil {
		if e, ok := ts.exact[string(ts.valueKey(keys))]; ok {
			return e.call, true
		}
		return ts.dflt, false
	}
	if !ts.sorted {
		ts.sort()
	}
	for _, e := range ts.entries {
		if e.matches(keys, ts.widths) {
			return e.call, true
		}
	}
	return ts.dflt, false
}

// sort orders entries best first: by priority, then by the longest prefix
// of the lpm key (P4-16 §14.2.1.2), then by installation order.
func (ts *tableState) sort() {
	lpm := -1
	for i, k := range ts.t.Keys {
		if k.Match == ir.MatchLPM {
			lpm = i
		}
	}
	sort.SliceStable(ts.entries, func(i, j int) bool {
		a, b := ts.entries[i], ts.entries[j]
		if a.priority != b.priority {
			return a.priority > b.priority
		}
		if lpm >= 0 && a.keys[lpm].PrefixLen != b.keys[lpm].PrefixLen {
			return a.keys[lpm].PrefixLen > b.keys[lpm].PrefixLen
		}
		return a.order < b.order
	})
	ts.sorted = true
}

func (e *entry) matches(keys []Value, widths []int) bool {
	if e.small != nil {
		for i, m := range e.small {
			k := keys[i].U
			switch m.kind {
			case MatchExact:
				if k != m.value {
					return false
				}
			case MatchTernary, MatchLPM:
				if k&m.mask != m.value {
					return false
				}
			case MatchRange:
				if k < m.value || k > m.high {
					return false
				}
			}
		}
		return true
	}
	for i, m := range e.keys {
		k := keys[i]
		switch m.Kind {
		case MatchAny:
		case MatchExact:
			if !eqBig(k, m.Value) {
				return false
			}
		case MatchTernary:
			if !maskedEq(k, m.Value, m.Mask) {
				return false
			}
		case MatchLPM:
			if !maskedEq(k, m.Value, prefixMask(m.PrefixLen, widths[i])) {
				return false
			}
		case MatchRange:
			v := bigOf(k)
			if v.Cmp(m.Value) < 0 || v.Cmp(m.Hi) > 0 {
				return false
			}
		}
	}
	return true
}

func eqBig(k Value, v *big.Int) bool {
	if k.Big == nil && v.IsUint64() {
		return k.U == v.Uint64()
	}
	return bigOf(k).Cmp(v) == 0
}

func maskedEq(k Value, v, m *big.Int) bool {
	if k.Big == nil && v.IsUint64() && m.IsUint64() {
		return k.U&m.Uint64() == v.Uint64()&m.Uint64()
	}
	a := new(big.Int).And(bigOf(k), m)
	b := new(big.Int).And(v, m)
	return a.Cmp(b) == 0
}

func prefixMask(n, w int) *big.Int {
	all := new(big.Int).Sub(new(big.Int).Lsh(bigOne, uint(w)), bigOne)
	low := new(big.Int).Sub(new(big.Int).Lsh(bigOne, uint(w-n)), bigOne)
	return all.AndNot(all, low)
}
