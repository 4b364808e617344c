package tna

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// Counters and meters. v1model's counter, direct_counter, meter and
// direct_meter are TNA's Counter, DirectCounter, Meter and DirectMeter; a
// table's counters and meters properties stay as they are. A TNA meter
// returns its colour (execute) where v1model's writes it to an out
// argument, and encodes red as 3 where v1model has 2, so each read is
// written as two statements: the colour into a control local, then into
// the program's field translated.

// colorLocal holds a TNA meter's colour before it is translated.
const (
	colorLocal     = "p4hls_color"
	colorLocalDecl = "bit<8> " + colorLocal + "; // a meter's colour, TNA's encoding"
)

// isCounterOrMeter reports whether an instance is a v1model counter or
// meter, which counterOrMeter writes.
func isCounterOrMeter(inst *ir.Instance) bool {
	switch inst.Type.Name {
	case "counter", "direct_counter", "meter", "direct_meter":
		return true
	}
	return false
}

// counterWidth is the width of a TNA counter's cells: v1model counters
// are at least this wide (BMv2 keeps 64-bit packet and byte counts).
const counterWidth = "bit<64>"

// counterOrMeter writes the TNA declaration of a v1model counter or meter
// instance (and, with the control's first meter, colorLocal); it reports
// false for other externs.
func (e *emitter) counterOrMeter(inst *ir.Instance) bool {
	kind := func(i int) string { // the CounterType or MeterType argument
		if i < len(inst.Args) {
			if en, ok := inst.Args[i].(*ir.EnumConst); ok {
				return strings.ToUpper(en.Member)
			}
		}
		return "PACKETS"
	}
	size := "32w1"
	if len(inst.Args) > 1 {
		size = ir.Format(inst.Args[0])
	}
	var decl string
	switch inst.Type.Name {
	case "counter":
		decl = fmt.Sprintf("Counter<%s, %s>(%s, CounterType_t.%s)", counterWidth, indexType(inst), size, kind(1))
	case "direct_counter":
		decl = fmt.Sprintf("DirectCounter<%s>(CounterType_t.%s)", counterWidth, kind(0))
	case "meter":
		decl = fmt.Sprintf("Meter<%s>(%s, MeterType_t.%s)", indexType(inst), size, kind(1))
	case "direct_meter":
		decl = fmt.Sprintf("DirectMeter(MeterType_t.%s)", kind(0))
	default:
		return false
	}
	if strings.HasSuffix(inst.Type.Name, "meter") && !e.usesMeters { // the control's first meter
		e.usesMeters = true
		e.locals = append(e.locals, colorLocalDecl)
	}
	e.decls = append(e.decls, fmt.Sprintf("    %s %s;\n", decl, inst.Name))
	return true
}

// word32 is v1model's index type where an extern declares none.
var word32 = &ir.Bits{Width: 32}

// indexType is the type that indexes a v1model register, counter or meter:
// its last type argument (register<T, I>, counter<I>, meter<I>), or
// bit<32> for the forms without one (register<T>, and the non-generic
// counter and meter of V1MODEL_VERSION before 20200408).
func indexType(inst *ir.Instance) ir.Type {
	args := inst.Type.Args
	if inst.Type.Name == "register" && len(args) < 2 || len(args) == 0 {
		return word32
	}
	return args[len(args)-1]
}

// meterOrCounterCall translates a call of a counter's or a meter's method
// (nil, false when s calls something else).
func meterOrCounterCall(s *ir.CallStmt) ([]ir.Stmt, bool) {
	ref, ok := s.Call.Callee.Recv.(*ir.InstanceRef)
	if !ok {
		return nil, false
	}
	args := s.Call.Args
	switch ref.Inst.Type.Name + "." + s.Call.Callee.Method {
	case "counter.count", "direct_counter.count":
		return []ir.Stmt{s}, true
	case "meter.execute_meter":
		if len(args) == 2 {
			return readColor(ref, []*ir.Arg{args[0]}, args[1].Value), true
		}
	case "direct_meter.read":
		if len(args) == 1 {
			return readColor(ref, nil, args[0].Value), true
		}
	}
	return nil, false
}

// readColor executes a TNA meter and writes its colour to dst in
// v1model's encoding: green 0 and yellow 1 stay, red 3 becomes 2, which
// is c ^ (c >> 1) (one VLIW operation each, where a choice is not).
func readColor(meter *ir.InstanceRef, args []*ir.Arg, dst ir.Expr) []ir.Stmt {
	byte8 := &ir.Bits{Width: 8}
	c := &ir.VarRef{Var: &ir.Var{Name: colorLocal, Type: byte8}}
	exec := &ir.Call{Callee: ir.Callee{Recv: meter, Method: "execute"}, Args: args, T: byte8}
	one := &ir.Const{T: byte8, Value: big.NewInt(1)}
	var v ir.Expr = &ir.Binary{Op: ir.BitXor, X: c, Y: &ir.Binary{Op: ir.Shr, X: c, Y: one, T: byte8}, T: byte8}
	if b, ok := dst.Type().(*ir.Bits); !ok || b.Width != 8 || b.Signed {
		v = &ir.Cast{T: dst.Type(), X: v}
	}
	return []ir.Stmt{&ir.Assign{LHS: c, RHS: exec}, &ir.Assign{LHS: dst, RHS: v}}
}
