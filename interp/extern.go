package interp

import (
	"fmt"
	"math"
	"math/big"

	"github.com/p4hls/p4hls/ir"
)

// call compiles a call of an extern method, an extern function or a
// function declared in the program.
func (s *scope) call(c *ir.Call) evalFn {
	switch {
	case c.Callee.Func != nil:
		return s.callFunction(c)
	case c.Callee.Recv != nil:
		return s.callMethod(c)
	}
	return s.callExtern(c)
}

// arg compiles argument i's value (nil for _).
func (s *scope) arg(c *ir.Call, i int) evalFn {
	if i >= len(c.Args) || c.Args[i].Value == nil {
		return func(*frame) Value { return Value{} }
	}
	return s.expr(c.Args[i].Value)
}

// out compiles argument i as storage to write (a no-op writer for _).
func (s *scope) out(c *ir.Call, i int) refFn {
	if i >= len(c.Args) || c.Args[i].Value == nil {
		return func(*frame) *Value { return nil }
	}
	return s.ref(c.Args[i].Value)
}

func (s *scope) argType(c *ir.Call, i int) ir.Type {
	if i >= len(c.Args) || c.Args[i].Value == nil {
		return nil
	}
	return c.Args[i].Value.Type()
}

func write(dst *Value, v Value) {
	if dst != nil {
		assignInto(dst, v)
	}
}

func (s *scope) callMethod(c *ir.Call) evalFn {
	recvType, _ := c.Callee.Recv.Type().(*ir.Extern)
	if recvType == nil {
		s.fail("cannot run method %s of a %s", c.Callee.Method, c.Callee.Recv.Type())
		return func(*frame) Value { return Value{} }
	}
	name := recvType.Name + "." + c.Callee.Method
	switch name {
	case "packet_in.extract":
		return s.extract(c)
	case "packet_in.lookahead":
		t := c.T
		w := ir.WidthBits(t)
		return func(fr *frame) Value {
			if fr.pkt.remaining() < w {
				fr.parserError(fr.sw.errPacketTooShort)
				return zero(t)
			}
			v := zero(t)
			pos := fr.pkt.pos
			fr.pkt.readValue(t, &v)
			fr.pkt.pos = pos
			return v
		}
	case "packet_in.advance":
		n := s.arg(c, 0)
		return func(fr *frame) Value {
			bits := int(n(fr).U)
			if fr.pkt.remaining() < bits {
				fr.parserError(fr.sw.errPacketTooShort)
				return Value{}
			}
			fr.pkt.pos += bits
			return Value{}
		}
	case "packet_in.length":
		return func(fr *frame) Value { return Value{U: uint64(len(fr.pkt.data))} }
	case "packet_out.emit":
		x, t := s.arg(c, 0), s.argType(c, 0)
		name := ir.Format(c.Args[0].Value)
		return func(fr *frame) Value {
			fr.sw.emit(fr.pkt, name, t, x(fr))
			return Value{}
		}
	}
	inst := s.instance(c.Callee.Recv)
	if inst == nil {
		s.fail("cannot run %s: its receiver is not an extern instance", name)
		return func(*frame) Value { return Value{} }
	}
	if fn := s.tnaMethod(c, name, inst); fn != nil {
		return fn
	}
	switch name {
	case "register.read":
		if len(c.Args) == 1 { // T read(in I index)
			idx := s.arg(c, 0)
			return func(fr *frame) Value { return fr.sw.registerRead(inst, idx(fr).U) }
		}
		dst, idx := s.out(c, 0), s.arg(c, 1)
		return func(fr *frame) Value {
			write(dst(fr), fr.sw.registerRead(inst, idx(fr).U))
			return Value{}
		}
	case "register.write":
		idx, val := s.arg(c, 0), s.arg(c, 1)
		return func(fr *frame) Value {
			fr.sw.registerWrite(inst, idx(fr).U, val(fr))
			return Value{}
		}
	case "counter.count", "Counter.count": // v1model's and TNA's count alike
		idx := s.arg(c, 0)
		return func(fr *frame) Value {
			fr.sw.count(inst, idx(fr).U, len(fr.pkt.data))
			return Value{}
		}
	case "direct_counter.count", "DirectCounter.count":
		return func(fr *frame) Value {
			fr.sw.count(inst, 0, len(fr.pkt.data))
			return Value{}
		}
	case "meter.execute_meter":
		idx, dst := s.arg(c, 0), s.out(c, 1)
		return func(fr *frame) Value {
			write(dst(fr), Value{U: fr.sw.meterColor(inst, idx(fr).U)})
			return Value{}
		}
	case "direct_meter.read":
		dst := s.out(c, 0)
		return func(fr *frame) Value {
			write(dst(fr), Value{U: fr.sw.meterColor(inst, 0)})
			return Value{}
		}
	case "Checksum16.get":
		x, t := s.arg(c, 0), s.argType(c, 0)
		return func(fr *frame) Value { return Value{U: uint64(csum16(serialize(t, x(fr))))} }
	}
	s.fail("p4hls's interpreter does not implement %s", name)
	return func(*frame) Value { return Value{} }
}

// instance resolves the receiver of an extern method.
func (s *scope) instance(e ir.Expr) *ir.Instance {
	if r, ok := e.(*ir.InstanceRef); ok {
		return r.Inst
	}
	return nil
}

// extract compiles packet.extract(hdr): read the header's bits and make it
// valid; too few bits is error.PacketTooShort. hdr may be a stack's next
// element, which also advances the stack.
func (s *scope) extract(c *ir.Call) evalFn {
	target := c.Args[0].Value
	if target == nil { // extract<H>(_): H's bits are read and dropped
		return s.skip(c)
	}
	t := target.Type()
	w := ir.WidthBits(t)
	varbitBits := func(*frame) (int, bool) { return 0, true }
	if len(c.Args) == 2 {
		varbitBits = s.varbitSize(c, t)
		w -= ir.VarbitMax(t)
	}
	var stack refFn
	if op, ok := nextOf(target); ok {
		stack = s.ref(op.X)
	}
	dst := s.ref(target)
	var parent refFn
	if m, ok := target.(*ir.Member); ok && isUnion(m.X.Type()) {
		parent = s.ref(m.X)
	}
	return func(fr *frame) Value {
		p := dst(fr)
		if p == nil {
			return Value{} // stack full: the error is already raised
		}
		n, ok := varbitBits(fr)
		if !ok {
			return Value{} // the error is raised
		}
		if fr.pkt.remaining() < w+n {
			fr.parserError(fr.sw.errPacketTooShort)
			return Value{}
		}
		if parent != nil {
			for i := range parent(fr).Agg.Fields {
				invalidate(&parent(fr).Agg.Fields[i])
			}
		}
		fr.pkt.readSized(t, p, n)
		if stack != nil {
			stack(fr).Agg.Next++
		}
		return Value{}
	}
}

// varbitSize compiles the size extract's second argument gives a
// header's varbit field, in bits, as BMv2 checks it: more than the
// field's maximum is error.HeaderTooShort, and a header that does not end
// on a byte boundary error.ParserInvalidArgument (false: the error is
// raised).
func (s *scope) varbitSize(c *ir.Call, t ir.Type) func(*frame) (int, bool) {
	size, max := s.arg(c, 1), ir.VarbitMax(t)
	fixed := ir.WidthBits(t) - max
	return func(fr *frame) (int, bool) {
		n := size(fr)
		switch {
		case n.Big != nil || n.U > uint64(max):
			fr.parserError(fr.sw.errHeaderTooShort)
			return 0, false
		case (fixed+int(n.U))%8 != 0:
			fr.parserError(fr.sw.errParserInvalidArgument)
			return 0, false
		}
		return int(n.U), true
	}
}

// nextOf returns the stack.next an extract's target is or is a member of
// (stack.next.h, for a stack of header unions): extracting it advances the
// stack.
func nextOf(target ir.Expr) (*ir.StackOp, bool) {
	if m, ok := target.(*ir.Member); ok {
		target = m.X
	}
	op, ok := target.(*ir.StackOp)
	return op, ok && op.Op == "next"
}

// skip compiles packet.extract<H>(_), which reads a header into nothing.
func (s *scope) skip(c *ir.Call) evalFn {
	if len(c.Callee.TypeArgs) != 1 {
		s.fail("extract into _ needs its header type")
		return func(*frame) Value { return Value{} }
	}
	w := ir.WidthBits(c.Callee.TypeArgs[0])
	return func(fr *frame) Value {
		if fr.pkt.remaining() < w {
			fr.parserError(fr.sw.errPacketTooShort)
			return Value{}
		}
		fr.pkt.pos += w
		return Value{}
	}
}

func (s *scope) callExtern(c *ir.Call) evalFn {
	switch c.Callee.Extern {
	case "mark_to_drop":
		// As BMv2's: the drop port, and no multicast group.
		sm := s.ref(c.Args[0].Value)
		spec, grp := s.sw.stdField("egress_spec"), s.sw.stdField("mcast_grp")
		return func(fr *frame) Value {
			if p := sm(fr); p != nil && spec >= 0 {
				p.Agg.Fields[spec] = Value{U: dropPort}
				if grp >= 0 {
					p.Agg.Fields[grp] = Value{U: 0}
				}
			}
			return Value{}
		}
	case "verify":
		cond, err := s.arg(c, 0), s.arg(c, 1)
		return func(fr *frame) Value {
			if cond(fr).U == 0 {
				fr.parserError(int(err(fr).U))
			}
			return Value{}
		}
	case "hash":
		return s.hash(c)
	case "random":
		dst, lo, hi := s.out(c, 0), s.arg(c, 1), s.arg(c, 2)
		t := bitsOf(s.argType(c, 1))
		return func(fr *frame) Value {
			l, h := lo(fr), hi(fr)
			write(dst(fr), fr.sw.random(l, h, t))
			return Value{}
		}
	case "verify_checksum", "verify_checksum_with_payload":
		return s.checksum(c, false, c.Callee.Extern == "verify_checksum_with_payload")
	case "update_checksum", "update_checksum_with_payload":
		return s.checksum(c, true, c.Callee.Extern == "update_checksum_with_payload")
	case "digest":
		data, t := s.arg(c, 1), s.argType(c, 1)
		recv := s.arg(c, 0)
		return func(fr *frame) Value {
			fr.sw.Digests = append(fr.sw.Digests, Digest{Receiver: recv(fr).U, Data: serialize(t, data(fr))})
			return Value{}
		}
	case "truncate":
		n := s.arg(c, 0)
		return func(fr *frame) Value {
			fr.sw.truncate = int(n(fr).U)
			return Value{}
		}
	case "assert", "assume":
		cond := s.arg(c, 0)
		where := c.Span()
		return func(fr *frame) Value {
			if cond(fr).U == 0 {
				fr.sw.fault(&PreconditionError{Span: where, Kind: c.Callee.Extern})
			}
			return Value{}
		}
	case "log_msg":
		return func(*frame) Value { return Value{} } // logs go nowhere
	case "clone", "clone_preserving_field_list":
		typ, session := s.arg(c, 0), s.arg(c, 1)
		list := func(*frame) Value { return Value{U: math.MaxUint64} } // none
		if len(c.Args) == 3 {
			list = s.arg(c, 2)
		}
		e2e := uint64(1) // v1model's enum CloneType { I2E, E2E }
		if e := cloneTypeOf(c); e != nil {
			e2e = enumValue(e, "E2E")
		}
		return func(fr *frame) Value {
			r := &fr.sw.req
			r.clone, r.cloneE2E, r.session, r.cloneList = true, typ(fr).U == e2e, session(fr).U, fieldList(list(fr))
			return Value{}
		}
	case "resubmit_preserving_field_list", "recirculate_preserving_field_list":
		list := s.arg(c, 0)
		resubmit := c.Callee.Extern == "resubmit_preserving_field_list"
		return func(fr *frame) Value {
			if resubmit {
				fr.sw.req.resubmit = fieldList(list(fr))
			} else {
				fr.sw.req.recirculate = fieldList(list(fr))
			}
			return Value{}
		}
	}
	s.fail("p4hls's interpreter does not implement extern %s", c.Callee.Extern)
	return func(*frame) Value { return Value{} }
}

// cloneTypeOf is v1model's CloneType, the type of a clone call's first
// argument.
func cloneTypeOf(c *ir.Call) *ir.Enum {
	if k, ok := c.Args[0].Value.(*ir.EnumConst); ok {
		return k.Enum
	}
	e, _ := c.Args[0].Value.Type().(*ir.Enum)
	return e
}

// fieldList is a field list's index, -1 for none (or one past any).
func fieldList(v Value) int {
	if v.U > math.MaxInt32 {
		return -1
	}
	return int(v.U)
}

// hash compiles v1model's hash(out result, algo, base, data, max):
// result = base + H(data) mod max (base when max is 0), truncated to the
// result's width.
func (s *scope) hash(c *ir.Call) evalFn {
	dst, base, data, maxv := s.out(c, 0), s.arg(c, 2), s.arg(c, 3), s.arg(c, 4)
	dataType := s.argType(c, 3)
	algo := enumMemberName(c.Args[1].Value)
	resultType := bitsOf(s.argType(c, 0))
	if _, ok := hashByName(algo, nil, func() uint64 { return 0 }); !ok {
		s.fail("hash algorithm %s is not supported by the interpreter", algo)
	}
	return func(fr *frame) Value {
		h, _ := hashByName(algo, serialize(dataType, data(fr)), fr.sw.rng.Uint64)
		r := new(big.Int).SetUint64(h)
		if m := bigOf(maxv(fr)); m.Sign() != 0 {
			r.Mod(r, m)
		} else {
			r.SetInt64(0)
		}
		r.Add(r, bigOf(base(fr)))
		write(dst(fr), fromBig(r, resultType))
		return Value{}
	}
}

// enumMemberName returns the member an enum constant names ("crc16").
func enumMemberName(e ir.Expr) string {
	if c, ok := e.(*ir.EnumConst); ok {
		return c.Member
	}
	return ""
}

// checksum compiles verify_checksum and update_checksum (csum16 only, as
// v1model's BMv2 implementation supports for IPv4 and most programs use).
func (s *scope) checksum(c *ir.Call, update, withPayload bool) evalFn {
	cond, data, sum := s.arg(c, 0), s.arg(c, 1), s.out(c, 2)
	dataType := s.argType(c, 1)
	sumType := bitsOf(s.argType(c, 2))
	algo := enumMemberName(c.Args[3].Value)
	if _, ok := hashByName(algo, nil, func() uint64 { return 0 }); !ok {
		s.fail("checksum algorithm %s is not supported by the interpreter", algo)
	}
	checksumErr := s.sw.stdField("checksum_error")
	return func(fr *frame) Value {
		if cond(fr).U == 0 {
			return Value{}
		}
		bytes := serialize(dataType, data(fr))
		if withPayload {
			bytes = append(bytes, fr.sw.payload...)
		}
		h, _ := hashByName(algo, bytes, fr.sw.rng.Uint64)
		v := fromBig(new(big.Int).SetUint64(h), sumType)
		p := sum(fr)
		if update {
			write(p, v)
			return Value{}
		}
		if p != nil && !equal(*p, v) && checksumErr >= 0 {
			fr.sw.std.Agg.Fields[checksumErr] = Value{U: 1}
		}
		return Value{}
	}
}

// callFunction compiles a call of a function declared in the program: a
// frame of its own, arguments copied in and (out, inout) copied back.
func (s *scope) callFunction(c *ir.Call) evalFn {
	fn := s.sw.function(c.Callee.Func)
	args := make([]evalFn, len(c.Args))
	var back []func(fr, callee *frame)
	for i, a := range c.Args {
		args[i] = s.arg(c, i)
		if (a.Dir == ir.DirOut || a.Dir == ir.DirInOut) && a.Value != nil {
			dst, slot := s.store(a.Value), fn.params[i]
			back = append(back, func(fr, callee *frame) { dst(fr, callee.slots[slot]) })
		}
	}
	return func(fr *frame) Value {
		callee := &frame{sw: fr.sw, pkt: fr.pkt, slots: make([]Value, fn.nslots)}
		for i, a := range args {
			callee.slots[fn.params[i]] = copyValue(a(fr))
		}
		fn.body(callee)
		for _, b := range back {
			b(fr, callee)
		}
		return callee.ret
	}
}

// compiledFunction is a function, compiled once in its own scope.
type compiledFunction struct {
	params []int
	nslots int
	body   execFn
}

func (sw *Switch) function(f *ir.Function) *compiledFunction {
	if cf, ok := sw.functions[f]; ok {
		return cf
	}
	cf := &compiledFunction{}
	sw.functions[f] = cf
	sc := newScope(sw)
	for _, p := range f.Params {
		cf.params = append(cf.params, sc.slot(p))
	}
	cf.body = sc.block(f.Body)
	cf.nslots = sc.nslots
	sw.compileErrs = append(sw.compileErrs, sc.errs...)
	return cf
}

// emit writes the valid headers of v (a header, or a struct, union or
// stack of them) and records where each one went.
func (sw *Switch) emit(p *packet, name string, t ir.Type, v Value) {
	switch t := t.(type) {
	case *ir.Struct:
		if t.Kind == ir.KindHeader {
			if v.Agg.Valid {
				sw.emitted = append(sw.emitted, EmittedHeader{Name: name, Type: t, OffsetBit: p.outBits})
				p.writeValue(t, v, true)
			}
			return
		}
		for i, f := range t.Fields {
			sw.emit(p, name+"."+f.Name, f.Type, v.Agg.Fields[i])
		}
	case *ir.Stack:
		for i, e := range v.Agg.Fields {
			sw.emit(p, fmt.Sprintf("%s[%d]", name, i), t.Elem, e)
		}
	default:
		p.writeValue(t, v, true)
	}
}
