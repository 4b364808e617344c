package lower

import (
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/transform"
)

// Tables. Menshen matches every table in every packet (it has no
// gateways): a table guarded by conditions matches on them too. The CAM
// is exact under one mask per table (§A.7, §A.8), so ternary and LPM
// entries fit only when they share their mask, and a table's default
// action can only be a miss (nothing), except in a keyless table, whose
// one entry matches every frame of the tenant.

// constraint says a field's masked bits hold a value.
type constraint struct {
	p           *place
	value, mask *big.Int
}

// guard turns the conditions that lead to a node into constraints.
func (l *lowering) guard(n *transform.Node) ([]constraint, error) {
	var out []constraint
	for _, c := range l.in.Ingress.Path(n) {
		if c.Expr == nil {
			return nil, errorAt(n.Span, "%s runs on a case of a switch on a table's action; Menshen has no gateways to branch on it", nodeName(n))
		}
		if c.Changed {
			return nil, errorAt(c.Span, "%s would be matched at %s, after a table that may change what it reads; Menshen has no gateways to evaluate it earlier",
				ir.Format(c.Expr), nodeName(n))
		}
		cs, err := l.condition(c.Expr, c.Neg)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	// A header that is not valid has no fields to match or write: Menshen
	// would match and write the bytes where it would be.
	for _, h := range l.headersUsed(n) {
		for _, v := range h.valid {
			p, err := l.cs.place(l.lay.exprs[v.field])
			if err != nil {
				return nil, err
			}
			out = append(out, constraint{p: p, value: v.value, mask: ones(p.width)})
		}
	}
	return out, nil
}

// headersUsed lists the headers a node's keys read and its actions
// write, in layout order.
func (l *lowering) headersUsed(n *transform.Node) []*header {
	fields := map[string]bool{}
	var stmts func([]ir.Stmt)
	stmts = func(ss []ir.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ir.Assign:
				fields[ir.Format(s.LHS)] = true
			case *ir.If:
				stmts(s.Then)
				stmts(s.Else)
			case *ir.Block:
				stmts(s.Body)
			case *ir.CallAction:
				stmts(s.Call.Action.Body)
			}
		}
	}
	if n.Kind == transform.TableNode {
		for _, k := range n.Table.Keys {
			fields[ir.Format(k.Expr)] = true
		}
		for _, a := range n.Actions() {
			stmts(a.Body)
		}
	} else {
		stmts(n.Stmts)
	}
	var out []*header
	for _, name := range l.lay.order {
		h := l.lay.headers[name]
		for f := range fields {
			if strings.HasPrefix(f, name+".") {
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// condition turns one condition into constraints: isValid(), a field
// equal to a constant (or not unequal), and && of them.
func (l *lowering) condition(e ir.Expr, neg bool) ([]constraint, error) {
	unsupported := errorAt(e.Span(), "condition %s: Menshen has no gateways; a condition must be isValid(), field == constant, or && of them, to become part of a table's key", ir.Format(e))
	switch e := e.(type) {
	case *ir.IsValid:
		h, ok := l.lay.headers[ir.Format(e.X)]
		if neg || !ok {
			return nil, unsupported
		}
		var out []constraint
		for _, v := range h.valid {
			p, err := l.cs.place(fieldExpr(l.lay, v.field))
			if err != nil {
				return nil, err
			}
			out = append(out, constraint{p: p, value: v.value, mask: ones(p.width)})
		}
		return out, nil
	case *ir.Binary:
		switch {
		case e.Op == ir.LAnd && !neg:
			a, err := l.condition(e.X, false)
			if err != nil {
				return nil, err
			}
			b, err := l.condition(e.Y, false)
			return append(a, b...), err
		case e.Op == ir.Eq && !neg, e.Op == ir.Ne && neg:
			f, c := e.X, e.Y
			if _, ok := f.(*ir.Const); ok {
				f, c = c, f
			}
			k, ok := c.(*ir.Const)
			if !ok {
				return nil, unsupported
			}
			p, err := l.cs.place(f)
			if err != nil {
				return nil, err
			}
			return []constraint{{p: p, value: k.Value, mask: ones(p.width)}}, nil
		}
	case *ir.Unary:
		if e.Op == ir.LNot {
			return l.condition(e.X, !neg)
		}
	}
	return nil, unsupported
}

// fieldExpr finds the expression of a header field named in the layout
// (a select's field).
func fieldExpr(lay *layout, name string) ir.Expr { return lay.exprs[name] }

func ones(w int) *big.Int {
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
}

// entry is a table entry, const or installed.
type entry struct {
	keys     []interp.Match
	priority int
	order    int
	action   *ir.Action
	data     []*big.Int
	note     string // the entry in the program's terms, for the listing
}

// groupEntries collects each ingress table's entries, best first (as the
// interpreter looks them up).
func groupEntries(prog *ir.Program, c *ir.Control, installed []interp.TableEntry) (map[*ir.Table][]entry, error) {
	out := map[*ir.Table][]entry{}
	for _, t := range c.Tables {
		for i, e := range t.Entries {
			en := entry{priority: e.Priority, order: i, action: e.Action.Action}
			for _, ks := range e.Keys {
				m, err := keysetMatch(ks)
				if err != nil {
					return nil, errorAt(e.Span, "table %s: %v", t.Name, err)
				}
				en.keys = append(en.keys, m)
			}
			for _, a := range e.Action.Args {
				k, ok := a.(*ir.Const)
				if !ok {
					return nil, errorAt(e.Span, "table %s: an entry's action data must be constants", t.Name)
				}
				en.data = append(en.data, k.Value)
			}
			en.note = entryNote(t, fmt.Sprintf("const entry %d", i+1), en.keys, en.action, en.data)
			out[t] = append(out[t], en)
		}
	}
	added := map[*ir.Table]int{}
	for i, te := range installed {
		t := c.Table(tableName(c, te.Table))
		if t == nil {
			return nil, fmt.Errorf("entry for %s: the ingress control has no such table", te.Table)
		}
		var a *ir.Action
		for _, r := range t.Actions {
			if r.Action.Name == te.Entry.Action {
				a = r.Action
			}
		}
		if a == nil {
			return nil, fmt.Errorf("entry for %s: the table has no action %s", te.Table, te.Entry.Action)
		}
		added[t]++
		note := entryNote(t, fmt.Sprintf("added entry %d", added[t]), te.Entry.Keys, a, te.Entry.Data)
		out[t] = append(out[t], entry{keys: te.Entry.Keys, priority: te.Entry.Priority, order: len(t.Entries) + i, action: a, data: te.Entry.Data, note: note})
	}
	for t, es := range out {
		sortEntries(t, es)
	}
	return out, nil
}

// tableName strips the control's name from "Control.table".
func tableName(c *ir.Control, full string) string {
	if len(full) > len(c.Name)+1 && full[:len(c.Name)+1] == c.Name+"." {
		return full[len(c.Name)+1:]
	}
	return full
}

// sortEntries orders entries as lookups try them: a later exact entry
// replaces an earlier one with the same key; otherwise by priority, then
// longest prefix, then installation order.
func sortEntries(t *ir.Table, es []entry) {
	exact, lpm := len(t.Keys) > 0, -1
	for i, k := range t.Keys {
		exact = exact && k.Match == ir.MatchExact
		if k.Match == ir.MatchLPM {
			lpm = i
		}
	}
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		switch {
		case exact:
			return a.order > b.order
		case a.priority != b.priority:
			return a.priority > b.priority
		case lpm >= 0 && a.keys[lpm].PrefixLen != b.keys[lpm].PrefixLen:
			return a.keys[lpm].PrefixLen > b.keys[lpm].PrefixLen
		}
		return a.order < b.order
	})
}

func keysetMatch(ks *ir.Keyset) (interp.Match, error) {
	switch ks.Kind {
	case ir.KeysetExact:
		return interp.Match{Kind: interp.MatchExact, Value: ks.Value}, nil
	case ir.KeysetMask:
		return interp.Match{Kind: interp.MatchTernary, Value: ks.Value, Mask: ks.Mask}, nil
	case ir.KeysetRange:
		return interp.Match{Kind: interp.MatchRange, Value: ks.Value, Hi: ks.Hi}, nil
	case ir.KeysetDefault:
		return interp.Match{Kind: interp.MatchAny}, nil
	}
	return interp.Match{}, fmt.Errorf("a value set cannot be a CAM entry")
}

// valueMask is a match as the bits it tests: the value and the mask.
func valueMask(m interp.Match, w int) (v, mask *big.Int, err error) {
	all := ones(w)
	switch m.Kind {
	case interp.MatchExact:
		return new(big.Int).And(m.Value, all), all, nil
	case interp.MatchTernary:
		mask = new(big.Int).And(m.Mask, all)
		return new(big.Int).And(m.Value, mask), mask, nil
	case interp.MatchLPM:
		mask = new(big.Int).Lsh(ones(m.PrefixLen), uint(w-m.PrefixLen))
		return new(big.Int).And(m.Value, mask), mask, nil
	case interp.MatchAny:
		return new(big.Int), new(big.Int), nil
	case interp.MatchRange:
		// A range is a mask when it is an aligned block of 2^k values.
		size := new(big.Int).Sub(m.Hi, m.Value)
		size.Add(size, big.NewInt(1))
		k := size.BitLen() - 1
		if size.Sign() > 0 && size.Cmp(new(big.Int).Lsh(big.NewInt(1), uint(k))) == 0 && new(big.Int).Rsh(m.Value, uint(k)).Lsh(new(big.Int).Rsh(m.Value, uint(k)), uint(k)).Cmp(m.Value) == 0 {
			mask = new(big.Int).Lsh(ones(w-k), uint(k))
			return new(big.Int).And(m.Value, mask), mask, nil
		}
		return nil, nil, fmt.Errorf("range %s..%s is not an aligned block of 2^k values; the CAM matches under a mask", m.Value, m.Hi)
	}
	return nil, nil, fmt.Errorf("match kind %d", m.Kind)
}

// matcher is a table's key in the target's terms: the containers of its
// slots, the bits of each that take part, and the guard's values.
type matcher struct {
	containers []int
	ignore     []uint32
	slot       map[int]int
	guard      []uint32 // per slot: the guard's value
	guardCare  []uint32 // per slot: the bits the guard fixes
	never      bool     // the guard cannot hold
	keys       []*place
	keyMasks   []*big.Int
}

// matcher builds the key of a table: the guard's fields and the table's
// keys, with one mask the entries share.
func (l *lowering) matcher(n *transform.Node, keys []*ir.Key, guard []constraint, entries []entry) (*matcher, error) {
	m := &matcher{slot: map[int]int{}}
	care := map[int]uint32{}
	value := map[int]uint32{}
	use := func(p *place, v, mask *big.Int) error {
		vs, ms := p.chunkValues(v), p.chunkValues(mask)
		for i, c := range p.chunks {
			if _, ok := m.slot[c.container]; !ok {
				if len(m.containers) == 8 {
					return errorAt(n.Span, "table %s needs more than the 8 key containers a Menshen table matches", nodeName(n))
				}
				m.slot[c.container] = len(m.containers)
				m.containers = append(m.containers, c.container)
			}
			s := m.slot[c.container]
			if (value[s]^vs[i])&care[s]&ms[i] != 0 {
				m.never = true
			}
			care[s] |= ms[i]
			value[s] |= vs[i] & ms[i]
		}
		return nil
	}
	for _, g := range guard {
		if err := use(g.p, g.value, g.mask); err != nil {
			return nil, err
		}
	}
	guardValue, guardCare := map[int]uint32{}, map[int]uint32{}
	for s, v := range value {
		guardValue[s], guardCare[s] = v, care[s]
	}
	for i, k := range keys {
		if _, ok := k.Expr.(*ir.IsValid); ok {
			return nil, errorAt(k.Expr.Span(), "table %s, key %s: Menshen's tables match fields, not a header's validity (test it in an if around the table)", nodeName(n), k.Name)
		}
		p, err := l.cs.place(k.Expr)
		if err != nil {
			return nil, err
		}
		// The table's mask keeps every bit some entry tests; an entry
		// that ignores one of them is expanded over its values.
		mask := new(big.Int)
		for _, e := range entries {
			_, em, err := valueMask(e.keys[i], p.width)
			if err != nil {
				return nil, errorAt(n.Span, "table %s, key %s: %v", nodeName(n), k.Name, err)
			}
			mask.Or(mask, em)
		}
		m.keys, m.keyMasks = append(m.keys, p), append(m.keyMasks, mask)
		if err := use(p, new(big.Int), mask); err != nil {
			return nil, err
		}
	}
	for s := range m.containers {
		m.ignore = append(m.ignore, ^care[s])
		m.guard = append(m.guard, guardValue[s])
		m.guardCare = append(m.guardCare, guardCare[s])
	}
	return m, nil
}

// row is one CAM entry of a table: key values per slot and the action
// (an index into the node's actions) with its data.
type row struct {
	key    []uint32
	action int
	data   []*big.Int
	note   string // the entry it came from, for the listing
}

// rows turns a table's entries into CAM entries, best first; a keyless
// table (or a run of statements) gets one entry that every frame of the
// tenant hits when the guard holds.
func (l *lowering) rows(n *transform.Node, m *matcher, entries []entry, actions []*ir.Action) ([]row, error) {
	if m.never {
		return nil, nil
	}
	index := func(a *ir.Action) int {
		for i, b := range actions {
			if a == b {
				return i
			}
		}
		return -1
	}
	if n.Kind != transform.TableNode || len(n.Table.Keys) == 0 {
		r := row{key: append([]uint32(nil), m.guard...), note: "keyless: " + call(actions[0], nil)}
		if n.Kind == transform.TableNode {
			r.action = index(n.Table.Default.Action)
			for _, a := range n.Table.Default.Args {
				k, ok := a.(*ir.Const)
				if !ok {
					return nil, errorAt(n.Span, "table %s: its default action's data must be constants", nodeName(n))
				}
				r.data = append(r.data, k.Value)
			}
			r.note = "keyless: the default action " + call(n.Table.Default.Action, r.data)
		}
		return []row{r}, nil
	}
	// A miss runs nothing on Menshen: a default action that does
	// something becomes a last entry that ignores every key.
	if d := n.Table.Default; d != nil && len(d.Action.Body) > 0 {
		catchAll := entry{action: d.Action}
		for range n.Table.Keys {
			catchAll.keys = append(catchAll.keys, interp.Match{Kind: interp.MatchAny})
		}
		for _, a := range d.Args {
			k, ok := a.(*ir.Const)
			if !ok {
				return nil, errorAt(n.Span, "table %s: its default action's data must be constants", nodeName(n))
			}
			catchAll.data = append(catchAll.data, k.Value)
		}
		catchAll.note = "the default action " + call(d.Action, catchAll.data) + ", as an entry matching every key (a miss runs nothing)"
		entries = append(entries[:len(entries):len(entries)], catchAll)
	}
	var out []row
	seen := map[string]bool{}
	for _, e := range entries {
		rs, err := l.expand(n, m, e, index(e.action))
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			// A key already taken by a better entry would never hit
			// (and in another part would hit too).
			if k := fmt.Sprint(r.key); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// maxExpansion bounds the CAM entries one table entry may expand to.
const maxExpansion = 256

// expand turns one entry into CAM entries: one for each value of the
// bits the table's mask keeps and the entry ignores (none when the guard
// fixes a bit the entry needs otherwise).
func (l *lowering) expand(n *transform.Node, m *matcher, e entry, action int) ([]row, error) {
	type free struct{ slot, bit int }
	key := append([]uint32(nil), m.guard...)
	var frees []free
	for i, p := range m.keys {
		v, em, err := valueMask(e.keys[i], p.width)
		if err != nil {
			return nil, err
		}
		vs, ems, tms := p.chunkValues(v), p.chunkValues(em), p.chunkValues(m.keyMasks[i])
		for j, c := range p.chunks {
			s := m.slot[c.container]
			if (key[s]^vs[j])&ems[j]&m.guardCare[s] != 0 {
				return nil, nil // the guard and the entry disagree: it can never hit
			}
			key[s] |= vs[j] & ems[j]
			for b := 0; b < 32; b++ {
				if open := tms[j] &^ ems[j] &^ m.guardCare[s]; open>>b&1 == 1 && !slices.Contains(frees, free{s, b}) {
					frees = append(frees, free{s, b})
				}
			}
		}
	}
	if len(frees) > 8 || 1<<len(frees) > maxExpansion {
		if n.Kind == transform.TableNode && n.Table.Default != nil && e.action == n.Table.Default.Action && e.keys != nil && e.keys[0].Kind == interp.MatchAny {
			return nil, errorAt(n.Span, "table %s: a miss runs nothing on Menshen, so its default action %s becomes an entry matching every key: 2^%d CAM entries under the table's one mask (at most %d); make the default NoAction",
				nodeName(n), e.action.Name, len(frees), maxExpansion)
		}
		return nil, errorAt(n.Span, "table %s: an entry ignores %d bits the table's other entries match: 2^%d CAM entries under the table's one mask (at most %d)",
			nodeName(n), len(frees), len(frees), maxExpansion)
	}
	var out []row
	for v := 0; v < 1<<len(frees); v++ {
		k := append([]uint32(nil), key...)
		for i, f := range frees {
			k[f.slot] |= uint32(v>>i&1) << f.bit
		}
		note := e.note
		if len(frees) > 0 {
			note += fmt.Sprintf(" (CAM entry %d of the %d it expands to)", v+1, 1<<len(frees))
		}
		out = append(out, row{key: k, action: action, data: e.data, note: note})
	}
	return out, nil
}
