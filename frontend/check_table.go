package frontend

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// tableRules applies the rules on a table's properties beyond their types
// (P4-16 §14.2): entries follow a non-empty key; an entry's keysets fit
// their match kinds, and no two entries have the same ones; priorities are
// given for all entries or none, and only where keys may overlap; the
// arguments bound in the actions list are the ones the default action and
// the entries bind; a default action's data are constants; an action
// listed @defaultonly is in no entry; a key that is not a field names
// itself; and with no default action, NoAction is the default, so it must
// be core.p4's.
func (c *checker) tableRules(d *TableDecl, props map[string]*TableProp) {
	key, acts, entries := props["key"], props["actions"], props["entries"]
	if entries != nil && len(entries.Entries) > 0 {
		switch {
		case key != nil && len(key.Keys) == 0:
			c.errorf(entries.Name, diag.BadTable, "entries cannot be given for table %s, whose key is empty", d.Name.Name)
		case key != nil && propIndex(d, entries) < propIndex(d, key):
			c.errorf(entries.Name, diag.BadTable, "the entries of table %s must come after its key", d.Name.Name)
		case key != nil:
			c.entryRules(d, key, entries, acts)
		}
	}
	if key != nil {
		for _, k := range key.Keys {
			if !isKeyPath(k.Expr) && k.Annos.Find("name") == nil {
				c.errorf(k.Expr, diag.BadTable, "%s: a key that is not a field or slice of one needs a @name annotation", describe(k.Expr))
			}
		}
	}
	if def := props["default_action"]; def != nil && acts != nil {
		if ar := exprToActionRef(def.Value); ar != nil {
			c.boundArgsMatch(c.out.ActionOf[def.Value], ar.Args, acts)
			c.constantActionData(def.Value, ar)
		}
	} else if def == nil && acts != nil {
		c.needNoAction(d)
	}
}

func propIndex(d *TableDecl, p *TableProp) int {
	for i, q := range d.Props {
		if q == p {
			return i
		}
	}
	return -1
}

// isKeyPath reports whether a key expression names its own control-plane
// key: a name, a field, an element, a slice or isValid() of those, one of
// those masked by a constant, or a constant.
func isKeyPath(e Expr) bool {
	switch x := e.(type) {
	case *NameExpr, *IntLit, *BoolLit:
		return true
	case *BinaryExpr:
		_, constX := x.X.(*IntLit)
		_, constY := x.Y.(*IntLit)
		return x.Op == ir.BitAnd && (constY && isKeyPath(x.X) || constX && isKeyPath(x.Y))
	case *MemberExpr:
		return isKeyPath(x.X)
	case *IndexExpr:
		return isKeyPath(x.X)
	case *SliceExpr:
		return isKeyPath(x.X)
	case *CallExpr:
		m, ok := x.Fn.(*MemberExpr)
		return ok && m.Name.Name == "isValid" && isKeyPath(m.X)
	}
	return false
}

// entryRules checks a table's entries against its key. Priorities follow
// p4c's reading of P4-16 §14.2.1.4: const entries have none (their order
// ranks them); other entries have them only when a key is not exact or
// lpm (entries may then overlap), and then the first has one.
func (c *checker) entryRules(d *TableDecl, key, entries, acts *TableProp) {
	overlapping := false
	for _, k := range key.Keys {
		overlapping = overlapping || k.Match.Name != "exact" && k.Match.Name != "lpm"
	}
	explicit := false
	for _, e := range entries.Entries {
		explicit = explicit || e.Priority != nil
	}
	seen := map[string]bool{}
	for i, e := range entries.Entries {
		switch {
		case e.Priority != nil && entries.Const:
			c.errorf(e.Priority, diag.BadTable, "the const entries of table %s cannot have priorities: their order ranks them", d.Name.Name)
		case e.Priority != nil && !overlapping:
			c.errorf(e.Priority, diag.BadTable, "the keys of table %s do not need priorities (all are exact or lpm), but this entry has one", d.Name.Name)
		case explicit && !entries.Const && i == 0 && e.Priority == nil:
			c.errorf(e, diag.BadTable, "this entry must have a priority: a later entry of table %s has one", d.Name.Name)
		}
		if len(e.Keys) == len(key.Keys) {
			for j, k := range e.Keys {
				c.keysetFits(k, key.Keys[j])
			}
		}
		if id, ok := c.entryKey(e); ok {
			if seen[id] {
				c.errorf(e, diag.BadTable, "table %s has two entries with the same keys", d.Name.Name)
			}
			seen[id] = true
		}
		c.boundArgsMatch(c.out.ActionOf[e.Action], e.Action.Args, acts)
		if a := c.out.ActionOf[e.Action]; a != nil {
			for _, ar := range acts.Actions {
				if c.out.ActionOf[ar] == a && ar.Annos.Find("defaultonly") != nil {
					c.errorf(e.Action.Name, diag.BadTable, "action %s is @defaultonly in table %s; an entry cannot use it", a.Name.Name, d.Name.Name)
				}
			}
		}
	}
}

// keysetFits checks a keyset against its key's match kind: an lpm mask is
// a prefix, an optional key takes a value or _ only.
func (c *checker) keysetFits(k Expr, key *KeyElem) {
	m, isMask := k.(*MaskExpr)
	switch key.Match.Name {
	case "optional":
		if _, isRange := k.(*RangeExpr); isMask || isRange {
			c.errorf(k, diag.BadTable, "an optional key matches a value or _, not %s", describe(k))
		}
	case "lpm":
		if !isMask {
			return
		}
		mask, ok := c.out.Values[m.Mask].(*big.Int)
		w := widthOf(c.out.Types[key.Expr])
		if ok && w > 0 && !isPrefixMask(mask, w) {
			c.errorf(k, diag.BadTable, "%s is not a prefix mask for an lpm key", describe(m.Mask))
		}
	}
}

// isPrefixMask reports whether mask is ones then zeros in w bits.
func isPrefixMask(mask *big.Int, w int) bool {
	inv := new(big.Int).Sub(new(big.Int).Lsh(bigOne, uint(w)), bigOne)
	inv.Xor(inv, mask) // the zeros of the mask, as ones at the bottom
	return new(big.Int).And(inv, new(big.Int).Add(inv, bigOne)).Sign() == 0
}

// entryKey is a string naming an entry's keysets when they are all
// constant, to find duplicates.
func (c *checker) entryKey(e *Entry) (string, bool) {
	var parts []string
	for _, k := range e.Keys {
		switch x := k.(type) {
		case *DefaultExpr, *DontCareExpr:
			parts = append(parts, "_")
		case *MaskExpr:
			parts = append(parts, fmt.Sprint(c.out.Values[x.Value], "&&&", c.out.Values[x.Mask]))
		case *RangeExpr:
			parts = append(parts, fmt.Sprint(c.out.Values[x.Lo], "..", c.out.Values[x.Hi]))
		default:
			v, ok := c.out.Values[k]
			if !ok {
				return "", false
			}
			parts = append(parts, fmt.Sprint(v))
		}
	}
	return strings.Join(parts, ","), true
}

// boundArgsMatch checks that an action reference of the default action or
// an entry binds what the actions list binds (the parameters with
// directions) to the same arguments.
func (c *checker) boundArgsMatch(a *ActionDecl, args []*Arg, acts *TableProp) {
	if a == nil {
		return
	}
	for _, listed := range acts.Actions {
		if c.out.ActionOf[listed] != a {
			continue
		}
		for i, want := range listed.Args {
			if i >= len(args) || want.Value == nil || args[i].Value == nil {
				continue
			}
			if got := args[i].Value; !c.sameArg(got, want.Value) {
				c.errorf(got, diag.BadTable, "%s: the argument does not match the one in the actions list, %s", describe(got), describe(want.Value))
			}
		}
	}
}

// sameArg reports whether two arguments are the same: equal constants,
// structures with the same fields, lists of the same elements, or the same
// text.
func (c *checker) sameArg(x, y Expr) bool {
	vx, okx := c.out.Values[x]
	vy, oky := c.out.Values[y]
	if okx && oky {
		return sameValue(vx, vy)
	}
	switch a := x.(type) {
	case *StructExpr:
		b, ok := y.(*StructExpr)
		if !ok || len(a.Fields) != len(b.Fields) {
			return false
		}
		for _, fa := range a.Fields {
			found := false
			for _, fb := range b.Fields {
				found = found || fa.Key.Name == fb.Key.Name && c.sameArg(fa.Value, fb.Value)
			}
			if !found {
				return false
			}
		}
		return true
	case *ListExpr:
		b, ok := y.(*ListExpr)
		if !ok || len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !c.sameArg(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	case *CastExpr:
		b, ok := y.(*CastExpr)
		return ok && sameType(c.out.TypeOf[a.Type], c.out.TypeOf[b.Type]) && c.sameArg(a.X, b.X)
	}
	return exprText(x) == exprText(y) && exprText(x) != "key"
}

// constantActionData reports a default action's argument for a
// directionless parameter (action data) that is not a compile-time
// constant.
func (c *checker) constantActionData(def Expr, ar *ActionRef) {
	a := c.out.ActionOf[def]
	if a == nil {
		return
	}
	for i, p := range a.Params {
		if i >= len(ar.Args) || p.Dir != DirNone || ar.Args[i].Value == nil {
			continue
		}
		if v := ar.Args[i].Value; !c.knownAtCompileTime(v) {
			c.errorf(v, diag.NotConstant, "%s: action data of a default action must be a compile-time constant", describe(v))
		}
	}
}

// needNoAction reports a table whose default action is core.p4's NoAction
// (none is given) in a program where NoAction is not that action.
func (c *checker) needNoAction(d *TableDecl) {
	sym := c.scope.root().Lookup("NoAction")
	if sym == nil {
		c.errorf(d.Name, diag.BadTable, "table %s has no default action, so it is NoAction, which is not declared; did you include core.p4?", d.Name.Name)
	}
}

// checkNoAction reports a top-level NoAction that is not an action without
// parameters: tables take it as their default.
func (c *checker) checkNoAction(d Decl) {
	if id := d.DeclName(); id == nil || id.Name != "NoAction" {
		return
	}
	if a, ok := d.(*ActionDecl); !ok || len(a.Params) > 0 {
		c.errorf(d.DeclName(), diag.BadTable, "NoAction must be an action without parameters (core.p4's); did you include core.p4?")
	}
}
