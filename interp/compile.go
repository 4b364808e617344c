package interp

import (
	"fmt"
	"math/big"

	"github.com/p4hls/p4hls/ir"
)

// The interpreter compiles the IR once into closures: an expression becomes
// an evalFn, storage a refFn, a statement an execFn. Variables become slots
// of a frame, resolved at compile time. Running a packet is then calls of
// small functions with no lookups, which is what makes differential tests
// of 100,000 packets take under a second.

type (
	evalFn func(fr *frame) Value
	refFn  func(fr *frame) *Value // nil result: a write to go nowhere (an invalid header's field)
	execFn func(fr *frame) flow
)

// flow says how a statement ended.
type flow int

const (
	flowNext     flow = iota // go on with the next statement
	flowExit                 // exit: leave the pipeline block
	flowReturn               // return: leave the action, function or apply
	flowBreak                // break out of the innermost loop
	flowContinue             // continue the innermost loop
	flowReject               // a parser error: go to reject
)

// frame is the storage of one running parser, control or function.
type frame struct {
	sw    *Switch
	slots []Value
	pkt   *packet
	ret   Value // a function's return value

	exiting  bool // an action ran exit: the control ends
	rejected bool // a parser error was raised
	perr     int  // the parser error's index
}

// scope compiles the code of one parser or control (or function): it owns
// the slot numbering of the variables that code uses.
type scope struct {
	sw      *Switch
	slots   map[*ir.Var]int
	nslots  int
	actions map[*ir.Action]*compiledAction
	errs    []error
}

func newScope(sw *Switch) *scope {
	return &scope{sw: sw, slots: map[*ir.Var]int{}, actions: map[*ir.Action]*compiledAction{}}
}

func (s *scope) slot(v *ir.Var) int {
	if i, ok := s.slots[v]; ok {
		return i
	}
	s.slots[v] = s.nslots
	s.nslots++
	return s.nslots - 1
}

func (s *scope) fail(format string, args ...any) {
	s.errs = append(s.errs, fmt.Errorf(format, args...))
}

// ------------------------------------------------------------------ expressions

func (s *scope) expr(e ir.Expr) evalFn {
	switch e := e.(type) {
	case *ir.Const:
		v := constValue(e)
		return func(*frame) Value { return v }
	case *ir.ErrorConst:
		v := Value{U: uint64(s.sw.errorIndex(e.Name))}
		return func(*frame) Value { return v }
	case *ir.EnumConst:
		v := Value{U: enumValue(e.Enum, e.Member)}
		return func(*frame) Value { return v }
	case *ir.StringConst:
		return func(*frame) Value { return Value{} }
	case *ir.VarRef, *ir.Member, *ir.StackElem:
		ref := s.ref(e)
		t := e.Type()
		return func(fr *frame) Value {
			if p := ref(fr); p != nil {
				return *p
			}
			return zero(t)
		}
	case *ir.StackOp:
		return s.stackOp(e)
	case *ir.Slice:
		x := s.expr(e.X)
		hi, lo := e.Hi, e.Lo
		return func(fr *frame) Value { return slice(x(fr), hi, lo) }
	case *ir.Unary:
		return s.unary(e)
	case *ir.Binary:
		return s.binary(e)
	case *ir.Cast:
		x := s.expr(e.X)
		from, to := e.X.Type(), e.T
		return func(fr *frame) Value { return cast(x(fr), from, to) }
	case *ir.Cond:
		c, th, el := s.expr(e.C), s.expr(e.Then), s.expr(e.Else)
		return func(fr *frame) Value {
			if c(fr).U != 0 {
				return th(fr)
			}
			return el(fr)
		}
	case *ir.IsValid:
		x := s.expr(e.X)
		union := isUnion(e.X.Type())
		return func(fr *frame) Value {
			v := x(fr)
			if union {
				for _, m := range v.Agg.Fields {
					if m.Agg.Valid {
						return Value{U: 1}
					}
				}
				return Value{}
			}
			return boolValue(v.Agg != nil && v.Agg.Valid)
		}
	case *ir.List:
		elems := make([]evalFn, len(e.Elems))
		for i, x := range e.Elems {
			elems[i] = s.expr(x)
		}
		header := isHeader(e.T)
		return func(fr *frame) Value {
			agg := &Aggregate{Fields: make([]Value, len(elems)), Valid: header}
			for i, f := range elems {
				agg.Fields[i] = copyValue(f(fr))
			}
			return Value{Agg: agg}
		}
	case *ir.TableHit:
		t := s.table(e.Table)
		miss := e.Miss
		return func(fr *frame) Value {
			hit, _ := t.apply(fr)
			return boolValue(hit != miss)
		}
	case *ir.Call:
		return s.call(e)
	}
	s.fail("cannot run expression %T", e)
	return func(*frame) Value { return Value{} }
}

func isUnion(t ir.Type) bool {
	st, ok := t.(*ir.Struct)
	return ok && st.Kind == ir.KindHeaderUnion
}

func isHeader(t ir.Type) bool {
	st, ok := t.(*ir.Struct)
	return ok && st.Kind == ir.KindHeader
}

func enumValue(e *ir.Enum, member string) uint64 {
	for i, m := range e.Members {
		if m == member {
			if e.Underlying != nil {
				return e.Values[i].Uint64()
			}
			return uint64(i)
		}
	}
	return 0
}

// ref compiles an expression that denotes storage.
func (s *scope) ref(e ir.Expr) refFn {
	switch e := e.(type) {
	case *ir.VarRef:
		i := s.slot(e.Var)
		return func(fr *frame) *Value { return &fr.slots[i] }
	case *ir.Member:
		x := s.ref(e.X)
		i := e.Index
		if isHeader(e.X.Type()) {
			// The fields of an invalid header read as 0 and ignore writes.
			return func(fr *frame) *Value {
				p := x(fr)
				if p == nil || !p.Agg.Valid {
					return nil
				}
				return &p.Agg.Fields[i]
			}
		}
		return func(fr *frame) *Value {
			p := x(fr)
			if p == nil {
				return nil
			}
			return &p.Agg.Fields[i]
		}
	case *ir.StackElem:
		x, idx := s.ref(e.X), s.expr(e.Index)
		return func(fr *frame) *Value {
			p := x(fr)
			i := idx(fr).U
			if p == nil || i >= uint64(len(p.Agg.Fields)) {
				return nil // out of bounds: undefined in P4, a no-op here
			}
			return &p.Agg.Fields[i]
		}
	case *ir.StackOp:
		x := s.ref(e.X)
		last := e.Op == "last"
		return func(fr *frame) *Value {
			p := x(fr)
			i := p.Agg.Next
			if last {
				i--
			}
			if i < 0 || i >= len(p.Agg.Fields) {
				fr.parserError(fr.sw.errStackOutOfBounds)
				return nil
			}
			return &p.Agg.Fields[i]
		}
	case *ir.Slice:
		s.fail("a slice is written only by assignment")
	}
	// Not storage (a call's result, say): a temporary.
	ev := s.expr(e)
	return func(fr *frame) *Value {
		v := ev(fr)
		return &v
	}
}

// store compiles writing a value into the storage e denotes: into a
// slice (of a slice, too) its bits of the value sliced; into anything
// else, assigned. Nothing is written where e denotes no storage (a field
// of an invalid header).
func (s *scope) store(e ir.Expr) func(fr *frame, v Value) {
	if sl, ok := e.(*ir.Slice); ok {
		x, hi, lo := sl.Flat()
		base, t := s.ref(x), bitsOf(x.Type())
		return func(fr *frame, v Value) {
			if p := base(fr); p != nil {
				*p = setSlice(*p, t, hi, lo, v)
			}
		}
	}
	dst := s.ref(e)
	return func(fr *frame, v Value) { write(dst(fr), v) }
}

func (s *scope) stackOp(e *ir.StackOp) evalFn {
	x := s.expr(e.X)
	switch e.Op {
	case "size":
		return func(fr *frame) Value { return Value{U: uint64(len(x(fr).Agg.Fields))} }
	case "lastIndex":
		return func(fr *frame) Value { return Value{U: uint64(x(fr).Agg.Next-1) & mask(32)} }
	case "nextIndex":
		return func(fr *frame) Value { return Value{U: uint64(x(fr).Agg.Next)} }
	}
	ref := s.ref(e)
	t := e.T
	return func(fr *frame) Value {
		if p := ref(fr); p != nil {
			return *p
		}
		return zero(t)
	}
}

func (s *scope) unary(e *ir.Unary) evalFn {
	x := s.expr(e.X)
	switch e.Op {
	case ir.LNot:
		return func(fr *frame) Value { return Value{U: x(fr).U ^ 1} }
	case ir.BitNot:
		t := e.T.(*ir.Bits)
		return func(fr *frame) Value { return complement(x(fr), t) }
	case ir.Neg:
		if t, ok := e.T.(*ir.Bits); ok {
			return func(fr *frame) Value { return negate(x(fr), t) }
		}
		return func(fr *frame) Value { return Value{U: -x(fr).U} }
	}
	s.fail("cannot run operator %s", e.Op)
	return x
}

func (s *scope) binary(e *ir.Binary) evalFn {
	x, y := s.expr(e.X), s.expr(e.Y)
	switch e.Op {
	case ir.LAnd:
		return func(fr *frame) Value {
			if x(fr).U == 0 {
				return Value{}
			}
			return y(fr)
		}
	case ir.LOr:
		return func(fr *frame) Value {
			if x(fr).U != 0 {
				return Value{U: 1}
			}
			return y(fr)
		}
	case ir.Eq, ir.Ne:
		t := e.X.Type()
		ne := e.Op == ir.Ne
		if b, ok := t.(*ir.Bits); ok && b.Width <= 64 {
			return func(fr *frame) Value { return boolValue((x(fr).U == y(fr).U) != ne) }
		}
		return func(fr *frame) Value { return boolValue(equalHeaders(x(fr), y(fr), t) != ne) }
	case ir.Lt, ir.Gt, ir.Le, ir.Ge:
		t := bitsOf(e.X.Type())
		op := e.Op
		return func(fr *frame) Value {
			c := compare(x(fr), y(fr), t)
			switch op {
			case ir.Lt:
				return boolValue(c < 0)
			case ir.Gt:
				return boolValue(c > 0)
			case ir.Le:
				return boolValue(c <= 0)
			}
			return boolValue(c >= 0)
		}
	case ir.Shl, ir.Shr:
		t := bitsOf(e.T)
		left := e.Op == ir.Shl
		return func(fr *frame) Value {
			n := y(fr)
			amount := n.U
			if n.Big != nil {
				amount = uint64(t.Width) // any wide amount shifts everything out
			}
			return shift(left, x(fr), amount, t)
		}
	case ir.Concat:
		wx, wy := ir.WidthBits(e.X.Type()), ir.WidthBits(e.Y.Type())
		return func(fr *frame) Value { return concat(x(fr), wx, y(fr), wy) }
	}
	t := bitsOf(e.T)
	op := e.Op
	if t.Width <= 64 && !t.Signed {
		m := mask(t.Width)
		switch op { // the hottest cases, without the generic dispatch
		case ir.Add:
			return func(fr *frame) Value { return Value{U: (x(fr).U + y(fr).U) & m} }
		case ir.Sub:
			return func(fr *frame) Value { return Value{U: (x(fr).U - y(fr).U) & m} }
		case ir.BitAnd:
			return func(fr *frame) Value { return Value{U: x(fr).U & y(fr).U} }
		case ir.BitOr:
			return func(fr *frame) Value { return Value{U: x(fr).U | y(fr).U} }
		case ir.BitXor:
			return func(fr *frame) Value { return Value{U: x(fr).U ^ y(fr).U} }
		}
	}
	return func(fr *frame) Value { return arith(op, x(fr), y(fr), t) }
}

// bitsOf returns the fixed-width view of a type: enums and int compute as
// their representation.
func bitsOf(t ir.Type) *ir.Bits {
	switch t := t.(type) {
	case *ir.Bits:
		return t
	case *ir.Enum:
		if t.Underlying != nil {
			return t.Underlying
		}
		return &ir.Bits{Width: 32}
	case ir.Bool:
		return &ir.Bits{Width: 1}
	}
	return &ir.Bits{Width: 64, Signed: true}
}

// ------------------------------------------------------------------ statements

func (s *scope) block(ss []ir.Stmt) execFn {
	fns := make([]execFn, len(ss))
	for i, st := range ss {
		fns[i] = s.stmt(st)
	}
	switch len(fns) {
	case 0:
		return func(*frame) flow { return flowNext }
	case 1:
		return fns[0]
	}
	return func(fr *frame) flow {
		for _, f := range fns {
			if fl := f(fr); fl != flowNext {
				return fl
			}
		}
		return flowNext
	}
}

func (s *scope) stmt(st ir.Stmt) execFn {
	switch st := st.(type) {
	case *ir.Assign:
		return s.assign(st)
	case *ir.Declare:
		i := s.slot(st.Var)
		t := st.Var.Type
		if st.Init != nil {
			init := s.expr(st.Init)
			return func(fr *frame) flow {
				fr.slots[i] = copyValue(init(fr))
				return flowNext
			}
		}
		return func(fr *frame) flow {
			fr.slots[i] = zero(t)
			return flowNext
		}
	case *ir.If:
		c, th, el := s.expr(st.Cond), s.block(st.Then), s.block(st.Else)
		return func(fr *frame) flow {
			if c(fr).U != 0 {
				return th(fr)
			}
			return el(fr)
		}
	case *ir.Block:
		return s.block(st.Body)
	case *ir.CallAction:
		return s.callAction(st.Call)
	case *ir.ApplyTable:
		t := s.table(st.Table)
		return func(fr *frame) flow {
			t.apply(fr)
			return fr.pending()
		}
	case *ir.SwitchAction:
		return s.switchAction(st)
	case *ir.Switch:
		return s.switchValue(st)
	case *ir.CallStmt:
		call := s.call(st.Call)
		return func(fr *frame) flow {
			call(fr)
			return fr.pending()
		}
	case *ir.SetValid:
		return s.setValid(st)
	case *ir.StackShift:
		return s.stackShift(st)
	case *ir.Exit:
		return func(*frame) flow { return flowExit }
	case *ir.Return:
		if st.Value != nil {
			v := s.expr(st.Value)
			return func(fr *frame) flow {
				fr.ret = copyValue(v(fr))
				return flowReturn
			}
		}
		return func(*frame) flow { return flowReturn }
	case *ir.For:
		return s.forLoop(st)
	case *ir.Break:
		return func(*frame) flow { return flowBreak }
	case *ir.Continue:
		return func(*frame) flow { return flowContinue }
	}
	s.fail("cannot run statement %T", st)
	return func(*frame) flow { return flowNext }
}

func (s *scope) assign(st *ir.Assign) execFn {
	rhs := s.expr(st.RHS)
	if _, ok := st.LHS.(*ir.Slice); ok {
		store := s.store(st.LHS)
		return func(fr *frame) flow {
			store(fr, rhs(fr))
			return fr.pending()
		}
	}
	lhs := s.ref(st.LHS)
	if b, ok := st.LHS.Type().(*ir.Bits); ok && b.Width <= 64 {
		return func(fr *frame) flow {
			v := rhs(fr)
			if p := lhs(fr); p != nil {
				p.U = v.U
			}
			return fr.pending()
		}
	}
	return func(fr *frame) flow {
		v := rhs(fr)
		if p := lhs(fr); p != nil {
			assignInto(p, v)
		}
		return fr.pending()
	}
}

func (s *scope) setValid(st *ir.SetValid) execFn {
	x := s.ref(st.X)
	valid := st.Valid
	// Making a union member valid makes its siblings invalid (P4-16 §8.18).
	var parent refFn
	if m, ok := st.X.(*ir.Member); ok && isUnion(m.X.Type()) {
		parent = s.ref(m.X)
	}
	return func(fr *frame) flow {
		p := x(fr)
		if p == nil {
			return flowNext
		}
		if parent != nil && valid {
			for i := range parent(fr).Agg.Fields {
				invalidate(&parent(fr).Agg.Fields[i])
			}
		}
		if valid {
			p.Agg.Valid = true
		} else {
			invalidate(p)
		}
		return flowNext
	}
}

// invalidate makes a header invalid; its fields read as 0 from now on.
func invalidate(p *Value) {
	p.Agg.Valid = false
	for i := range p.Agg.Fields {
		f := &p.Agg.Fields[i]
		if f.Agg != nil {
			invalidate(f)
			continue
		}
		f.U = 0
		if f.Big != nil {
			f.Big = new(big.Int)
		}
	}
}

func (s *scope) stackShift(st *ir.StackShift) execFn {
	x := s.ref(st.X)
	n, push := st.Count, st.Push
	elem := st.X.Type().(*ir.Stack).Elem
	return func(fr *frame) flow {
		p := x(fr)
		fields := p.Agg.Fields
		size := len(fields)
		if push {
			for i := size - 1; i >= 0; i-- {
				if i >= n {
					fields[i] = fields[i-n]
				} else {
					fields[i] = zero(elem)
				}
			}
			p.Agg.Next = min(size, p.Agg.Next+n)
		} else {
			for i := 0; i < size; i++ {
				if i+n < size {
					fields[i] = fields[i+n]
				} else {
					fields[i] = zero(elem)
				}
			}
			p.Agg.Next = max(0, p.Agg.Next-n)
		}
		return flowNext
	}
}

func (s *scope) forLoop(st *ir.For) execFn {
	init, body, update := s.block(st.Init), s.block(st.Body), s.block(st.Update)
	cond := func(*frame) Value { return Value{U: 1} }
	if st.Cond != nil {
		cond = s.expr(st.Cond)
	}
	return func(fr *frame) flow {
		init(fr)
		for iter := 0; cond(fr).U != 0; iter++ {
			if iter > maxLoopIterations {
				fr.sw.fault(fmt.Errorf("for loop at %s ran more than %d iterations", st.Span(), maxLoopIterations))
				return flowExit
			}
			switch body(fr) {
			case flowBreak:
				return flowNext
			case flowExit:
				return flowExit
			case flowReturn:
				return flowReturn
			}
			update(fr)
		}
		return flowNext
	}
}

// maxLoopIterations bounds a for loop, so a program cannot hang the
// interpreter (P4 targets unroll loops; real ones are short).
const maxLoopIterations = 1 << 16

func (s *scope) switchValue(st *ir.Switch) execFn {
	x := s.expr(st.X)
	type arm struct {
		values []evalFn
		body   execFn
	}
	var arms []arm
	var dflt execFn
	for _, c := range st.Cases {
		body := s.block(c.Body)
		if c.Default {
			dflt = body
		}
		a := arm{body: body}
		for _, v := range c.Values {
			a.values = append(a.values, s.expr(v))
		}
		arms = append(arms, a)
	}
	return func(fr *frame) flow {
		v := x(fr)
		for _, a := range arms {
			for _, val := range a.values {
				if equal(val(fr), v) {
					return a.body(fr)
				}
			}
		}
		if dflt != nil {
			return dflt(fr)
		}
		return flowNext
	}
}

func (s *scope) switchAction(st *ir.SwitchAction) execFn {
	t := s.table(st.Table)
	bodies := map[*ir.Action]execFn{}
	var dflt execFn
	for _, c := range st.Cases {
		body := s.block(c.Body)
		for _, a := range c.Actions {
			bodies[a] = body
		}
		if c.Default {
			dflt = body
		}
	}
	return func(fr *frame) flow {
		_, ran := t.apply(fr)
		if fl := fr.pending(); fl != flowNext {
			return fl
		}
		if body, ok := bodies[ran]; ok {
			return body(fr)
		}
		if dflt != nil {
			return dflt(fr)
		}
		return flowNext
	}
}
