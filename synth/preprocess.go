package synth

import (
	"fmt"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// Cell is a register cell a transaction uses: a state variable (CaT's
// pre-state and post-state fields are Pre and Post).
type Cell struct {
	Name     string
	Register *ir.Instance
	// Index is the cell's index; IndexBits, when not 0, says the register
	// is addressed with the low IndexBits bits of Index (the address unit
	// masks it, as index & (size - 1) asks).
	Index     *Term
	IndexBits int
	Width     int
	Pre       *Term
	Post      *Term
}

// Output is a field the transaction writes, with its final value.
type Output struct {
	Name  string
	Field ir.Expr
	Value *Term
}

// Transaction is an action after preprocessing (CaT §3.2.1): branches
// removed (values are ?: terms), one pre-state and post-state per state
// variable, SSA by construction (each value is a term), constants folded,
// expressions simplified as terms are built, dead code gone (only what
// reaches an output or a cell remains).
type Transaction struct {
	Action  *ir.Action
	B       *Builder
	Cells   []*Cell
	Outputs []*Output
	// Assume is what the action's preconditions (v1model's assume and
	// assert) say of its inputs and pre-states, as a 1-bit term: each
	// condition holds where its statement is reached. Synthesis need be
	// right only where Assume holds. nil when the action states none.
	Assume *Term
	// Preconditions are the statements Assume comes from, in order.
	Preconditions []Precondition
	// Written maps each sum and difference to the P4 expression it was
	// first made from, for messages about it.
	Written map[*Term]*ir.Binary
}

// Precondition is one assume(C) or assert(C) of an action: a condition
// the programmer says holds whenever the statement is reached.
type Precondition struct {
	Kind string // "assume" or "assert"
	Cond ir.Expr
	Span diag.Span
}

// UnsupportedError says why an action cannot be synthesized, at the
// construct's place.
type UnsupportedError struct {
	Span diag.Span
	Msg  string
}

func (e *UnsupportedError) Error() string { return fmt.Sprintf("%s: %s", e.Span, e.Msg) }

// symState is the symbolic state at one point of an action: the current
// value of each path (fields, locals, cells) and whether the action still
// runs (false after a return).
type symState struct {
	vals map[string]*Term
	live *Term
	// path is the conjunction of the branch conditions that lead here.
	path *Term
}

func (s *symState) clone() *symState {
	c := &symState{vals: make(map[string]*Term, len(s.vals)), live: s.live, path: s.path}
	for k, v := range s.vals {
		c.vals[k] = v
	}
	return c
}

type preprocessor struct {
	b      *Builder
	tx     *Transaction
	paths  map[string]ir.Expr // field paths read or written, by key
	inputs map[string]*Term   // the input leaf of each field path
	locals map[string]bool
	cells  map[string]*Cell
}

// Preprocess turns an action into a transaction by symbolic execution,
// folding constants and simplifying as it goes.
func Preprocess(a *ir.Action) (tx *Transaction, err error) {
	return PreprocessWith(a, PreprocessOptions{})
}

// PreprocessOptions change what Preprocess does.
type PreprocessOptions struct {
	// NoSimplify keeps every operation the action writes: no constant
	// folding or algebraic simplification (CaT's ablation "without
	// preprocessing"). Branch removal and SSA remain: synthesis needs them.
	NoSimplify bool
}

// PreprocessWith is Preprocess with options.
func PreprocessWith(a *ir.Action, opts PreprocessOptions) (tx *Transaction, err error) {
	b := NewBuilder()
	b.raw = opts.NoSimplify
	p := &preprocessor{b: b, paths: map[string]ir.Expr{}, inputs: map[string]*Term{},
		locals: map[string]bool{}, cells: map[string]*Cell{}}
	p.tx = &Transaction{Action: a, B: p.b, Written: map[*Term]*ir.Binary{}}
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(*UnsupportedError)
			if !ok {
				panic(r)
			}
			err = withWhy(a, u)
		}
	}()
	st := &symState{vals: map[string]*Term{}, live: p.b.Bool(true), path: p.b.Bool(true)}
	p.block(st, a.Body)
	p.finish(st)
	if pre := p.tx.Assume; pre != nil && pre.IsConst() && pre.Value == 0 {
		return nil, withWhy(a, &UnsupportedError{Span: p.tx.Preconditions[0].Span, Msg: fmt.Sprintf("action %s: its preconditions never all hold", a.Name)})
	}
	return p.tx, nil
}

func (p *preprocessor) unsupported(sp diag.Span, format string, args ...any) {
	panic(&UnsupportedError{Span: sp, Msg: fmt.Sprintf(format, args...)})
}

func (p *preprocessor) finish(st *symState) {
	keys := make([]string, 0, len(st.vals))
	for k := range st.vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := st.vals[k]
		if name, ok := strings.CutPrefix(k, "cell:"); ok {
			p.cells[name].Post = v
			continue
		}
		if p.locals[k] {
			continue
		}
		if in := p.inputs[k]; in == v {
			continue // written back unchanged
		}
		p.tx.Outputs = append(p.tx.Outputs, &Output{Name: ir.Format(p.paths[k]), Field: p.paths[k], Value: v})
	}
	for _, c := range p.cellsInOrder() {
		if c.Post == nil {
			c.Post = c.Pre
		}
		p.tx.Cells = append(p.tx.Cells, c)
	}
}

func (p *preprocessor) cellsInOrder() []*Cell {
	var out []*Cell
	for _, c := range p.cells {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// key names an lvalue's storage; ok is false for expressions that are not
// storage p4hls can follow.
func (p *preprocessor) key(e ir.Expr) (string, bool) {
	switch e := e.(type) {
	case *ir.VarRef:
		return fmt.Sprintf("%s#%p", e.Var.Name, e.Var), true
	case *ir.Member:
		k, ok := p.key(e.X)
		return k + "." + e.Name, ok
	case *ir.StackElem:
		c, ok := e.Index.(*ir.Const)
		if !ok {
			return "", false
		}
		k, ok2 := p.key(e.X)
		return fmt.Sprintf("%s[%s]", k, c.Value), ok2
	}
	return "", false
}

func (p *preprocessor) read(st *symState, e ir.Expr) *Term {
	k, ok := p.key(e)
	if !ok {
		p.unsupported(e.Span(), "reading %s in a synthesized action", ir.Format(e))
	}
	if v, ok := st.vals[k]; ok {
		return v
	}
	w := ir.WidthBits(e.Type())
	if w == 0 || w > 64 {
		p.unsupported(e.Span(), "%s is %s; synthesized actions compute on values of 1 to 64 bits", ir.Format(e), e.Type())
	}
	in := p.inputs[k]
	if in == nil {
		in = p.b.Input(ir.Format(e), e, w)
		p.inputs[k] = in
		p.paths[k] = e
	}
	return in
}

func (p *preprocessor) write(st *symState, e ir.Expr, v *Term) {
	if sl, ok := e.(*ir.Slice); ok {
		base := p.read(st, sl.X)
		w := base.Width
		parts := p.b.Resize(v, sl.Hi-sl.Lo+1, false)
		if sl.Hi < w-1 {
			parts = p.b.Concat(p.b.Extract(base, w-1, sl.Hi+1), parts)
		}
		if sl.Lo > 0 {
			parts = p.b.Concat(parts, p.b.Extract(base, sl.Lo-1, 0))
		}
		p.write(st, sl.X, parts)
		return
	}
	k, ok := p.key(e)
	if !ok {
		p.unsupported(e.Span(), "writing %s in a synthesized action", ir.Format(e))
	}
	w := ir.WidthBits(e.Type())
	if w == 0 || w > 64 {
		p.unsupported(e.Span(), "%s is %s; synthesized actions compute on values of 1 to 64 bits", ir.Format(e), e.Type())
	}
	if _, known := p.paths[k]; !known && !p.locals[k] {
		p.read(st, e) // make the input leaf, so "unchanged" can be told
	}
	v = p.b.Resize(v, w, false)
	if old, ok := st.vals[k]; ok && !isTrue(st.live) {
		v = p.b.Ite(st.live, v, old)
	} else if !isTrue(st.live) {
		v = p.b.Ite(st.live, v, p.read(st, e))
	}
	st.vals[k] = v
}

func isTrue(t *Term) bool { return t.IsConst() && t.Value != 0 }

func (p *preprocessor) block(st *symState, ss []ir.Stmt) {
	for _, s := range ss {
		p.stmt(st, s)
	}
}

func (p *preprocessor) stmt(st *symState, s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Declare:
		k, _ := p.key(&ir.VarRef{Var: s.Var})
		p.locals[k] = true
		w := ir.WidthBits(s.Var.Type)
		if w == 0 || w > 64 {
			p.unsupported(s.Span(), "local %s is %s; synthesized actions compute on values of 1 to 64 bits", s.Var.Name, s.Var.Type)
		}
		if s.Init != nil {
			st.vals[k] = p.b.Resize(p.expr(st, s.Init), w, false)
		} else {
			st.vals[k] = p.b.Const(0, w) // uninitialized: the interpreter's 0
		}
	case *ir.Assign:
		p.write(st, s.LHS, p.expr(st, s.RHS))
	case *ir.Block:
		p.block(st, s.Body)
	case *ir.If:
		c := p.expr(st, s.Cond)
		// Each branch runs from the same state; the merge picks by c. A
		// branch's live is the if's own until it returns.
		then, els := st.clone(), st.clone()
		then.path, els.path = p.b.And(st.path, c), p.b.And(st.path, p.b.Not(c))
		p.block(then, s.Then)
		p.block(els, s.Else)
		p.merge(st, c, then, els)
	case *ir.Return:
		st.live = p.b.Bool(false)
	case *ir.CallStmt:
		p.callStmt(st, s.Call)
	default:
		p.unsupported(s.Span(), "this statement in a synthesized action")
	}
}

// merge joins the two branches of an if: each value is c ? then : else.
func (p *preprocessor) merge(st *symState, c *Term, then, els *symState) {
	keys := map[string]bool{}
	for k := range then.vals {
		keys[k] = true
	}
	for k := range els.vals {
		keys[k] = true
	}
	for k := range keys {
		tv, tok := then.vals[k]
		ev, eok := els.vals[k]
		if !tok {
			tv, tok = p.untouched(k)
		}
		if !eok {
			ev, eok = p.untouched(k)
		}
		if !tok || !eok { // declared in one branch only: dead after the if
			continue
		}
		st.vals[k] = p.b.Ite(c, tv, ev)
	}
	// Still running after the if: running before, and not returned on the
	// branch taken.
	st.live = p.b.Ite(c, then.live, els.live)
}

// untouched is the value of k in a branch that neither read nor wrote it
// (the other one made it): a cell's pre-state, a field's input; a local
// made in the other branch has none (it is dead after the if).
func (p *preprocessor) untouched(k string) (*Term, bool) {
	if name, ok := strings.CutPrefix(k, "cell:"); ok {
		return p.cells[name].Pre, true
	}
	if in, ok := p.inputs[k]; ok && !p.locals[k] {
		return in, true
	}
	return nil, false
}

func (p *preprocessor) callStmt(st *symState, c *ir.Call) {
	switch {
	case c.Callee.Recv != nil:
		inst, ok := c.Callee.Recv.(*ir.InstanceRef)
		if !ok || inst.Inst.Type.Name != "register" {
			p.unsupported(c.Span(), "the method %s in a synthesized action", c.Callee.Method)
		}
		switch c.Callee.Method {
		case "read":
			if len(c.Args) == 2 {
				cell := p.cell(st, inst.Inst, c.Args[1].Value)
				p.write(st, c.Args[0].Value, st.vals[cellKey(cell)])
				return
			}
		case "write":
			cell := p.cell(st, inst.Inst, c.Args[0].Value)
			v := p.b.Resize(p.expr(st, c.Args[1].Value), cell.Width, false)
			k := cellKey(cell)
			if !isTrue(st.live) {
				v = p.b.Ite(st.live, v, st.vals[k])
			}
			st.vals[k] = v
			return
		}
		p.unsupported(c.Span(), "register method %s", c.Callee.Method)
	case c.Callee.Extern == "hash" && len(c.Args) == 5:
		p.hash(st, c)
	case (c.Callee.Extern == "assume" || c.Callee.Extern == "assert") && len(c.Args) == 1:
		p.precondition(st, c)
	case c.Callee.Extern == "mark_to_drop":
		sm := c.Args[0].Value
		st1, ok := sm.Type().(*ir.Struct)
		if !ok {
			p.unsupported(c.Span(), "mark_to_drop of a non-struct")
		}
		f, i := st1.Field("egress_spec")
		if f == nil {
			p.unsupported(c.Span(), "mark_to_drop: standard_metadata has no egress_spec")
		}
		spec := &ir.Member{Pos: ir.Pos{Sp: c.Span()}, X: sm, Name: "egress_spec", Index: i, T: f.Type}
		p.write(st, spec, p.b.Const(511, ir.WidthBits(f.Type)))
	default:
		p.unsupported(c.Span(), "the call %s in a synthesized action", ir.Format(c))
	}
}

// precondition adds assume(C) or assert(C) to the transaction's
// precondition: C holds wherever the statement is reached (on its path,
// before a return). Both are preconditions: BMv2 checks them, a verifier
// assumes them, and a mapping need be right only where they hold.
func (p *preprocessor) precondition(st *symState, c *ir.Call) {
	cond := p.b.Resize(p.expr(st, c.Args[0].Value), 1, false)
	reached := p.b.And(st.path, st.live)
	holds := p.b.Or(p.b.Not(reached), cond)
	p.tx.Preconditions = append(p.tx.Preconditions, Precondition{Kind: c.Callee.Extern, Cond: c.Args[0].Value, Span: c.Span()})
	if holds.IsConst() && holds.Value != 0 {
		return // says nothing (assume(true), or on a path never taken)
	}
	if p.tx.Assume == nil {
		p.tx.Assume = holds
	} else {
		p.tx.Assume = p.b.And(p.tx.Assume, holds)
	}
}

// hashAlgorithms are the algorithms a hash unit computes (v1model's,
// without random, which no unit repeats).
var hashAlgorithms = map[string]bool{"crc16": true, "crc32": true, "identity": true, "csum16": true, "xor16": true}

// hash turns hash(result, algo, base, {fields}, max) into a hash leaf.
func (p *preprocessor) hash(st *symState, c *ir.Call) {
	algo := ""
	if e, ok := c.Args[1].Value.(*ir.EnumConst); ok {
		algo = e.Member
	}
	if !hashAlgorithms[algo] {
		p.unsupported(c.Span(), "hash algorithm %q: a hash unit computes crc16, crc32, identity, csum16 or xor16", algo)
	}
	base, max := p.expr(st, c.Args[2].Value), p.expr(st, c.Args[4].Value)
	if !base.IsConst() || !max.IsConst() {
		p.unsupported(c.Span(), "hash with a base or maximum that is not a constant")
	}
	list, ok := c.Args[3].Value.(*ir.List)
	if !ok {
		p.unsupported(c.Span(), "hash of %s: a hash unit hashes a list of fields", ir.Format(c.Args[3].Value))
	}
	var data []*Term
	for _, e := range list.Elems {
		data = append(data, p.expr(st, e))
	}
	w := ir.WidthBits(c.Args[0].Value.Type())
	if w == 0 || w > 64 {
		p.unsupported(c.Span(), "hash result of %d bits", w)
	}
	h, bad := p.hashTerm(HashSpec{Algo: algo, Base: base.Value, Max: max.Value}, data, w, maxHashSplits)
	if bad >= 0 {
		e := list.Elems[bad]
		p.unsupported(e.Span(), "hash of %s: a hash unit reads fields as the action begins, not computed values", ir.Format(e))
	}
	p.write(st, c.Args[0].Value, h)
}

// maxHashSplits bounds the conditions a hash is split on (2^n hash units).
const maxHashSplits = 2

// hashTerm hashes data. Where a datum is chosen by a condition, c ? x : y
// (a connection's endpoints ordered by direction), the hash becomes
// c ? hash(..x..) : hash(..y..): every hash unit then reads fields, and a
// stateless ALU picks the result. bad is the index of a datum that stays
// computed, or -1.
func (p *preprocessor) hashTerm(spec HashSpec, data []*Term, w, splits int) (h *Term, bad int) {
	for i, d := range data {
		if d.Op == OpInput {
			continue
		}
		if d.Op != OpIte || splits == 0 {
			return nil, i
		}
		cond := d.Args[0]
		pick := func(arm int) []*Term {
			out := append([]*Term(nil), data...)
			for j, e := range out {
				if e.Op == OpIte && e.Args[0] == cond {
					out[j] = e.Args[arm]
				}
			}
			return out
		}
		then, bad := p.hashTerm(spec, pick(1), w, splits-1)
		if bad >= 0 {
			return nil, bad
		}
		els, bad := p.hashTerm(spec, pick(2), w, splits-1)
		if bad >= 0 {
			return nil, bad
		}
		return p.b.Ite(cond, then, els), -1
	}
	return p.b.HashOf(spec, data, w), -1
}

func cellKey(c *Cell) string { return "cell:" + c.Name }

// cell finds or makes the cell of register[index].
func (p *preprocessor) cell(st *symState, reg *ir.Instance, index ir.Expr) *Cell {
	idx := p.expr(st, index)
	size := registerSize(reg)
	bits := 0
	// index & (size - 1), with size a power of two: the address unit takes
	// the low bits, so the cell is addressed by the unmasked value.
	if idx.Op == OpAnd && idx.Args[1].IsConst() && size > 0 && uint64(size-1) == idx.Args[1].Value && size&(size-1) == 0 {
		for 1<<uint(bits) < size {
			bits++
		}
		idx = idx.Args[0]
	}
	name := fmt.Sprintf("%s[%s]", reg.Name, idx)
	if c, ok := p.cells[name]; ok {
		return c
	}
	for _, c := range p.cells {
		if c.Register == reg {
			p.unsupported(index.Span(), "register %s is used at two indexes (%s and %s) in one transaction", reg.Name, c.Index, idx)
		}
	}
	w := ir.WidthBits(reg.Type.Args[0])
	if w == 0 || w > 64 {
		p.unsupported(index.Span(), "register %s holds %s; synthesis needs 1 to 64 bits", reg.Name, reg.Type.Args[0])
	}
	c := &Cell{Name: name, Register: reg, Index: idx, IndexBits: bits, Width: w}
	c.Pre = p.b.Pre(c)
	p.cells[name] = c
	st.vals[cellKey(c)] = c.Pre
	return c
}

func registerSize(reg *ir.Instance) int {
	if len(reg.Args) > 0 {
		if c, ok := reg.Args[0].(*ir.Const); ok && c.Value.IsInt64() {
			return int(c.Value.Int64())
		}
	}
	return 0
}

func (p *preprocessor) expr(st *symState, e ir.Expr) *Term {
	b := p.b
	switch e := e.(type) {
	case *ir.Const:
		w := ir.WidthBits(e.T)
		if w == 0 {
			w = 64 // an unsized int (a shift amount)
		}
		return b.Const(e.Value.Uint64(), w)
	case *ir.EnumConst:
		for i, m := range e.Enum.Members {
			if m == e.Member {
				if e.Enum.Underlying != nil {
					return b.Const(e.Enum.Values[i].Uint64(), e.Enum.Underlying.Width)
				}
				return b.Const(uint64(i), 32)
			}
		}
	case *ir.VarRef, *ir.Member, *ir.StackElem:
		return p.read(st, e)
	case *ir.IsValid:
		k, ok := p.key(e.X)
		if !ok {
			p.unsupported(e.Span(), "isValid of %s", ir.Format(e.X))
		}
		k += ".$valid"
		if in := p.inputs[k]; in != nil {
			return in
		}
		in := b.Input(ir.Format(e), e, 1)
		p.inputs[k] = in
		p.paths[k] = e
		return in
	case *ir.Slice:
		return b.Extract(p.expr(st, e.X), e.Hi, e.Lo)
	case *ir.Cast:
		x := p.expr(st, e.X)
		signed := false
		if bt, ok := e.X.Type().(*ir.Bits); ok {
			signed = bt.Signed
		}
		w := ir.WidthBits(e.T)
		if w == 0 {
			w = x.Width
		}
		return b.Resize(x, w, signed)
	case *ir.Unary:
		x := p.expr(st, e.X)
		switch e.Op {
		case ir.LNot, ir.BitNot: // a bool is one bit: ! is ~
			return b.Not(x)
		case ir.Neg:
			return b.Neg(x)
		}
	case *ir.Binary:
		return p.binary(st, e)
	case *ir.Cond:
		return b.Ite(p.expr(st, e.C), p.expr(st, e.Then), p.expr(st, e.Else))
	case *ir.Call:
		if inst, ok := e.Callee.Recv.(*ir.InstanceRef); ok && inst.Inst.Type.Name == "register" && e.Callee.Method == "read" && len(e.Args) == 1 {
			return st.vals[cellKey(p.cell(st, inst.Inst, e.Args[0].Value))]
		}
	}
	p.unsupported(e.Span(), "the expression %s in a synthesized action", ir.Format(e))
	return nil
}

func (p *preprocessor) binary(st *symState, e *ir.Binary) *Term {
	b := p.b
	x, y := p.expr(st, e.X), p.expr(st, e.Y)
	signed := false
	if bt, ok := e.X.Type().(*ir.Bits); ok {
		signed = bt.Signed
	}
	switch e.Op {
	case ir.Shl, ir.Shr:
		if !y.IsConst() {
			p.unsupported(e.Span(), "a shift by a variable amount in a synthesized action")
		}
		op := OpShl
		if e.Op == ir.Shr {
			op = OpShr
			if signed {
				op = OpSar
			}
		}
		return b.Shift(op, x, y.Value)
	case ir.Concat:
		return b.Concat(x, y)
	case ir.LAnd:
		return b.And(x, y)
	case ir.LOr:
		return b.Or(x, y)
	case ir.SatAdd, ir.SatSub:
		if signed {
			p.unsupported(e.Span(), "signed saturating arithmetic in a synthesized action")
		}
	}
	if y.Width != x.Width {
		y = b.Resize(y, x.Width, false)
	}
	op, swap, ok := termOp(e.Op, signed)
	if !ok {
		p.unsupported(e.Span(), "the operator %s in a synthesized action", e.Op)
	}
	if swap {
		x, y = y, x
	}
	t := b.Binary(op, x, y)
	if _, seen := p.tx.Written[t]; !seen && (e.Op == ir.Add || e.Op == ir.Sub) {
		p.tx.Written[t] = e
	}
	return t
}

// termOp is the term operator that computes the P4 operator op on two
// operands of one width, signed or not. Terms compare with < and <= only,
// so > and >= come back as their converse with swap set.
func termOp(op ir.Op, signed bool) (top Op, swap, ok bool) {
	if op == ir.Gt || op == ir.Ge {
		top, _, ok = termOp(op.Converse(), signed)
		return top, true, ok
	}
	if signed && op == ir.Lt {
		return OpLtS, false, true
	}
	if signed && op == ir.Le {
		return OpLeS, false, true
	}
	top, ok = unsignedTermOps[op]
	return top, false, ok
}

// unsignedTermOps are the term operators of the P4 operators whose
// operands have one width, for unsigned operands.
var unsignedTermOps = map[ir.Op]Op{
	ir.Add: OpAdd, ir.Sub: OpSub, ir.Mul: OpMul, ir.BitAnd: OpAnd, ir.BitOr: OpOr, ir.BitXor: OpXor,
	ir.Eq: OpEq, ir.Ne: OpNe, ir.Lt: OpLtU, ir.Le: OpLeU, ir.SatAdd: OpSatAddU, ir.SatSub: OpSatSubU,
}
