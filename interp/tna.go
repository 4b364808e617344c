package interp

import (
	"fmt"
	"math/big"

	"github.com/p4hls/p4hls/ir"
)

// TNA: the interpreter runs a Tofino Native Architecture program (the
// bundled tna.p4) as p4hls models it. The ingress parser sees the
// packet behind the ingress intrinsic metadata (the ingress port) and 8
// bytes of port metadata; the ingress deparser's output, with the
// unparsed payload, goes to the egress parser behind the egress intrinsic
// metadata (the egress port and the length); bit 0 of either deparser's
// drop_ctl drops the packet; the output port is the ingress control's
// ucast_egress_port (0 when it is never set: the model does not drop a
// packet that has no destination, as the hardware would; a multicast
// group the control plane configured (SetMulticastGroup) sends a copy
// through the egress for each of its replicas, with its port and
// egress_rid). Hash units compute as v1model's hash of the same name (CRC16
// as crc16, ...). Meters return TNA's colours (red 3) for the colours
// SetMeterColor sets; a Digest packed by the ingress deparser goes to the
// receiver the ingress's digest_type names.

// tnaPipe is a TNA program's six blocks, compiled.
type tnaPipe struct {
	igParser, egParser               *compiledParser
	ig, igDeparser, eg, egDeparser   *compiledControl
	igHdr, igMeta, egHdr, egMeta     ir.Type
	igIntr, igPrsr, igDprsr, igTM    *ir.Struct
	egIntr, egPrsr, egDprsr, egOport *ir.Struct
}

// portMetadataBytes is what the ingress parser skips after the ingress
// intrinsic metadata (tna.p4's PORT_METADATA_SIZE, 64 bits).
const portMetadataBytes = 8

// FCSBytes is the Ethernet frame check sequence a packet arrives with.
// The egress's pkt_length is the packet's length as it entered the
// ingress, FCS included: the traffic manager adds nothing for headers the
// ingress added or removed, nor for bridged metadata (bf-p4c's
// AdjustEgressPacketLength says so). The model's packets carry no FCS, so
// it adds the 4 bytes there.
const FCSBytes = 4

func newTNA(sw *Switch, prog *ir.Program) (*tnaPipe, error) {
	b := prog.Pipeline
	if len(b) != ir.TNABlocks || b[ir.TNAIngressParser].Parser == nil || b[ir.TNAIngress].Control == nil || b[ir.TNAIngressDeparser].Control == nil ||
		b[ir.TNAEgressParser].Parser == nil || b[ir.TNAEgress].Control == nil || b[ir.TNAEgressDeparser].Control == nil {
		return nil, fmt.Errorf("interp: a TNA pipeline is a parser, a control, a deparser, for ingress and for egress: %w", ErrUnsupported)
	}
	for _, blk := range []*ir.PipeBlock{b[ir.TNAIngress], b[ir.TNAEgress]} {
		if len(blk.Control.Params) != 6 {
			return nil, fmt.Errorf("interp: control %s has %d parameters, TNA needs 6: %w", blk.Control.Name, len(blk.Control.Params), ErrUnsupported)
		}
	}
	for _, blk := range []*ir.PipeBlock{b[ir.TNAIngressParser], b[ir.TNAEgressParser]} {
		if len(blk.Parser.Params) != 4 {
			return nil, fmt.Errorf("interp: parser %s has %d parameters, TNA's has 4: %w", blk.Parser.Name, len(blk.Parser.Params), ErrUnsupported)
		}
	}
	st := func(v *ir.Var) *ir.Struct { s, _ := v.Type.(*ir.Struct); return s }
	ig, eg := b[ir.TNAIngress].Control.Params, b[ir.TNAEgress].Control.Params
	t := &tnaPipe{
		igParser: sw.compileParser(b[ir.TNAIngressParser].Parser), ig: sw.compileControl(b[ir.TNAIngress].Control), igDeparser: sw.compileControl(b[ir.TNAIngressDeparser].Control),
		egParser: sw.compileParser(b[ir.TNAEgressParser].Parser), eg: sw.compileControl(b[ir.TNAEgress].Control), egDeparser: sw.compileControl(b[ir.TNAEgressDeparser].Control),
		igHdr: b[ir.TNAIngressParser].Parser.Params[1].Type, igMeta: b[ir.TNAIngressParser].Parser.Params[2].Type,
		egHdr: b[ir.TNAEgressParser].Parser.Params[1].Type, egMeta: b[ir.TNAEgressParser].Parser.Params[2].Type,
		igIntr: st(ig[2]), igPrsr: st(ig[3]), igDprsr: st(ig[4]), igTM: st(ig[5]),
		egIntr: st(eg[2]), egPrsr: st(eg[3]), egDprsr: st(eg[4]), egOport: st(eg[5]),
	}
	for _, s := range []*ir.Struct{t.igIntr, t.igPrsr, t.igDprsr, t.igTM, t.egIntr, t.egPrsr, t.egDprsr, t.egOport} {
		if s == nil {
			return nil, fmt.Errorf("interp: a TNA control's intrinsic metadata parameters must be the tna.p4 structs: %w", ErrUnsupported)
		}
	}
	return t, nil
}

// withFields returns a value of struct type t with the named fields set.
func withFields(t *ir.Struct, fields map[string]uint64) Value {
	v := zero(t)
	v.Agg.Valid = true
	for name, x := range fields {
		if _, i := t.Field(name); i >= 0 {
			v.Agg.Fields[i] = fromBig(new(big.Int).SetUint64(x), bitsOf(t.Fields[i].Type))
		}
	}
	return v
}

func field(v Value, t *ir.Struct, name string) uint64 {
	if _, i := t.Field(name); i >= 0 {
		return bigOf(v.Agg.Fields[i]).Uint64()
	}
	return 0
}

// tnaHalf is ingress or egress: a parser, a control and a deparser, and
// the types of the control's parameters.
type tnaHalf struct {
	parser                  *compiledParser
	control, deparser       *compiledControl
	hdr, meta               ir.Type
	intr, prsr, dprsr, last *ir.Struct
}

func (t *tnaPipe) halves() (ingress, egress tnaHalf) {
	return tnaHalf{t.igParser, t.ig, t.igDeparser, t.igHdr, t.igMeta, t.igIntr, t.igPrsr, t.igDprsr, t.igTM},
		tnaHalf{t.egParser, t.eg, t.egDeparser, t.egHdr, t.egMeta, t.egIntr, t.egPrsr, t.egDprsr, t.egOport}
}

// run runs a half on the bytes its parser sees; it returns the deparsed
// bytes with the payload, the deparser's metadata and the control's last
// parameter (ingress: the traffic manager's).
func (h tnaHalf) run(sw *Switch, in []byte) (out []byte, dprsr, last Value) {
	hdr, meta, intr := zero(h.hdr), zero(h.meta), zero(h.intr)
	pkt := &packet{data: in}
	clear(sw.checksumData)
	perr := sw.runParserBlock(h.parser, pkt, hdr, meta, intr)
	payload := in[min(len(in), (pkt.pos+7)/8):]
	prsr := withFields(h.prsr, map[string]uint64{"parser_err": sw.tnaParserErr(perr)})
	dprsr, last = zero(h.dprsr), zero(h.last)
	sw.runControl(h.control, pkt, hdr, meta, intr, prsr, dprsr, last)
	pkt.out, pkt.outBits = nil, 0
	sw.emitted = sw.emitted[:0]
	sw.runControl(h.deparser, pkt, Value{}, hdr, meta, dprsr)
	return append(pkt.out, payload...), dprsr, last
}

// Tofino's parser_err flags (tna.p4's PARSER_ERROR_*).
const (
	tnaErrNoMatch       = 0x0001 // NO_MATCH
	tnaErrPartialHeader = 0x0002 // PARTIAL_HDR
	tnaErrTimeout       = 0x0010 // TIMEOUT_HW
)

// tnaParserErr is a parser error as Tofino's parser_err flags. The model
// sets no flag for the errors it knows no flag of (a header stack
// overflowing, a verify's).
func (sw *Switch) tnaParserErr(perr int) uint64 {
	switch perr {
	case 0:
		return 0
	case sw.errPacketTooShort:
		return tnaErrPartialHeader
	case sw.errorIndex("NoMatch"):
		return tnaErrNoMatch
	case sw.errParserTimeout:
		return tnaErrTimeout
	}
	return 0
}

// processTNA runs one packet through a TNA program.
func (sw *Switch) processTNA(port uint64, data []byte) (*Output, error) {
	t := sw.tna
	sw.faultErr = nil
	sw.frames = map[*compiledControl]*frame{}
	ingress, egress := t.halves()
	intr := serialize(t.igIntr, withFields(t.igIntr, map[string]uint64{"ingress_port": port}))
	sent := len(sw.Digests)
	deparsed, dprsr, tm := ingress.run(sw, append(append(intr, make([]byte, portMetadataBytes)...), data...))
	for i := sent; i < len(sw.Digests); i++ {
		sw.Digests[i].Receiver = field(dprsr, t.igDprsr, "digest_type")
	}
	if field(dprsr, t.igDprsr, "drop_ctl")&1 == 1 {
		return &Output{Dropped: true}, sw.faultErr
	}
	reps := []Replica{{Port: field(tm, t.igTM, "ucast_egress_port")}}
	if grp := sw.groups[field(tm, t.igTM, "mcast_grp_a")]; len(grp) > 0 {
		reps = grp // the traffic manager's copies, each through the egress
	}
	var outs []*Output
	for _, r := range reps {
		eintr := serialize(t.egIntr, withFields(t.egIntr, map[string]uint64{"egress_port": r.Port, "egress_rid": r.Rid, "pkt_length": uint64(len(data) + FCSBytes)}))
		out, edprsr, _ := egress.run(sw, append(eintr, deparsed...))
		if field(edprsr, t.egDprsr, "drop_ctl")&1 == 0 {
			outs = append(outs, &Output{Port: r.Port, Data: out, Emitted: append([]EmittedHeader(nil), sw.emitted...)})
		}
	}
	if len(outs) == 0 {
		return &Output{Dropped: true}, sw.faultErr
	}
	outs[0].Copies = outs[1:]
	return outs[0], sw.faultErr
}

// runControl runs a control with its parameters bound to args.
func (sw *Switch) runControl(cc *compiledControl, pkt *packet, args ...Value) {
	fr := sw.frame(cc, pkt)
	for j, slot := range cc.params {
		if j < len(args) {
			fr.slots[slot] = args[j]
		}
	}
	cc.body(fr)
}

// tnaMethod compiles a method of a TNA extern instance, or returns nil.
func (s *scope) tnaMethod(c *ir.Call, name string, inst *ir.Instance) evalFn {
	switch name {
	case "RegisterAction.execute":
		return s.registerAction(c, inst)
	case "Hash.get":
		algo := tnaHashNames[enumMemberName(firstArg(inst))]
		if _, ok := hashByName(algo, nil, func() uint64 { return 0 }); !ok {
			s.fail("Hash %s: algorithm %s is not supported by the interpreter", inst.Name, enumMemberName(firstArg(inst)))
		}
		data, dataType, rt := s.arg(c, 0), s.argType(c, 0), bitsOf(c.T)
		return func(fr *frame) Value {
			h, _ := hashByName(algo, serialize(dataType, data(fr)), fr.sw.rng.Uint64)
			return fromBig(new(big.Int).SetUint64(h), rt)
		}
	case "Checksum.add":
		// A parser's unit sums what it is given over the packet (run
		// clears it); verify holds when the sum is 0xFFFF (csum16 0).
		x, t := s.arg(c, 0), s.argType(c, 0)
		return func(fr *frame) Value {
			fr.sw.checksumData[inst] = append(fr.sw.checksumData[inst], serialize(t, x(fr))...)
			return Value{}
		}
	case "Checksum.verify":
		return func(fr *frame) Value {
			if csum16(fr.sw.checksumData[inst]) == 0 {
				return Value{U: 1}
			}
			return Value{U: 0}
		}
	case "Checksum.update":
		x, t := s.arg(c, 0), s.argType(c, 0)
		return func(fr *frame) Value { return Value{U: uint64(csum16(serialize(t, x(fr))))} }
	case "Meter.execute":
		idx := s.arg(c, 0)
		return func(fr *frame) Value { return Value{U: tnaColor(fr.sw.meterColor(inst, idx(fr).U))} }
	case "DirectMeter.execute":
		return func(fr *frame) Value { return Value{U: tnaColor(fr.sw.meterColor(inst, 0))} }
	case "Digest.pack":
		// The receiver is the digest_type the ingress set; processTNA
		// fills it in when the deparser is done.
		data, t := s.arg(c, 0), s.argType(c, 0)
		return func(fr *frame) Value {
			fr.sw.Digests = append(fr.sw.Digests, Digest{Data: serialize(t, data(fr))})
			return Value{}
		}
	case "Random.get":
		rt := bitsOf(c.T)
		return func(fr *frame) Value {
			return fromBig(new(big.Int).SetUint64(fr.sw.rng.Uint64()), rt)
		}
	}
	return nil
}

// tnaColor is a colour (as SetMeterColor takes it: v1model's numbers) as
// a TNA meter returns it: green 0, yellow 1, red 3.
func tnaColor(c uint64) uint64 {
	if c == 2 {
		return 3
	}
	return c
}

// tnaHashNames maps tna.p4's HashAlgorithm_t to the interpreter's hashes.
var tnaHashNames = map[string]string{"IDENTITY": "identity", "RANDOM": "random", "CRC16": "crc16", "CRC32": "crc32"}

func firstArg(inst *ir.Instance) ir.Expr {
	if len(inst.Args) == 0 {
		return nil
	}
	return inst.Args[0]
}

// registerAction compiles RegisterAction.execute(index): the action's
// apply runs on the register cell (value, written back) and returns rv.
// apply is compiled in the scope of the call, so that, as on Tofino, it
// reads the control's fields and locals.
func (s *scope) registerAction(c *ir.Call, inst *ir.Instance) evalFn {
	apply := inst.Method("apply")
	ref, _ := firstArg(inst).(*ir.InstanceRef)
	if apply == nil || ref == nil || len(apply.Params) < 1 {
		s.fail("RegisterAction %s has no apply method or no register", inst.Name)
		return func(*frame) Value { return Value{} }
	}
	reg := ref.Inst
	value, rv := s.slot(apply.Params[0]), -1
	if len(apply.Params) > 1 {
		rv = s.slot(apply.Params[1])
	}
	body := s.block(apply.Body)
	idx := s.arg(c, 0)
	rvType := c.T
	return func(fr *frame) Value {
		i := idx(fr).U
		fr.slots[value] = fr.sw.registerRead(reg, i)
		if rv >= 0 {
			fr.slots[rv] = zero(rvType)
		}
		body(fr)
		fr.sw.registerWrite(reg, i, fr.slots[value])
		if rv >= 0 {
			return fr.slots[rv]
		}
		return zero(rvType)
	}
}
