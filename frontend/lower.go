package frontend

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// Lower builds the IR of a checked program. Constructs the IR does not
// represent yet are reported as Unsupported diagnostics at their spans; the
// program is nil when there were any.
func Lower(c *Checked, d *diag.List) *ir.Program {
	l := &lowerer{
		c:        c,
		diags:    d,
		prog:     &ir.Program{Errors: c.Errors, MatchKinds: c.MatchKinds},
		types:    map[Type]ir.Type{},
		parsers:  map[*ParserDecl]*ir.Parser{},
		controls: map[*ControlDecl]*ir.Control{},
		funcs:    map[*FuncDecl]*ir.Function{},
		scope:    newLowerScope(nil, ""),
	}
	for _, decl := range c.File.Decls {
		l.topDecl(decl)
	}
	if c.Main != nil {
		l.pipeline(c.Main)
	}
	if d.HasErrors() {
		return nil
	}
	return l.prog
}

type lowerer struct {
	c        *Checked
	diags    *diag.List
	prog     *ir.Program
	types    map[Type]ir.Type
	parsers  map[*ParserDecl]*ir.Parser
	controls map[*ControlDecl]*ir.Control
	funcs    map[*FuncDecl]*ir.Function
	// scope holds the IR of the declarations of the block instance being
	// lowered: the program's, or an inlined sub-block's (lower_block.go).
	scope *lowerScope
	// temps counts the variables the lowering makes, which it numbers.
	temps int
}

func (l *lowerer) unsupported(n diag.Spanned, format string, args ...any) {
	l.diags.Errorf(n, diag.Unsupported, "p4hls does not support %s yet", fmt.Sprintf(format, args...))
}

// ------------------------------------------------------------------ types

// identifier is a type's name as a P4 (and C) identifier: a generic
// struct's specialization, S<bit<8>>, is S_bit_8 in the IR, whose
// programs the backends write out.
func identifier(name string) string {
	if !strings.ContainsAny(name, "<>, ") {
		return name
	}
	r := strings.NewReplacer("<", "_", ">", "", ",", "_", " ", "")
	return r.Replace(name)
}

func (l *lowerer) typ(t Type) ir.Type {
	if it, ok := l.types[t]; ok {
		return it
	}
	var out ir.Type
	switch t := t.(type) {
	case *BitsType:
		return &ir.Bits{Width: t.Width, Signed: t.Signed}
	case *VarbitType:
		return &ir.Varbit{Max: t.Max}
	case BoolType:
		return ir.Bool{}
	case IntType:
		return ir.Int{}
	case StringType:
		return ir.String{}
	case ErrorType:
		return ir.ErrorType{}
	case *NewType:
		return l.typ(t.Base)
	case *EnumType:
		e := &ir.Enum{Name: t.Name, Members: t.Members}
		if t.Underlying != nil {
			e.Underlying = &ir.Bits{Width: t.Underlying.Width, Signed: t.Underlying.Signed}
			for _, m := range t.Members {
				e.Values = append(e.Values, t.Values[m])
			}
		}
		out = e
		l.prog.Types = append(l.prog.Types, e)
	case *StructType:
		s := &ir.Struct{Kind: ir.StructKind(t.Kind), Name: identifier(t.Name)}
		l.types[t] = s // before the fields, for recursive references
		for _, f := range t.Fields {
			s.Fields = append(s.Fields, &ir.Field{Name: f.Name, Type: l.typ(f.Type), FieldLists: f.FieldLists})
		}
		l.prog.Types = append(l.prog.Types, s)
		return s
	case *StackType:
		return &ir.Stack{Elem: l.typ(t.Elem), Size: t.Size}
	case *TupleType:
		tu := &ir.Tuple{}
		for _, e := range t.Elems {
			tu.Elems = append(tu.Elems, l.typ(e))
		}
		return tu
	case *ObjectType:
		ext := &ir.Extern{Name: t.Name}
		for _, a := range t.Args {
			ext.Args = append(ext.Args, l.typ(a))
		}
		if n, ok := v1modelIndexed[t.Name]; ok && len(ext.Args) == n && l.c.Arch() == ir.V1Model {
			ext.Args = append(ext.Args, &ir.Bits{Width: 32})
		}
		return ext
	default:
		return ir.Int{} // type variables of unresolved generics; only reached after errors
	}
	l.types[t] = out
	return out
}

// v1modelIndexed lists v1model's indexed externs by their number of type
// arguments at V1MODEL_VERSION 20180101, which fixes their index type at
// bit<32>; from 20200408 the index type is their last type argument. The
// IR has it either way (register<T, I>, counter<I>, meter<I>), so later
// phases see one form.
var v1modelIndexed = map[string]int{"register": 1, "counter": 0, "meter": 0}

// ------------------------------------------------------------------ declarations

func (l *lowerer) topDecl(decl Decl) {
	switch d := decl.(type) {
	case *StructDecl, *EnumDecl:
		if sym := l.c.Globals.Lookup(d.DeclName().Name); sym != nil && sym.Decl == d {
			l.typ(sym.Type)
		}
	case *ActionDecl:
		l.prog.Actions = append(l.prog.Actions, l.action(d))
	case *Instance:
		t, ok := l.c.TypeOf[d.Type].(*ObjectType)
		if ok && (t.Kind == ObjParser || t.Kind == ObjControl) {
			// Inlined where it is applied, or passed to a package.
			l.scope.subs[d] = &subBlock{name: d.Name.Name, obj: t, args: d.Args}
			return
		}
		if d == l.c.Main || ok && t.Kind != ObjExtern {
			return // packages are the pipeline's shape (pipeline, below)
		}
		if inst := l.instance(d); inst != nil {
			l.prog.Instances = append(l.prog.Instances, inst)
		}
	// A block with constructor parameters is lowered where it is
	// instantiated, with its arguments (pipeline, lower_block.go).
	case *ParserDecl:
		if d.HasBody && len(d.CtorParams) == 0 {
			l.prog.Parsers = append(l.prog.Parsers, l.parser(d))
		}
	case *ControlDecl:
		if d.Apply != nil && len(d.CtorParams) == 0 {
			l.prog.Controls = append(l.prog.Controls, l.control(d))
		}
	case *FuncDecl:
		l.prog.Functions = append(l.prog.Functions, l.function(d))
	}
}

func (l *lowerer) param(p *Param) *ir.Var {
	v := &ir.Var{Name: p.Name.Name, Type: l.typ(l.c.TypeOf[p.Type]), Dir: ir.Direction(p.Dir), Span: p.Span()}
	l.scope.decls[p] = v
	return v
}

func (l *lowerer) params(ps []*Param) []*ir.Var {
	var out []*ir.Var
	for _, p := range ps {
		out = append(out, l.param(p))
	}
	return out
}

func (l *lowerer) instance(d *Instance) *ir.Instance {
	t, ok := l.c.TypeOf[d.Type].(*ObjectType)
	if !ok || t.Kind != ObjExtern {
		l.unsupported(d, "instantiating a %s inside another block (only extern objects)", l.c.TypeOf[d.Type])
		return nil
	}
	inst := &ir.Instance{Name: l.scope.prefix + d.Name.Name, Type: l.typ(t).(*ir.Extern), Span: d.Span()}
	for _, a := range d.Args {
		if a.Value != nil {
			inst.Args = append(inst.Args, l.expr(a.Value))
		}
	}
	for _, m := range d.Init {
		fd, ok := m.(*FuncDecl)
		if !ok {
			l.unsupported(d, "an instance declared inside an extern instance's initializer")
			continue
		}
		inst.Methods = append(inst.Methods, l.function(fd))
	}
	l.scope.decls[d] = inst
	return inst
}

func (l *lowerer) function(d *FuncDecl) *ir.Function {
	f := &ir.Function{Name: d.Proto.Name.Name, Params: l.params(d.Proto.Params), Span: d.Span()}
	if rt := l.c.TypeOf[d.Proto.Return]; rt != nil && rt != tVoid {
		f.Return = l.typ(rt)
	}
	l.funcs[d] = f
	f.Body = l.stmts(d.Body.Stmts)
	return f
}

// action returns the IR of an action, lowering it in the current scope
// the first time.
func (l *lowerer) action(d *ActionDecl) *ir.Action {
	if a, ok := l.scope.lookup(d).(*ir.Action); ok {
		return a
	}
	return l.newAction(d)
}

// newAction lowers an action declared in the current scope (an inlined
// block lowers its own copy of each of its actions).
func (l *lowerer) newAction(d *ActionDecl) *ir.Action {
	a := &ir.Action{Name: l.scope.prefix + d.Name.Name, Span: d.Span()}
	l.scope.decls[d] = a
	a.Params = l.params(d.Params)
	a.Body = l.stmts(d.Body.Stmts)
	return a
}

func (l *lowerer) parser(d *ParserDecl) *ir.Parser {
	p := &ir.Parser{Name: d.Name.Name, Params: l.params(d.Params), Span: d.Span()}
	l.parsers[d] = p
	l.scope.parser = p
	defer func() { l.scope.parser = nil }()
	l.parserLocals(d)
	inits := l.localInits(d.Locals)
	for _, s := range d.States {
		p.States = append(p.States, l.state(s)...)
	}
	// Locals are initialized each time the parser starts.
	if start := p.State("start"); start != nil {
		start.Body = append(inits, start.Body...)
	}
	return p
}

func (l *lowerer) selectExpr(s *SelectExpr) *ir.Select {
	out := &ir.Select{Span: s.Span()}
	for _, e := range s.Exprs {
		out.Exprs = append(out.Exprs, l.expr(e))
	}
	for _, sc := range s.Cases {
		out.Cases = append(out.Cases, &ir.SelectCase{Keys: l.keysets(sc.Keys, len(s.Exprs)), Next: l.scope.stateName(sc.State.Name), Span: sc.Span()})
	}
	return out
}

// keysets lowers the keysets of a select case or entry; a lone default or
// _ stands for every key.
func (l *lowerer) keysets(keys []Expr, n int) []*ir.Keyset {
	if len(keys) == 1 && n > 1 {
		switch keys[0].(type) {
		case *DefaultExpr, *DontCareExpr:
			out := make([]*ir.Keyset, n)
			for i := range out {
				out[i] = &ir.Keyset{Kind: ir.KeysetDefault}
			}
			return out
		}
	}
	var out []*ir.Keyset
	for _, k := range keys {
		out = append(out, l.keyset(k))
	}
	return out
}

func (l *lowerer) keyset(k Expr) *ir.Keyset {
	switch k := k.(type) {
	case *DefaultExpr, *DontCareExpr:
		return &ir.Keyset{Kind: ir.KeysetDefault}
	case *MaskExpr:
		return &ir.Keyset{Kind: ir.KeysetMask, Value: l.constInt(k.Value), Mask: l.constInt(k.Mask)}
	case *RangeExpr:
		return &ir.Keyset{Kind: ir.KeysetRange, Value: l.constInt(k.Lo), Hi: l.constInt(k.Hi)}
	case *NameExpr:
		if sym := l.c.Uses[k]; sym != nil && sym.Kind == SymValueSet {
			vs, _ := l.scope.lookup(sym.Decl).(*ir.ValueSet)
			return &ir.Keyset{Kind: ir.KeysetValueSet, ValueSet: vs}
		}
	}
	return &ir.Keyset{Kind: ir.KeysetExact, Value: l.constInt(k)}
}

// constInt returns the integer value of a constant keyset expression (enum
// and error members become their index or value).
func (l *lowerer) constInt(e Expr) *big.Int {
	switch v := l.c.Values[e].(type) {
	case *big.Int:
		return v
	case bool:
		if v {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	case enumMember:
		if val, ok := v.Enum.Values[v.Name]; ok {
			return val
		}
		for i, m := range v.Enum.Members {
			if m == v.Name {
				return big.NewInt(int64(i))
			}
		}
	case errorMember:
		for i, m := range l.c.Errors {
			if m == string(v) {
				return big.NewInt(int64(i))
			}
		}
	}
	return big.NewInt(0)
}

func (l *lowerer) control(d *ControlDecl) *ir.Control {
	c := &ir.Control{Name: d.Name.Name, Params: l.params(d.Params), Span: d.Span()}
	l.controls[d] = c
	l.scope.control = c
	defer func() { l.scope.control = nil }()
	l.controlLocals(d)
	inits := l.localInits(d.Locals)
	// Locals are initialized each time the control is applied.
	c.Body = append(inits, l.stmts(d.Apply.Stmts)...)
	hoistTableHits(c)
	c.ApplySpan = d.Apply.Span()
	return c
}

func (l *lowerer) table(d *TableDecl) *ir.Table {
	t := &ir.Table{Name: l.scope.prefix + d.Name.Name, Span: d.Span()}
	l.scope.decls[d] = t
	var entries *TableProp
	for _, p := range d.Props {
		switch p.Name.Name {
		case "key":
			for _, k := range p.Keys {
				key := &ir.Key{Expr: l.expr(k.Expr), Match: k.Match.Name, Name: exprText(k.Expr)}
				if a := k.Annos.Find("name"); a != nil && len(a.Exprs) == 1 {
					if s, ok := a.Exprs[0].(*StringLit); ok {
						key.Name = s.Value
					}
				}
				t.Keys = append(t.Keys, key)
			}
		case "actions":
			for _, ar := range p.Actions {
				if call := l.actionRef(ar, ar); call != nil {
					t.Actions = append(t.Actions, &ir.ActionRef{Action: call.Action, Args: call.Args})
				}
			}
		case "default_action":
			if ar := exprToActionRef(p.Value); ar != nil {
				t.Default = l.actionRef(p.Value, ar)
				t.DefaultConst = p.Const
			}
		case "size":
			if v, ok := l.c.Values[p.Value].(*big.Int); ok {
				t.Size = int(v.Int64())
			}
		case "counters", "meters":
			if inst := l.propertyInstance(t, p); inst != nil {
				if p.Name.Name == "counters" {
					t.Counters = inst
				} else {
					t.Meters = inst
				}
			} else if r, ok := l.expr(p.Value).(*ir.InstanceRef); ok && p.Name.Name == "counters" {
				t.Counters = r.Inst
			} else if ok {
				t.Meters = r.Inst
			}
		case "entries":
			entries = p
		}
	}
	if t.Default == nil {
		if sym := l.c.Globals.Lookup("NoAction"); sym != nil {
			if at, ok := sym.Type.(*ActionType); ok {
				t.Default = &ir.ActionCall{Action: l.action(at.Decl)}
			}
		}
	}
	if entries != nil {
		explicit := false
		for _, e := range entries.Entries {
			explicit = explicit || e.Priority != nil
		}
		annotated := annotatedPriorities(entries.Entries)
		prev := 0
		for i, e := range entries.Entries {
			entry := &ir.Entry{Keys: l.keysets(e.Keys, len(t.Keys)), Action: l.actionRef(e.Action, e.Action), Span: e.Span()}
			switch {
			case annotated != nil:
				entry.Priority = annotated[i]
			case !explicit && prefixMatched(t):
				entry.Priority = 0 // the longest prefix wins, as in any lpm table
			case !explicit:
				entry.Priority = len(entries.Entries) - i
			case e.Priority != nil:
				entry.Priority = int(l.constInt(e.Priority).Int64())
			default:
				entry.Priority = prev
			}
			prev = entry.Priority
			t.Entries = append(t.Entries, entry)
		}
	}
	return t
}

// annotatedPriorities ranks entries some of which carry @priority(N), a
// p4c annotation BMv2 follows (not the language's): the smallest N wins,
// and an entry without one has its place in the list, from 1. As the
// IR's priorities (the largest wins), that is the largest N plus 1, less
// the entry's. Nil when no entry has the annotation.
func annotatedPriorities(entries []*Entry) []int {
	bmv2 := make([]int64, len(entries))
	annotated, largest := false, int64(0)
	for i, e := range entries {
		bmv2[i] = int64(i + 1)
		if a := e.Annos.Find("priority"); a != nil && len(a.Exprs) == 1 {
			if lit, ok := a.Exprs[0].(*IntLit); ok && lit.Value.IsInt64() && lit.Value.Sign() >= 0 {
				bmv2[i], annotated = lit.Value.Int64(), true
			}
		}
		largest = max(largest, bmv2[i])
	}
	if !annotated || largest >= math.MaxInt32 {
		return nil
	}
	out := make([]int, len(entries))
	for i, p := range bmv2 {
		out[i] = int(largest + 1 - p)
	}
	return out
}

// prefixMatched says whether a table matches an lpm key and exact ones
// only: its entries rank by the lpm key's prefix length, not by the order
// they are written in (as BMv2 and p4c's tests take them).
func prefixMatched(t *ir.Table) bool {
	lpm := false
	for _, k := range t.Keys {
		switch k.Match {
		case ir.MatchLPM:
			lpm = true
		case ir.MatchExact:
		default:
			return false
		}
	}
	return lpm
}

// actionRef lowers an action reference with the arguments written there;
// key is what the checker recorded the resolution under.
func (l *lowerer) actionRef(key Node, ar *ActionRef) *ir.ActionCall {
	decl := l.c.ActionOf[key]
	if decl == nil {
		return nil
	}
	call := &ir.ActionCall{Action: l.action(decl)}
	for _, a := range ar.Args {
		if a.Value != nil {
			call.Args = append(call.Args, l.expr(a.Value))
		}
	}
	return call
}

// exprText prints a key expression the way the control plane names keys.
func exprText(e Expr) string {
	switch e := e.(type) {
	case *NameExpr:
		return e.Name
	case *MemberExpr:
		return exprText(e.X) + "." + e.Name.Name
	case *IndexExpr:
		return exprText(e.X) + "[" + exprText(e.Index) + "]"
	case *IntLit:
		return e.Text
	case *SliceExpr:
		return exprText(e.X) + "[" + exprText(e.Hi) + ":" + exprText(e.Lo) + "]"
	case *CallExpr:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			if a.Value != nil {
				args[i] = exprText(a.Value)
			}
		}
		return exprText(e.Fn) + "(" + strings.Join(args, ", ") + ")"
	}
	return "key"
}

// pipeline binds the main package's arguments to the lowered blocks.
func (l *lowerer) pipeline(main *Instance) {
	t, ok := l.c.TypeOf[main.Type].(*ObjectType)
	if !ok {
		return
	}
	l.prog.Arch = l.c.Arch()
	pkg, ok := t.Decl.(*PackageDecl)
	if !ok {
		return
	}
	for i, a := range main.Args {
		if a.Value == nil || i >= len(pkg.Params) {
			continue
		}
		// A package passed by name (TNA's Switch(pipe)) contributes its
		// own blocks; a parser or control passed by name is that block.
		obj, ok := l.c.Types[a.Value].(*ObjectType)
		if !ok {
			continue
		}
		if n, isName := a.Value.(*NameExpr); isName && obj.Kind == ObjPackage {
			if sym := l.c.Uses[n]; sym != nil {
				if inner, ok := sym.Decl.(*Instance); ok {
					l.pipeline(inner)
				}
			}
			continue
		}
		block := &ir.PipeBlock{Param: pkg.Params[i].Name.Name}
		switch d := obj.Decl.(type) {
		case *ParserDecl:
			block.Parser = l.parsers[d]
			if block.Parser == nil && len(d.CtorParams) > 0 {
				block.Parser = l.withCtorArgs(d.CtorParams, a.Value).parser(d)
				l.prog.Parsers = append(l.prog.Parsers, block.Parser)
			}
		case *ControlDecl:
			block.Control = l.controls[d]
			if block.Control == nil && len(d.CtorParams) > 0 {
				block.Control = l.withCtorArgs(d.CtorParams, a.Value).control(d)
				l.prog.Controls = append(l.prog.Controls, block.Control)
			}
		}
		l.prog.Pipeline = append(l.prog.Pipeline, block)
	}
}
