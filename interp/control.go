package interp

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// The control-plane API: what a test (or the STF runner) does to a Switch
// between packets.

// Table returns the table called name ("t" or "Control.t").
func (sw *Switch) Table(name string) (*ir.Table, error) {
	if t, ok := sw.tablesByName[name]; ok {
		return t, nil
	}
	names := make([]string, 0, len(sw.tablesByName))
	for n := range sw.tablesByName {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("no table %q (tables: %v)", name, names)
}

// AddEntry installs an entry in a table.
func (sw *Switch) AddEntry(table string, e Entry) error {
	t, err := sw.Table(table)
	if err != nil {
		return err
	}
	if len(e.Keys) != len(t.Keys) {
		return fmt.Errorf("table %s has %d keys, the entry gives %d", table, len(t.Keys), len(e.Keys))
	}
	call, err := sw.bind(t, e.Action, e.Data)
	if err != nil {
		return err
	}
	ts := sw.tableState(t)
	if ts.exact != nil {
		for i, m := range e.Keys {
			if m.Kind != MatchExact {
				return fmt.Errorf("table %s: key %s is exact; the entry gives another kind of match", table, t.Keys[i].Name)
			}
		}
	}
	ts.add(&entry{keys: e.Keys, priority: e.Priority, call: call})
	return nil
}

// SetDefault sets a table's default action.
func (sw *Switch) SetDefault(table, action string, data []*big.Int) error {
	t, err := sw.Table(table)
	if err != nil {
		return err
	}
	if t.DefaultConst {
		return fmt.Errorf("table %s: the default action is const", table)
	}
	call, err := sw.bind(t, action, data)
	if err != nil {
		return err
	}
	sw.tableState(t).dflt = call
	return nil
}

// bind finds one of the table's actions by name and converts its data.
func (sw *Switch) bind(t *ir.Table, action string, data []*big.Int) (*boundCall, error) {
	var a *ir.Action
	for _, ar := range t.Actions {
		if ar.Action.Name == action {
			a = ar.Action
		}
	}
	if a == nil {
		var names []string
		for _, ar := range t.Actions {
			names = append(names, ar.Action.Name)
		}
		return nil, fmt.Errorf("table %s has no action %q (actions: %v)", t.Name, action, names)
	}
	params := a.Data()
	if len(data) != len(params) {
		return nil, fmt.Errorf("action %s takes %d action data values, got %d", action, len(params), len(data))
	}
	call := &boundCall{action: a}
	for i, p := range params {
		b, ok := p.Type.(*ir.Bits)
		if !ok {
			b = bitsOf(p.Type)
		}
		call.data = append(call.data, fromBig(data[i], b))
	}
	return call, nil
}

// installDefaults sets every table's const entries and declared default.
func (sw *Switch) installDefaults() {
	for t, ts := range sw.tables {
		if t.Default != nil {
			ts.dflt = constCall(t.Default)
		}
		for _, e := range t.Entries {
			ent := &entry{priority: e.Priority, call: constCall(e.Action)}
			for i, k := range e.Keys {
				ent.keys = append(ent.keys, keysetMatch(k, t.Keys[i]))
			}
			ts.add(ent)
		}
	}
}

// constCall converts an action call written in the program (a default
// action or a const entry's) to a bound call: its directionless
// arguments, compile-time constants, are the action data.
func constCall(ac *ir.ActionCall) *boundCall {
	call := &boundCall{action: ac.Action}
	for i, p := range ac.Action.Params {
		if p.Dir != ir.DirNone || i >= len(ac.Args) {
			continue
		}
		v := zero(p.Type)
		switch a := ac.Args[i].(type) {
		case *ir.Const:
			v = constValue(a)
		case *ir.EnumConst:
			v = Value{U: enumValue(a.Enum, a.Member)}
		case *ir.ErrorConst:
			v = Value{} // error data is rare; index 0 (NoError) stands in
		}
		call.data = append(call.data, v)
	}
	return call
}

// keysetMatch converts a const entry's keyset to a match.
func keysetMatch(k *ir.Keyset, key *ir.Key) Match {
	switch k.Kind {
	case ir.KeysetDefault:
		return Match{Kind: MatchAny}
	case ir.KeysetMask:
		if key.Match == ir.MatchLPM {
			return Match{Kind: MatchLPM, Value: k.Value, PrefixLen: onesCount(k.Mask)}
		}
		return Match{Kind: MatchTernary, Value: k.Value, Mask: k.Mask}
	case ir.KeysetRange:
		return Match{Kind: MatchRange, Value: k.Value, Hi: k.Hi}
	}
	if key.Match == ir.MatchLPM {
		return Match{Kind: MatchLPM, Value: k.Value, PrefixLen: keyWidth(key.Expr.Type())}
	}
	return Match{Kind: MatchExact, Value: k.Value}
}

func onesCount(m *big.Int) int {
	n := 0
	for _, w := range m.Bits() {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// instance finds an extern instance by name.
func (sw *Switch) instanceNamed(name, kind string) (*ir.Instance, error) {
	inst, ok := sw.instances[name]
	if !ok || !strings.EqualFold(inst.Type.Name, kind) { // v1model's register, TNA's Register
		return nil, fmt.Errorf("no %s called %q", kind, name)
	}
	return inst, nil
}

// RegisterRead returns cell index of a register.
func (sw *Switch) RegisterRead(name string, index uint64) (*big.Int, error) {
	inst, half, err := sw.registerNamed(name)
	if err != nil {
		return nil, err
	}
	if index >= uint64(len(sw.registers[inst])) {
		return nil, fmt.Errorf("register %s has %d cells; index %d is out of range", name, len(sw.registers[inst]), index)
	}
	v := sw.registers[inst][index]
	if half >= 0 {
		v = v.Agg.Fields[half]
	}
	return bigOf(v), nil
}

// RegisterWrite sets cell index of a register.
func (sw *Switch) RegisterWrite(name string, index uint64, v *big.Int) error {
	inst, half, err := sw.registerNamed(name)
	if err != nil {
		return err
	}
	if index >= uint64(len(sw.registers[inst])) {
		return fmt.Errorf("register %s has %d cells; index %d is out of range", name, len(sw.registers[inst]), index)
	}
	cell := &sw.registers[inst][index]
	t := inst.Type.Args[0]
	if half >= 0 {
		cell = &cell.Agg.Fields[half]
		t = t.(*ir.Struct).Fields[half].Type
	}
	if err := fitsBits(v, bitsOf(t).Width); err != nil {
		return fmt.Errorf("register %s: %w", name, err)
	}
	*cell = fromBig(v, bitsOf(t))
	return nil
}

// pairPrefix names a TNA Register that holds two of a v1model program's
// registers as the halves of a pair (lo, hi), as p4hls's Tofino backend
// writes them: p4hls_pair__LO__HI. The control-plane API reads and writes
// LO and HI by their own names.
const pairPrefix = "p4hls_pair__"

// registerNamed finds a register, or the pair register holding it and
// which half (-1: the register itself).
func (sw *Switch) registerNamed(name string) (*ir.Instance, int, error) {
	if inst, err := sw.instanceNamed(name, "register"); err == nil {
		return inst, -1, nil
	}
	for n, inst := range sw.instances {
		halves := strings.Split(strings.TrimPrefix(n, pairPrefix), "__")
		if !strings.HasPrefix(n, pairPrefix) || len(halves) != 2 || !strings.EqualFold(inst.Type.Name, "register") {
			continue
		}
		for h, x := range halves {
			if x == name {
				return inst, h, nil
			}
		}
	}
	return nil, 0, fmt.Errorf("no register called %q", name)
}

// SetMeterColor makes a meter (or direct meter, index 0) report a colour:
// 0 green, 1 yellow, 2 red (a TNA meter returns its own encoding of it).
// Meters are deterministic in the interpreter.
func (sw *Switch) SetMeterColor(name string, index, color uint64) error {
	inst, ok := sw.instances[name]
	if !ok || sw.meterColors[inst] == nil {
		return fmt.Errorf("no meter called %q", name)
	}
	sw.meterColors[inst][index] = color
	return nil
}

// Counter returns cell index of a counter.
func (sw *Switch) Counter(name string, index uint64) (Counter, error) {
	inst, ok := sw.instances[name]
	if !ok || sw.counters[inst] == nil {
		return Counter{}, fmt.Errorf("no counter called %q", name)
	}
	if index >= uint64(len(sw.counters[inst])) {
		return Counter{}, fmt.Errorf("counter %s has %d cells; index %d is out of range", name, len(sw.counters[inst]), index)
	}
	return sw.counters[inst][index], nil
}

// AddToValueSet adds a value to a parser value_set.
func (sw *Switch) AddToValueSet(name string, v *big.Int) error {
	for _, p := range sw.prog.Parsers {
		for _, vs := range p.ValueSets {
			if vs.Name == name {
				if len(sw.valueSets[vs]) >= vs.Size {
					return fmt.Errorf("value_set %s holds at most %d values", name, vs.Size)
				}
				sw.valueSets[vs] = append(sw.valueSets[vs], v)
				return nil
			}
		}
	}
	return fmt.Errorf("no value_set called %q", name)
}
