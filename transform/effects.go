package transform

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// loc names a storage location: an access path from a variable
// ("hdr.ipv4.ttl", "meta.color", "hdr.stack[2]"), a header's validity bit
// ("hdr.app.$valid"), an extern instance's state ("@session_meter"), or a
// table's hit flag ("$hit.t"). A path stands for everything under it, so
// two locations overlap when one is a prefix of the other.
type loc string

// overlaps reports whether a and b may share storage.
func (a loc) overlaps(b loc) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if !strings.HasPrefix(string(b), string(a)) {
		return false
	}
	return len(a) == len(b) || b[len(a)] == '.' || b[len(a)] == '['
}

// effects is what a piece of code reads and writes.
type effects struct {
	reads, writes []loc
	// exits is set when the code may end the control (exit); returns when
	// it may return, which ends the control in its apply block and only
	// the action in an action.
	exits, returns bool
}

func (e *effects) add(o effects) {
	e.reads = append(e.reads, o.reads...)
	e.writes = append(e.writes, o.writes...)
	e.exits = e.exits || o.exits
	e.returns = e.returns || o.returns
}

// endsControl says whether code with these effects, in an apply block,
// may end the control.
func (e effects) endsControl() bool { return e.exits || e.returns }

// anyOverlap reports whether a location of a overlaps one of b.
func anyOverlap(a, b []loc) bool {
	for _, x := range a {
		for _, y := range b {
			if x.overlaps(y) {
				return true
			}
		}
	}
	return false
}

// namer gives every variable one name for locations: the first variable
// with a name keeps it, a later one that shadows it gets a suffix.
type namer struct {
	byVar  map[*ir.Var]string
	byName map[string]int
}

func newNamer() *namer { return &namer{byVar: map[*ir.Var]string{}, byName: map[string]int{}} }

func (n *namer) name(v *ir.Var) string {
	if s, ok := n.byVar[v]; ok {
		return s
	}
	s := v.Name
	if k := n.byName[v.Name]; k > 0 {
		s = fmt.Sprintf("%s#%d", v.Name, k+1)
	}
	n.byName[v.Name]++
	n.byVar[v] = s
	return s
}

// scope evaluates effects with the arguments of the actions being called
// bound to their parameters.
type scope struct {
	names *namer
	// args binds an action's parameters to the argument expressions of
	// the call being analyzed.
	args map[*ir.Var]ir.Expr
}

func (s scope) bind(params []*ir.Var, args []ir.Expr) scope {
	out := scope{names: s.names, args: map[*ir.Var]ir.Expr{}}
	for i, p := range params {
		if i < len(args) && args[i] != nil {
			out.args[p] = args[i]
		}
	}
	return out
}

// lvalue returns the location an expression names and the reads its
// indices need; ok is false when the expression is not a location.
func (s scope) lvalue(e ir.Expr) (l loc, idx effects, ok bool) {
	switch e := e.(type) {
	case *ir.VarRef:
		if a, bound := s.args[e.Var]; bound {
			return scope{names: s.names}.lvalue(a)
		}
		return loc(s.names.name(e.Var)), effects{}, true
	case *ir.Member:
		base, idx, ok := s.lvalue(e.X)
		return base + "." + loc(e.Name), idx, ok
	case *ir.StackElem:
		base, idx, ok := s.lvalue(e.X)
		if c, isConst := e.Index.(*ir.Const); isConst {
			return loc(fmt.Sprintf("%s[%s]", base, c.Value)), idx, ok
		}
		idx.add(s.expr(e.Index))
		return base, idx, ok
	case *ir.StackOp:
		base, idx, ok := s.lvalue(e.X)
		idx.reads = append(idx.reads, base) // next and last depend on nextIndex
		return base, idx, ok
	case *ir.Slice:
		return s.lvalue(e.X)
	}
	return "", effects{}, false
}

// expr returns what evaluating e reads (and writes, for calls).
func (s scope) expr(e ir.Expr) effects {
	var out effects
	switch e := e.(type) {
	case nil, *ir.Const, *ir.ErrorConst, *ir.EnumConst, *ir.StringConst, *ir.InstanceRef:
	case *ir.VarRef:
		if a, bound := s.args[e.Var]; bound {
			return scope{names: s.names}.expr(a)
		}
		out.reads = append(out.reads, loc(s.names.name(e.Var)))
	case *ir.Member, *ir.StackElem, *ir.StackOp, *ir.Slice:
		if l, idx, ok := s.lvalue(e); ok {
			out.add(idx)
			out.reads = append(out.reads, l)
		} else if m, isMember := e.(*ir.Member); isMember {
			out.add(s.expr(m.X)) // a field of a value that is not stored
		}
	case *ir.Unary:
		out.add(s.expr(e.X))
	case *ir.Binary:
		out.add(s.expr(e.X))
		out.add(s.expr(e.Y))
	case *ir.Cast:
		out.add(s.expr(e.X))
	case *ir.Cond:
		out.add(s.expr(e.C))
		out.add(s.expr(e.Then))
		out.add(s.expr(e.Else))
	case *ir.IsValid:
		if l, idx, ok := s.lvalue(e.X); ok {
			out.add(idx)
			out.reads = append(out.reads, l+".$valid")
		}
	case *ir.List:
		for _, x := range e.Elems {
			out.add(s.expr(x))
		}
	case *ir.TableHit:
		out.reads = append(out.reads, hitLoc(e.Table))
	case *ir.Call:
		out.add(s.call(e))
	}
	return out
}

func hitLoc(t *ir.Table) loc { return loc("$hit." + t.Name) }

// call returns the effects of a call: arguments are read or written by
// direction, and an extern instance's method reads and writes its state.
func (s scope) call(c *ir.Call) effects {
	var out effects
	if c.Callee.Recv != nil {
		if r, ok := c.Callee.Recv.(*ir.InstanceRef); ok {
			st := loc("@" + r.Inst.Name)
			out.reads = append(out.reads, st)
			out.writes = append(out.writes, st)
		} else {
			out.add(s.expr(c.Callee.Recv))
		}
	}
	for _, a := range c.Args {
		if a.Value == nil {
			continue
		}
		if a.Dir == ir.DirOut || a.Dir == ir.DirInOut {
			if l, idx, ok := s.lvalue(a.Value); ok {
				out.add(idx)
				out.writes = append(out.writes, l)
				if a.Dir == ir.DirInOut {
					out.reads = append(out.reads, l)
				}
				continue
			}
		}
		out.add(s.expr(a.Value))
	}
	return out
}

// stmts returns the effects of a statement list.
func (s scope) stmts(ss []ir.Stmt) effects {
	var out effects
	for _, st := range ss {
		out.add(s.stmt(st))
	}
	return out
}

func (s scope) stmt(st ir.Stmt) effects {
	var out effects
	switch st := st.(type) {
	case *ir.Assign:
		out.add(s.expr(st.RHS))
		out.add(s.write(st.LHS))
	case *ir.Declare:
		out.add(s.expr(st.Init))
		out.writes = append(out.writes, loc(s.names.name(st.Var)))
	case *ir.If:
		out.add(s.expr(st.Cond))
		out.add(s.stmts(st.Then))
		out.add(s.stmts(st.Else))
	case *ir.Block:
		out.add(s.stmts(st.Body))
	case *ir.CallAction:
		out.add(s.actionCall(st.Call.Action, st.Call.Args))
	case *ir.ApplyTable:
		out.add(s.table(st.Table))
	case *ir.SwitchAction:
		out.add(s.table(st.Table))
		for _, c := range st.Cases {
			out.add(s.stmts(c.Body))
		}
	case *ir.Switch:
		out.add(s.expr(st.X))
		for _, c := range st.Cases {
			out.add(s.stmts(c.Body))
		}
	case *ir.CallStmt:
		out.add(s.call(st.Call))
	case *ir.SetValid:
		out.add(s.write(st.X))
	case *ir.StackShift:
		out.add(s.write(st.X))
		out.add(s.expr(st.X))
	case *ir.ApplyBlock:
		for _, a := range st.Args {
			out.add(s.call(&ir.Call{Args: []*ir.Arg{a}}))
		}
		out.exits = true // a sub-control may exit the whole pipeline block
	case *ir.Exit:
		out.exits = true
	case *ir.Return:
		out.add(s.expr(st.Value))
		out.returns = true
	case *ir.For:
		out.add(s.stmts(st.Init))
		out.add(s.expr(st.Cond))
		out.add(s.stmts(st.Body))
		out.add(s.stmts(st.Update))
	}
	return out
}

// write is the effect of assigning to e: a write of its location, and a
// read of it too when only part of it is written (a slice keeps the other
// bits).
func (s scope) write(e ir.Expr) effects {
	l, idx, ok := s.lvalue(e)
	if !ok {
		return s.expr(e)
	}
	out := idx
	out.writes = append(out.writes, l)
	if _, partial := e.(*ir.Slice); partial {
		out.reads = append(out.reads, l)
	}
	return out
}

// actionCall is the effect of running action a with args.
func (s scope) actionCall(a *ir.Action, args []ir.Expr) effects {
	var out effects
	for _, arg := range args {
		out.add(s.expr(arg))
	}
	body := s.bind(a.Params, args).stmts(a.Body)
	body.returns = false // a return leaves the action only
	// The action's own locals live and die in it: no other node reads
	// them, and the apply block does not declare them.
	locals := map[string]bool{}
	declared(a.Body, func(v *ir.Var) { locals[s.names.name(v)] = true })
	body.reads, body.writes = withoutRoots(body.reads, locals), withoutRoots(body.writes, locals)
	out.add(body)
	return out
}

// declared calls fn on every variable ss declares, at any depth.
func declared(ss []ir.Stmt, fn func(*ir.Var)) {
	for _, st := range ss {
		switch st := st.(type) {
		case *ir.Declare:
			fn(st.Var)
		case *ir.If:
			declared(st.Then, fn)
			declared(st.Else, fn)
		case *ir.Block:
			declared(st.Body, fn)
		}
	}
}

// withoutRoots drops the locations rooted at the named variables.
func withoutRoots(ls []loc, roots map[string]bool) []loc {
	if len(roots) == 0 {
		return ls
	}
	var out []loc
	for _, l := range ls {
		root := string(l)
		if i := strings.IndexAny(root, ".["); i >= 0 {
			root = root[:i]
		}
		if !roots[root] {
			out = append(out, l)
		}
	}
	return out
}

// table is the effect of a table's actions: each may run. A table also
// sets its hit flag.
func (s scope) table(t *ir.Table) effects {
	var out effects
	for _, ar := range t.Actions {
		out.add(s.actionCall(ar.Action, ar.Args))
	}
	if t.Default != nil {
		out.add(s.actionCall(t.Default.Action, t.Default.Args))
	}
	out.writes = append(out.writes, hitLoc(t))
	return out
}

// keys is what matching a table reads.
func (s scope) keys(t *ir.Table) []loc {
	var out effects
	for _, k := range t.Keys {
		out.add(s.expr(k.Expr))
	}
	return out.reads
}
