// Package interp is the reference interpreter of p4hls: it runs an
// ir.Program on packets and state, and what it computes is the meaning of
// the program. Every later phase is checked against it.
//
// It runs the v1model pipeline on raw packet bytes: parser, verify
// checksum, ingress, egress, compute checksum, deparser. Packets go one at
// a time, so an @atomic block is simply run to completion: the serial
// meaning later phases must preserve.
package interp

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"slices"

	"github.com/p4hls/p4hls/ir"
)

// dropPort is the egress_spec value mark_to_drop sets (BMv2's drop port).
const dropPort = 511

// maxParserSteps bounds parser state transitions per packet: a parser that
// loops without consuming input stops with error.ParserTimeout.
const maxParserSteps = 10000

// ErrUnsupported is wrapped by New when the program uses something the
// interpreter cannot run.
var ErrUnsupported = errors.New("not supported by the interpreter")

// Options configure a Switch.
type Options struct {
	// Seed seeds random() and the random hash, for repeatable runs.
	Seed int64
	// Override replaces the bodies of some actions: the pipeline model runs
	// synthesized actions as configured ALUs this way.
	Override map[*ir.Action]*Override
}

// Override is a replacement body for an action. Fields are storage the
// replacement reads and writes: lvalue expressions in the action's scope,
// each at most 64 bits wide. Run gets their values before the action and
// updates them in place; the interpreter writes every field back. Through
// Registers it reads and writes register cells.
type Override struct {
	Fields []ir.Expr
	Run    func(vals []uint64, regs Registers)
}

// Registers gives an override access to register cells.
type Registers interface {
	Read(reg *ir.Instance, index uint64) uint64
	Write(reg *ir.Instance, index uint64, v uint64)
}

// registers adapts a Switch to Registers.
type registers struct{ sw *Switch }

func (r registers) Read(reg *ir.Instance, i uint64) uint64 {
	v := r.sw.registerRead(reg, i)
	if v.Big != nil {
		return v.Big.Uint64()
	}
	return v.U
}

func (r registers) Write(reg *ir.Instance, i uint64, v uint64) {
	r.sw.registerWrite(reg, i, fromBig(new(big.Int).SetUint64(v), bitsOf(reg.Type.Args[0])))
}

// Digest is a message a program sent to the control plane.
type Digest struct {
	Receiver uint64
	Data     []byte
}

// Output is what one packet produced.
type Output struct {
	// Dropped is set when the packet left no output.
	Dropped bool
	Port    uint64
	Data    []byte
	// Emitted lists the headers the deparser wrote, with their bit offsets,
	// to explain a mismatch field by field.
	Emitted []EmittedHeader
	// Digests are the digests the packet sent (a dropped packet may send
	// some too).
	Digests []Digest
	// Copies are the other copies of a packet a multicast group
	// replicated (SetMulticastGroup), in the group's order after this one;
	// a copy the egress dropped is left out.
	Copies []*Output
}

// Replica is one copy a multicast group makes: the port it goes out of
// and its replication id (the egress sees it as egress_rid).
type Replica struct {
	Port, Rid uint64
}

// EmittedHeader is a header the deparser wrote, at a bit offset of the output.
type EmittedHeader struct {
	Name      string
	Type      *ir.Struct
	OffsetBit int
}

// Switch is a program ready to run, with its state: tables, registers,
// counters, meters. It is not safe for concurrent use.
type Switch struct {
	prog *ir.Program
	opts Options

	parser   *compiledParser
	controls []*compiledControl // verify, ingress, egress, compute, deparser
	hdrType  ir.Type
	metaType ir.Type
	stdType  *ir.Struct

	compiledTables map[*ir.Table]*compiledTable
	tables         map[*ir.Table]*tableState
	tablesByName   map[string]*ir.Table
	functions      map[*ir.Function]*compiledFunction
	instances      map[string]*ir.Instance
	registers      map[*ir.Instance][]Value
	counters       map[*ir.Instance][]Counter
	meterColors    map[*ir.Instance]map[uint64]uint64
	valueSets      map[*ir.ValueSet][]*big.Int
	errorIndex_    map[string]int
	checksumData   map[*ir.Instance][]byte // what a TNA parser's Checksum units were given

	errPacketTooShort, errStackOutOfBounds, errParserTimeout int
	errHeaderTooShort, errParserInvalidArgument              int

	rng *rand.Rand
	// Digests collects the digests the program sent.
	Digests []Digest

	// Per packet. hdr, meta and std are allocated once and reset for each
	// packet; frames too.
	hdr, meta Value
	std       Value // standard_metadata of the packet being processed
	frames    map[*compiledControl]*frame
	pframes   map[*compiledParser]*frame
	pkt       packet // the packet being processed; its out buffer is reused
	stdIdx    map[string]int
	payload   []byte
	emitted   []EmittedHeader
	truncate  int
	faultErr  error

	// groups are the multicast groups the control plane configured; a
	// group not configured sends the one copy the egress port 0 gets.
	groups map[uint64][]Replica
	// mirrors are the clone sessions' ports (SetMirrorSession).
	mirrors map[uint64]uint64
	// req is what the block running asked of resubmit, recirculation and
	// clones; later the packets they made, still to run; outs what the
	// packet's passes sent out (special.go).
	req   requests
	later []laterPass
	outs  []*Output

	compileErrs []error
	// tna is a TNA program's pipeline (nil for v1model).
	tna *tnaPipe
}

// Counter is a packet and byte count.
type Counter struct {
	Packets, Bytes uint64
}

// New compiles a program for the interpreter. The program must be a
// v1model program (its Pipeline has the six v1model blocks).
func New(prog *ir.Program, opts Options) (*Switch, error) {
	sw := &Switch{
		prog:           prog,
		opts:           opts,
		compiledTables: map[*ir.Table]*compiledTable{},
		tables:         map[*ir.Table]*tableState{},
		tablesByName:   map[string]*ir.Table{},
		functions:      map[*ir.Function]*compiledFunction{},
		instances:      map[string]*ir.Instance{},
		registers:      map[*ir.Instance][]Value{},
		counters:       map[*ir.Instance][]Counter{},
		meterColors:    map[*ir.Instance]map[uint64]uint64{},
		valueSets:      map[*ir.ValueSet][]*big.Int{},
		errorIndex_:    map[string]int{},
		checksumData:   map[*ir.Instance][]byte{},
		rng:            rand.New(rand.NewSource(opts.Seed)),
	}
	for i, e := range prog.Errors {
		sw.errorIndex_[e] = i
	}
	sw.errPacketTooShort = sw.errorIndex("PacketTooShort")
	sw.errStackOutOfBounds = sw.errorIndex("StackOutOfBounds")
	sw.errParserTimeout = sw.errorIndex("ParserTimeout")
	sw.errHeaderTooShort = sw.errorIndex("HeaderTooShort")
	sw.errParserInvalidArgument = sw.errorIndex("ParserInvalidArgument")
	if prog.Arch != ir.V1Model && prog.Arch != ir.TNA || len(prog.Pipeline) != ir.V1Blocks || prog.Pipeline[0].Parser == nil {
		return nil, fmt.Errorf("interp: the program is neither a v1model program (a V1Switch main instance) nor a TNA one: %w", ErrUnsupported)
	}
	for _, inst := range prog.Instances {
		sw.addInstance(inst)
	}
	for _, c := range prog.Controls {
		for _, inst := range c.Instances {
			sw.addInstance(inst)
		}
		for _, t := range c.Tables {
			sw.tableState(t)
			sw.tablesByName[t.Name] = t
			sw.tablesByName[c.Name+"."+t.Name] = t
		}
	}
	for _, p := range prog.Parsers {
		for _, inst := range p.Instances {
			sw.addInstance(inst)
		}
	}
	if prog.Arch == ir.TNA {
		t, err := newTNA(sw, prog)
		if err != nil {
			return nil, err
		}
		sw.tna = t
		if err := errors.Join(sw.compileErrs...); err != nil {
			return nil, fmt.Errorf("interp: %w: %w", ErrUnsupported, err)
		}
		sw.installDefaults()
		return sw, nil
	}
	p := prog.Pipeline[ir.V1Parser].Parser
	if len(p.Params) != 4 {
		return nil, fmt.Errorf("interp: parser %s has %d parameters, v1model needs 4: %w", p.Name, len(p.Params), ErrUnsupported)
	}
	sw.hdrType, sw.metaType = p.Params[1].Type, p.Params[2].Type
	std, ok := p.Params[3].Type.(*ir.Struct)
	if !ok {
		return nil, fmt.Errorf("interp: parser %s: the 4th parameter is not standard_metadata_t: %w", p.Name, ErrUnsupported)
	}
	sw.stdType = std
	sw.parser = sw.compileParser(p)
	for _, b := range prog.Pipeline[ir.V1Parser+1:] {
		if b.Control == nil {
			return nil, fmt.Errorf("interp: v1model block %s is not a control: %w", b.Param, ErrUnsupported)
		}
		sw.controls = append(sw.controls, sw.compileControl(b.Control))
	}
	if err := errors.Join(sw.compileErrs...); err != nil {
		return nil, fmt.Errorf("interp: %w: %w", ErrUnsupported, err)
	}
	sw.installDefaults()
	return sw, nil
}

func (sw *Switch) addInstance(inst *ir.Instance) {
	sw.instances[inst.Name] = inst
	size := 1
	if len(inst.Args) > 0 {
		if c, ok := inst.Args[0].(*ir.Const); ok && c.Value.IsInt64() {
			size = int(c.Value.Int64())
		}
	}
	switch inst.Type.Name {
	case "register", "Register":
		vals := make([]Value, size)
		for i := range vals {
			vals[i] = zero(inst.Type.Args[0])
		}
		sw.registers[inst] = vals
	case "counter", "direct_counter", "Counter", "DirectCounter":
		sw.counters[inst] = make([]Counter, size)
	case "meter", "direct_meter", "Meter", "DirectMeter":
		sw.meterColors[inst] = map[uint64]uint64{}
	}
}

func (sw *Switch) tableState(t *ir.Table) *tableState {
	if ts, ok := sw.tables[t]; ok {
		return ts
	}
	ts := newTableState(t)
	sw.tables[t] = ts
	return ts
}

func (sw *Switch) errorIndex(name string) int {
	if i, ok := sw.errorIndex_[name]; ok {
		return i
	}
	return 0
}

// stdField is the index of a standard_metadata field, or -1.
func (sw *Switch) stdField(name string) int {
	if sw.stdType == nil {
		return -1
	}
	if i, ok := sw.stdIdx[name]; ok {
		return i
	}
	_, i := sw.stdType.Field(name)
	if sw.stdIdx == nil {
		sw.stdIdx = map[string]int{}
	}
	sw.stdIdx[name] = i
	return i
}

// fault records the first run-time error of the packet being processed.
func (sw *Switch) fault(err error) {
	if sw.faultErr == nil {
		sw.faultErr = err
	}
}

// ------------------------------------------------------------------ parsers and controls

type compiledParser struct {
	sc     *scope
	params [4]int
	// locals are the parser's locals (a sub-parser's parameters and
	// locals, once the frontend inlines it), zeroed per packet.
	locals []*ir.Var
	slots  []int
	states []compiledState
	start  int
}

type compiledState struct {
	name string
	body execFn
	next func(fr *frame) int // the next state's index; stateAccept or stateReject
}

const (
	stateAccept = -1
	stateReject = -2
)

func (sw *Switch) compileParser(p *ir.Parser) *compiledParser {
	sc := newScope(sw)
	cp := &compiledParser{sc: sc}
	for i, param := range p.Params {
		cp.params[i] = sc.slot(param)
	}
	for _, v := range p.Locals {
		cp.locals = append(cp.locals, v)
		cp.slots = append(cp.slots, sc.slot(v))
	}
	index := map[string]int{ir.StateAccept: stateAccept, ir.StateReject: stateReject}
	for i, st := range p.States {
		index[st.Name] = i
	}
	cp.start = index["start"]
	for _, st := range p.States {
		cs := compiledState{name: st.Name, body: sc.block(st.Body)}
		if st.Select == nil {
			next := index[st.Next]
			cs.next = func(*frame) int { return next }
		} else {
			cs.next = sc.selectFn(st.Select, index)
		}
		cp.states = append(cp.states, cs)
	}
	sw.compileErrs = append(sw.compileErrs, sc.errs...)
	return cp
}

// selectFn compiles a select: the first case whose keysets all match wins;
// no match is error.NoMatch.
func (s *scope) selectFn(sel *ir.Select, index map[string]int) func(fr *frame) int {
	exprs := make([]evalFn, len(sel.Exprs))
	for i, e := range sel.Exprs {
		exprs[i] = s.expr(e)
	}
	type arm struct {
		keys []*ir.Keyset
		next int
	}
	arms := make([]arm, len(sel.Cases))
	for i, c := range sel.Cases {
		arms[i] = arm{keys: c.Keys, next: index[c.Next]}
	}
	noMatch := s.sw.errorIndex("NoMatch")
	return func(fr *frame) int {
		vals := make([]Value, len(exprs))
		for i, e := range exprs {
			vals[i] = e(fr)
		}
		for _, a := range arms {
			if keysetsMatch(fr.sw, a.keys, vals) {
				return a.next
			}
		}
		fr.parserError(noMatch)
		return stateReject
	}
}

func keysetsMatch(sw *Switch, keys []*ir.Keyset, vals []Value) bool {
	for i, k := range keys {
		if i >= len(vals) {
			return false
		}
		v := vals[i]
		switch k.Kind {
		case ir.KeysetDefault:
		case ir.KeysetExact:
			if !eqBig(v, k.Value) {
				return false
			}
		case ir.KeysetMask:
			if !maskedEq(v, k.Value, k.Mask) {
				return false
			}
		case ir.KeysetRange:
			b := bigOf(v)
			if b.Cmp(k.Value) < 0 || b.Cmp(k.Hi) > 0 {
				return false
			}
		case ir.KeysetValueSet:
			if !sw.valueSetHas(k.ValueSet, v) {
				return false
			}
		}
	}
	return true
}

// valueSetHas reports whether a value_set holds v. Value sets are filled by
// the control plane; the interpreter's are empty unless a test fills them.
func (sw *Switch) valueSetHas(vs *ir.ValueSet, v Value) bool {
	for _, x := range sw.valueSets[vs] {
		if eqBig(v, x) {
			return true
		}
	}
	return false
}

type compiledControl struct {
	c      *ir.Control
	params []int
	// locals are the slots of the control's locals, zeroed per packet.
	locals []int
	nslots int
	body   execFn
}

func (sw *Switch) compileControl(c *ir.Control) *compiledControl {
	sc := newScope(sw)
	cc := &compiledControl{c: c}
	for _, p := range c.Params {
		cc.params = append(cc.params, sc.slot(p))
	}
	for _, v := range c.Locals {
		cc.locals = append(cc.locals, sc.slot(v))
	}
	cc.body = sc.block(c.Body)
	cc.nslots = sc.nslots
	sw.compileErrs = append(sw.compileErrs, sc.errs...)
	return cc
}

// ------------------------------------------------------------------ frames

// parserError raises a parser error: the parser goes to reject with
// standard_metadata.parser_error set (v1model goes on to ingress).
func (fr *frame) parserError(code int) {
	if !fr.rejected {
		fr.rejected = true
		fr.perr = code
	}
}

// pending returns the flow a nested call left behind: exit from an action,
// or a parser error.
func (fr *frame) pending() flow {
	switch {
	case fr.rejected:
		return flowReject
	case fr.exiting:
		return flowExit
	}
	return flowNext
}

// ------------------------------------------------------------------ the pipeline

// SetMulticastGroup makes multicast group grp replicate a packet to each
// of replicas, as simple_switch's mc_mgrp_create, mc_node_create and
// mc_node_associate configure it (an empty list removes the group).
func (sw *Switch) SetMulticastGroup(grp uint64, replicas []Replica) {
	if sw.groups == nil {
		sw.groups = map[uint64][]Replica{}
	}
	if len(replicas) == 0 {
		delete(sw.groups, grp)
		return
	}
	sw.groups[grp] = slices.Clone(replicas)
}

// Process runs one packet, received on port, through the pipeline. The
// error reports a run-time fault of the program (a failed assert, a runaway
// loop), never a packet the parser rejects.
func (sw *Switch) Process(port uint64, data []byte) (*Output, error) {
	if err := sw.portFits(port); err != nil {
		return nil, err
	}
	sent := len(sw.Digests)
	out, err := sw.process(port, data)
	if out != nil && len(sw.Digests) > sent {
		out.Digests = append([]Digest(nil), sw.Digests[sent:]...)
	}
	return out, err
}

// portFits refuses an ingress port the architecture's port field cannot
// hold (v1model's and TNA's are bit<9>), rather than cutting it.
func (sw *Switch) portFits(port uint64) error {
	st := sw.stdType
	if sw.tna != nil {
		st = sw.tna.igIntr
	}
	if st == nil {
		return nil
	}
	f, _ := st.Field("ingress_port")
	if f == nil {
		return nil
	}
	if w := bitsOf(f.Type).Width; w < 64 && port>>w != 0 {
		return fmt.Errorf("port %d does not fit the ingress port's bit<%d>", port, w)
	}
	return nil
}

func (sw *Switch) process(port uint64, data []byte) (*Output, error) {
	if sw.tna != nil {
		return sw.processTNA(port, data)
	}
	sw.faultErr = nil
	sw.outs, sw.later = sw.outs[:0], sw.later[:0]
	sw.ingressPass(port, data, 0, Value{}, -1)
	for i := 0; i < len(sw.later) && sw.faultErr == nil; i++ { // the packets resubmits, recirculations and clones made
		if i == maxPasses {
			sw.fault(ErrTooManyPasses)
			break
		}
		sw.runLater(sw.later[i])
	}
	if len(sw.outs) == 0 {
		return &Output{Dropped: true}, sw.faultErr
	}
	out := sw.outs[0]
	if len(sw.outs) > 1 {
		out.Copies = slices.Clone(sw.outs[1:])
	}
	return out, sw.faultErr
}

// ingressPass runs a packet through the parser, the ingress and then the
// egress, adding what goes out to sw.outs. A packet a resubmit or a
// recirculation made has its instance type and keeps the metadata fields
// of field list list from keep.
func (sw *Switch) ingressPass(port uint64, data []byte, instance uint64, keep Value, list int) {
	sw.truncate = 0
	sw.pkt = packet{data: data, out: sw.pkt.out[:0]}
	pkt := &sw.pkt
	sw.resetPacketState()
	sw.setStd("ingress_port", uint64(port))
	sw.setStd("packet_length", uint64(len(data)))
	if instance != 0 { // the parser sees them already, as in simple_switch
		sw.setStd("instance_type", instance)
		sw.keepFields(keep, list)
	}
	sw.runParser(pkt, sw.hdr, sw.meta, sw.std)
	sw.payload = data[min(len(data), (pkt.pos+7)/8):]
	args, nargs := sw.blockArgs()
	sw.req = noRequests()
	sw.runBlock(0, pkt, &args, &nargs) // verify checksum
	sw.runBlock(1, pkt, &args, &nargs) // ingress
	if sw.serveIngressRequests(port, data) {
		return // resubmitted: the packet goes no further
	}
	if reps := sw.groups[sw.getStd("mcast_grp")]; sw.multicast() && len(reps) > 0 {
		sw.replicate(reps, pkt, &args, &nargs)
		return
	}
	if sw.multicast() {
		// A group the control plane did not configure: the copy followed
		// is the replica for port 0, whatever egress_spec said (BMv2
		// ignores it too); the egress sees egress_spec as its port, and a
		// replica's instance type.
		sw.setStd("egress_port", 0)
		sw.setStd("egress_spec", 0)
		sw.setStd("instance_type", ReplicaInstance)
	} else if sw.getStd("egress_spec") == dropPort {
		return
	} else {
		sw.setStd("egress_port", sw.getStd("egress_spec"))
	}
	if sw.egress(pkt, &args, &nargs) {
		sw.outs = append(sw.outs, sw.output(pkt))
	}
}

// resetPacketState readies the headers, metadata and frames for a packet:
// made once, then cleared.
func (sw *Switch) resetPacketState() {
	if sw.hdr.Agg == nil && sw.hdr.Big == nil {
		sw.hdr, sw.meta, sw.std = zero(sw.hdrType), zero(sw.metaType), zero(sw.stdType)
		sw.frames = map[*compiledControl]*frame{}
		return
	}
	reset(&sw.hdr, sw.hdrType)
	reset(&sw.meta, sw.metaType)
	reset(&sw.std, sw.stdType)
}

// blockArgs are the V1Switch controls' parameters after the packet (the
// arrays are on the stack: a packet allocates as little as it can).
func (sw *Switch) blockArgs() ([5][3]Value, [5]int) {
	hdr, meta, std := sw.hdr, sw.meta, sw.std
	return [5][3]Value{{hdr, meta}, {hdr, meta, std}, {hdr, meta, std}, {hdr, meta}, {{}, hdr}}, [5]int{2, 3, 3, 2, 2}
}

// runBlock runs V1Switch block i (0 verify checksum, 1 ingress, 2
// egress, 3 compute checksum, 4 deparser) with its parameters bound to
// args.
func (sw *Switch) runBlock(i int, pkt *packet, args *[5][3]Value, nargs *[5]int) {
	cc := sw.controls[i]
	fr := sw.frame(cc, pkt)
	for j, slot := range cc.params {
		if j < nargs[i] {
			fr.slots[slot] = args[i][j]
		}
	}
	if i == 4 { // the deparser writes a fresh packet
		pkt.out, pkt.outBits = pkt.out[:0], 0
		sw.emitted = sw.emitted[:0]
	}
	cc.body(fr)
}

// egress runs the egress, compute-checksum and deparser blocks; false
// when the packet does not go out (the egress dropped it, or asked to
// recirculate it).
func (sw *Switch) egress(pkt *packet, args *[5][3]Value, nargs *[5]int) bool {
	sw.req = noRequests()
	sw.runBlock(2, pkt, args, nargs)
	sw.serveEgressClone()
	if sw.getStd("egress_spec") == dropPort {
		return false
	}
	sw.runBlock(3, pkt, args, nargs)
	sw.runBlock(4, pkt, args, nargs)
	return !sw.serveRecirculation(pkt)
}

// replicate runs the egress, compute-checksum and deparser blocks once
// for each copy of a multicast group, each on the packet as the ingress
// left it, with the copy's port and replication id (and v1model's
// instance type of a replica, 5).
func (sw *Switch) replicate(reps []Replica, pkt *packet, args *[5][3]Value, nargs *[5]int) {
	saved := [3]Value{copyValue(sw.hdr), copyValue(sw.meta), copyValue(sw.std)}
	truncate := sw.truncate // the ingress's, for every copy
	for _, r := range reps {
		assignInto(&sw.hdr, saved[0])
		assignInto(&sw.meta, saved[1])
		assignInto(&sw.std, saved[2])
		sw.setStd("egress_port", r.Port)
		sw.setStd("egress_spec", r.Port)
		sw.setStd("egress_rid", r.Rid)
		sw.setStd("instance_type", ReplicaInstance)
		sw.truncate = truncate
		if sw.egress(pkt, args, nargs) {
			sw.outs = append(sw.outs, sw.output(pkt))
		}
	}
}

// ReplicaInstance is v1model's instance_type of a multicast copy
// (PKT_INSTANCE_TYPE_REPLICATION).
const ReplicaInstance = 5

// output is the packet the deparser wrote, with the payload, as it
// leaves by egress_port.
func (sw *Switch) output(pkt *packet) *Output {
	// The output owns its bytes: pkt.out is the next packet's buffer.
	n := len(pkt.out) + len(sw.payload)
	if sw.truncate > 0 && sw.truncate < n {
		n = sw.truncate
	}
	out := append(append(make([]byte, 0, len(pkt.out)+len(sw.payload)), pkt.out...), sw.payload...)[:n]
	return &Output{Port: sw.getStd("egress_port"), Data: out, Emitted: append([]EmittedHeader(nil), sw.emitted...)}
}

// frame returns the frame of a control, cleared for a new packet.
func (sw *Switch) frame(cc *compiledControl, pkt *packet) *frame {
	fr := sw.frames[cc]
	if fr == nil {
		fr = &frame{sw: sw, slots: make([]Value, cc.nslots)}
		sw.frames[cc] = fr
	} else {
		clear(fr.slots)
	}
	fr.pkt, fr.exiting, fr.rejected, fr.perr, fr.ret = pkt, false, false, 0, Value{}
	for i, slot := range cc.locals {
		fr.slots[slot] = zero(cc.c.Locals[i].Type)
	}
	return fr
}

// parserFrame returns a parser's frame, cleared for a new packet.
func (sw *Switch) parserFrame(cp *compiledParser, pkt *packet) *frame {
	fr := sw.pframes[cp]
	if fr == nil {
		fr = &frame{sw: sw, slots: make([]Value, cp.sc.nslots)}
		if sw.pframes == nil {
			sw.pframes = map[*compiledParser]*frame{}
		}
		sw.pframes[cp] = fr
	} else {
		clear(fr.slots)
	}
	fr.pkt, fr.exiting, fr.rejected, fr.perr, fr.ret = pkt, false, false, 0, Value{}
	return fr
}

func (sw *Switch) runParser(pkt *packet, hdr, meta, std Value) {
	if perr := sw.runParserBlock(sw.parser, pkt, hdr, meta, std); perr != 0 {
		sw.setStd("parser_error", uint64(perr))
	}
}

// runParserBlock runs a parser whose parameters after the packet are
// bound to hdr, meta and md (standard or intrinsic metadata); it returns
// the parser error (0 when none).
func (sw *Switch) runParserBlock(cp *compiledParser, pkt *packet, hdr, meta, md Value) int {
	fr := sw.parserFrame(cp, pkt)
	fr.slots[cp.params[1]] = hdr
	fr.slots[cp.params[2]] = meta
	fr.slots[cp.params[3]] = md
	for i, slot := range cp.slots {
		fr.slots[slot] = zero(cp.locals[i].Type)
	}
	state := cp.start
	for steps := 0; state >= 0; steps++ {
		if steps == maxParserSteps {
			fr.parserError(sw.errParserTimeout)
			break
		}
		st := &cp.states[state]
		st.body(fr)
		if fr.rejected {
			break
		}
		state = st.next(fr)
		if fr.rejected {
			break
		}
	}
	if fr.rejected {
		return fr.perr
	}
	return 0
}

func (sw *Switch) setStd(field string, v uint64) {
	if i := sw.stdField(field); i >= 0 {
		sw.std.Agg.Fields[i] = Value{U: v}
	}
}

// multicast reports whether the ingress gave the packet a multicast
// group.
func (sw *Switch) multicast() bool { return sw.getStd("mcast_grp") != 0 }

func (sw *Switch) getStd(field string) uint64 {
	if i := sw.stdField(field); i >= 0 {
		return sw.std.Agg.Fields[i].U
	}
	return 0
}

// ------------------------------------------------------------------ state

func (sw *Switch) registerRead(inst *ir.Instance, i uint64) Value {
	vals := sw.registers[inst]
	if i >= uint64(len(vals)) {
		return zero(inst.Type.Args[0]) // out of range: BMv2 errors; p4hls reads 0
	}
	return copyValue(vals[i])
}

func (sw *Switch) registerWrite(inst *ir.Instance, i uint64, v Value) {
	vals := sw.registers[inst]
	if i < uint64(len(vals)) {
		vals[i] = copyValue(v)
	}
}

func (sw *Switch) count(inst *ir.Instance, i uint64, bytes int) {
	cs := sw.counters[inst]
	if i < uint64(len(cs)) {
		cs[i].Packets++
		cs[i].Bytes += uint64(bytes)
	}
}

func (sw *Switch) meterColor(inst *ir.Instance, i uint64) uint64 {
	return sw.meterColors[inst][i] // green (0) unless a test set another colour
}

func (sw *Switch) random(lo, hi Value, t *ir.Bits) Value {
	l, h := bigOf(lo), bigOf(hi)
	if h.Cmp(l) < 0 {
		return lo
	}
	span := new(big.Int).Sub(h, l)
	span.Add(span, bigOne)
	var r *big.Int
	if n := span.Uint64(); span.IsUint64() && n&(n-1) == 0 {
		// The low bits of one draw, as TNA's Random unit gives them: a
		// program and its TNA translation draw the same values.
		r = new(big.Int).SetUint64(sw.rng.Uint64() & (n - 1))
	} else {
		r = new(big.Int).Rand(sw.rng, span)
	}
	return fromBig(r.Add(r, l), t)
}
