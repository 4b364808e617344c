// Package tna is the Tofino backend: it writes a compiled v1model program
// as low-level P4-16 for the Tofino Native Architecture (the bundled
// tna.p4), in which every table is pinned to the stage allocation gave it
// (@stage), every stateful ALU is a RegisterAction whose apply the
// configured ALU is, and every stateless ALU one assignment of a
// per-stage action. A synthesized action that spans stages becomes one
// action per stage: the table's match runs the first, and sets a flag
// that keyless tables in the later stages test, in place of the match the
// allocation duplicates. Intermediate values travel in control locals
// (metadata); v1model's standard metadata is a local of the ingress
// control, whose egress_spec becomes the traffic manager's port (511:
// the deparser drops the packet).
//
// It is a package of its own, like menshen/lower, so that tofino, the
// target description every phase reads, does not depend on the phases.
package tna

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/transform"
)

func errorAt(sp diag.Span, format string, args ...any) error {
	return backends.Errorf(sp, format, args...)
}

// emitter is the state of one Emit.
type emitter struct {
	in   *backends.Compiled
	out  strings.Builder
	pr   *ir.Printer
	prog *ir.Program
	// parser, ingress, egress, deparser are the v1model blocks.
	parser                    *ir.Parser
	ingress, egress, deparser *ir.Control
	bridge                    *bridge                 // nil when the egress does nothing
	epilogue                  []ir.Stmt               // what the control being written does last, and before exit
	ingressNodes, egressNodes []*transform.Node       // the table nodes, a repeated table's copies in place
	appliedAs                 map[diag.Span]*ir.Table // the table each apply statement names (tableNodes)
	ctx                       context.Context
	wideConstants             map[string]map[int32]bool // per Register, the constants its RegisterActions use that no immediate holds
	hdr, meta, std            *ir.Var
	stages                    map[*ir.Table]*tableStages
	locals, decls             []string // control locals; registers, register actions, hash units
	actions                   []string // the per-stage actions, as text
	extraTables               map[*ir.Table][]string
	followers                 map[*ir.Table][]follower
	stageOf                   map[*ir.Table]int // the stage of each table printed
	origOf                    map[*ir.Table]*ir.Table
	pairs                     map[string]pair   // registers kept as halves of a pair
	runFlags                  []string          // the locals that tell later stages an action ran
	registerOf                map[string]string // v1model register name -> its Register's element type
	egressSkips               []string          // headers the egress parser does not extract (unemitted)
	synthesizedApplied        map[string]bool
	usesMeters                bool             // the control being written holds colorLocal
	mcast                     bool             // the ingress sets v1model's mcast_grp
	digest                    *digestSite      // the ingress's digest call, or nil
	checksums                 []*checksumCheck // the verify-checksum control's calls
	readsParserError          bool             // the ingress reads v1model's parser_error
	sums                      []deparserSum    // the ingress's Checksum16 calls, for its deparser
	plainHashes, randoms      int              // the hash and random units of plain code written
	egressWritten             bool             // the egress control is being written
	stdLoads, egressStdLoads  []string         // standard metadata the ingress, the egress fill from intrinsic metadata
}

// tableStages is where allocation put a table and its actions.
type tableStages struct {
	match []int   // the stages of part 0's match
	alus  [][]int // per action (the node's order), the stage of each ALU
}

// Emit writes the program for Tofino. ctx bounds the solver queries that
// find which constants of a stateful ALU's configuration matter.
func Emit(ctx context.Context, in *backends.Compiled) (string, error) {
	p := in.Program
	if err := in.V1Model("Tofino"); err != nil {
		return "", err
	}
	e := &emitter{in: in, prog: p, parser: p.Pipeline[ir.V1Parser].Parser, ingress: p.Pipeline[ir.V1Ingress].Control, egress: p.Pipeline[ir.V1Egress].Control, deparser: p.Pipeline[ir.V1Deparser].Control,
		stages: map[*ir.Table]*tableStages{}, extraTables: map[*ir.Table][]string{}, followers: map[*ir.Table][]follower{}, stageOf: map[*ir.Table]int{}, origOf: map[*ir.Table]*ir.Table{}, pairs: map[string]pair{}, registerOf: map[string]string{},
		synthesizedApplied: map[string]bool{}, appliedAs: map[diag.Span]*ir.Table{}, ctx: ctx, wideConstants: map[string]map[int32]bool{}}
	e.pr = ir.NewPrinter(&e.out)
	e.pr.OrderEntries() // table copies entries in their priority order
	e.pr.Errors(p.Errors)
	if err := e.check(); err != nil {
		return "", err
	}
	var err error
	if e.ingressNodes, err = e.tableNodes(in.Ingress); err != nil {
		return "", err
	}
	if e.egressNodes, err = e.tableNodes(in.Egress); err != nil {
		return "", err
	}
	e.placements()
	if err := e.findPairs(); err != nil {
		return "", err
	}
	fmt.Fprintf(&e.out, "// Generated by p4hls from %s for Tofino (TNA): every table is pinned to\n// its stage; stateful ALUs are RegisterActions, stateless ALUs one\n// assignment each.\n#include <core.p4>\n#include <tna.p4>\n\n", in.Source.File)
	e.types()
	if err := e.functions(); err != nil {
		return "", err
	}
	e.ingressParser()
	if err := e.ingressBlock(); err != nil {
		return "", err
	}
	e.deparserBlock(e.deparser.Name, "ingress")
	egress := "p4hls_Egress"
	if e.bridge == nil {
		e.egressBlocks()
	} else {
		e.egressParser()
		if err := e.egressControl(); err != nil {
			return "", err
		}
		e.deparserBlock("p4hls_EgressDeparser", "egress")
		egress = e.egress.Name
	}
	fmt.Fprintf(&e.out, "Pipeline(%s(), %s(), %s(), p4hls_EgressParser(), %s(), p4hls_EgressDeparser()) pipe;\nSwitch(pipe) main;\n",
		e.parser.Name, e.ingress.Name, e.deparser.Name, egress)
	return e.out.String(), nil
}

// check refuses what the backend does not write yet: anything in the
// verify-checksum control, a compute-checksum control other than
// csum16 updates, an egress checkEgress refuses, and a parser that reads
// standard metadata.
func (e *emitter) check() error {
	for _, i := range []int{ir.V1VerifyChecksum, ir.V1Egress, ir.V1ComputeChecksum} {
		c := e.prog.Pipeline[i].Control
		if c == nil {
			return fmt.Errorf("v1model block %s is not a control", e.prog.Pipeline[i].Param)
		}
		if i == ir.V1ComputeChecksum && checksumUpdates(c) != nil {
			continue // the deparser computes them (deparserBlock)
		}
		switch {
		case i == ir.V1Egress || len(c.Body) == 0 && len(c.Tables) == 0:
			continue
		case i == ir.V1VerifyChecksum:
			if err := e.planChecksums(c); err != nil {
				return err
			}
			continue
		}
		return errorAt(c.Span, "control %s: the Tofino backend writes a compute-checksum control of csum16 update_checksum calls only", c.Name)
	}
	if err := e.checkNames(); err != nil {
		return err
	}
	pp := e.parser.Params
	if len(pp) != 4 {
		return errorAt(e.parser.Span, "parser %s: v1model's parser has 4 parameters", e.parser.Name)
	}
	e.hdr, e.meta, e.std = pp[1], pp[2], pp[3]
	if len(e.egress.Body) > 0 || len(e.egress.Tables) > 0 {
		if err := e.checkEgress(); err != nil {
			return err
		}
	}
	for _, st := range e.parser.States {
		if reads(st.Body, e.std) {
			return errorAt(st.Span, "parser state %s uses standard metadata, which a Tofino parser does not have", st.Name)
		}
	}
	if len(e.parser.ValueSets) > 0 && e.bridge != nil {
		// The egress parser runs the states again, with a value set of its
		// own that the control plane would have to fill too.
		return errorAt(e.parser.ValueSets[0].Span, "value_set %s: with an egress, the Tofino egress parser would need a copy of it; not written yet", e.parser.ValueSets[0].Name)
	}
	ps := e.ingress.Params
	if len(ps) != 3 {
		return errorAt(e.ingress.Span, "control %s: v1model's ingress has 3 parameters", e.ingress.Name)
	}
	if err := e.checkVerifies(); err != nil {
		return err
	}
	if _, err := e.parserStd(); err != nil {
		return err
	}
	text, err := portsOnly(e.ingress, append(slices.Collect(maps.Keys(stdFromIntrinsic["ingress"])), "mcast_grp", "parser_error", "checksum_error")...)
	if err != nil {
		return err
	}
	std := e.ingress.Params[2].Name
	e.stdLoads = stdLoads(text, std, "ingress")
	if e.bridge != nil {
		// The bridge stores them from the ingress's standard metadata.
		for _, f := range e.bridge.std {
			if !strings.Contains(text, std+"."+f.name) {
				e.stdLoads = append(e.stdLoads, fmt.Sprintf("%s.%s = %s;", std, f.name, f.unset))
			}
		}
	}
	e.mcast = strings.Contains(text, std+".mcast_grp")
	e.readsParserError = strings.Contains(text, std+".parser_error")
	if err := e.checkRandoms(); err != nil {
		return err
	}
	if err := e.checkParserErrorRead(); err != nil {
		return err
	}
	if err := e.findDigest(); err != nil {
		return err
	}
	return e.planChecksum16()
}

// portsOnly refuses a v1model control that uses standard metadata other
// than the ports and the fields also allowed: the TNA control keeps it as
// a local that holds these, and any other field would read 0 where
// v1model has a value. It returns the control as text.
func portsOnly(c *ir.Control, also ...string) (string, error) {
	var b strings.Builder
	ir.NewPrinter(&b).Control(c)
	text := b.String()
	allowed := append([]string{"ingress_port", "egress_spec", "egress_port"}, also...)
	return text, stdFieldsOnly(text, c.Params[2], allowed, c.Span, "control "+c.Name, "Tofino's intrinsic metadata has no field p4hls maps it to")
}

// stdFieldsOnly refuses a block (text, named what) that uses a field of
// v1model's standard metadata std other than those allowed.
func stdFieldsOnly(text string, std *ir.Var, allowed []string, at diag.Span, what, why string) error {
	st, ok := std.Type.(*ir.Struct)
	if !ok {
		return nil
	}
	for _, f := range st.Fields {
		if !slices.Contains(allowed, f.Name) && strings.Contains(text, std.Name+"."+f.Name) {
			if w := unmappedStd[f.Name]; w != "" {
				why = w
			}
			return errorAt(at, "%s reads %s.%s: %s", what, std.Name, f.Name, why)
		}
	}
	return nil
}

// parserStd is v1model's standard metadata where the parser uses it: the
// parameter (nil when the parser does not use it). A Tofino parser has the
// ingress port only.
func (e *emitter) parserStd() (*ir.Var, error) {
	p := e.parser
	if len(p.Params) != 4 {
		return nil, nil
	}
	var b strings.Builder
	ir.NewPrinter(&b).Parser(p)
	std := p.Params[3]
	if !strings.Contains(b.String(), std.Name+".") {
		return nil, nil
	}
	return std, stdFieldsOnly(b.String(), std, []string{"ingress_port"}, p.Span, "parser "+p.Name, "a Tofino parser has the ingress port only")
}

// unmappedStd says why a field of v1model's standard metadata has no
// Tofino counterpart where a control reads it.
var unmappedStd = map[string]string{
	"packet_length":           "Tofino's ingress has no packet length (its egress has, in eg_intr_md.pkt_length)",
	"priority":                "Tofino's queue is chosen by ig_tm_md.qid and ingress_cos, not a priority p4hls maps",
	"enq_timestamp":           "v1model fills the queueing metadata in the egress only (there Tofino's eg_intr_md has it)",
	"enq_qdepth":              "v1model fills the queueing metadata in the egress only (there Tofino's eg_intr_md has it)",
	"deq_timedelta":           "v1model fills the queueing metadata in the egress only (there Tofino's eg_intr_md has it)",
	"deq_qdepth":              "v1model fills the queueing metadata in the egress only (there Tofino's eg_intr_md has it)",
	"egress_rid":              "v1model fills the replication id in the egress only (there Tofino's eg_intr_md has it)",
	"egress_global_timestamp": "v1model fills it in the egress only (there Tofino's eg_prsr_md.global_tstamp has it)",
}

// stdFromIntrinsic maps a field of v1model's standard metadata to the
// Tofino intrinsic metadata that holds it, per control ("ingress",
// "egress"). Tofino counts time in nanoseconds where BMv2 counts
// microseconds, and its enqueue timestamp and dequeue delta are 18 bits
// (zero-extended here); the queue depths are cells in both. The instance
// type is 0, a normal packet's: the backend writes no clone, resubmit or
// recirculation (it refuses those calls), so no packet is another kind
// but a multicast copy in the egress, which replicaType tells apart.
// The egress's packet length is the packet's as it came in, as v1model's
// is, but with its frame check sequence (interp.FCSBytes), which BMv2 does not
// count.
var stdFromIntrinsic = map[string]map[string]string{
	"ingress": {"ingress_global_timestamp": "ig_prsr_md.global_tstamp", "instance_type": "32w0"},
	"egress": {"egress_global_timestamp": "eg_prsr_md.global_tstamp", "enq_timestamp": "(bit<32>) eg_intr_md.enq_tstamp",
		"enq_qdepth": "eg_intr_md.enq_qdepth", "deq_timedelta": "(bit<32>) eg_intr_md.deq_timedelta",
		"deq_qdepth": "eg_intr_md.deq_qdepth", "egress_rid": "eg_intr_md.egress_rid", "instance_type": "32w0",
		"packet_length": fmt.Sprintf("(bit<32>) (eg_intr_md.pkt_length - %d)", interp.FCSBytes)},
}

// stdLoads are the assignments that fill the fields of the standard
// metadata (named std) that a control's text reads from the intrinsic
// metadata of half, in the order of stdFromIntrinsic's names.
func stdLoads(text, std, half string) []string {
	var out []string
	for _, f := range slices.Sorted(maps.Keys(stdFromIntrinsic[half])) {
		if strings.Contains(text, std+"."+f) {
			out = append(out, fmt.Sprintf("%s.%s = %s;", std, f, stdFromIntrinsic[half][f]))
		}
	}
	return out
}

// reads reports whether statements name v.
func reads(ss []ir.Stmt, v *ir.Var) bool {
	found := false
	var expr func(x ir.Expr)
	expr = func(x ir.Expr) {
		switch x := x.(type) {
		case *ir.VarRef:
			found = found || x.Var == v
		case *ir.Member:
			expr(x.X)
		case *ir.Binary:
			expr(x.X)
			expr(x.Y)
		case *ir.Unary:
			expr(x.X)
		case *ir.Cast:
			expr(x.X)
		case *ir.Call:
			for _, a := range x.Args {
				if a.Value != nil {
					expr(a.Value)
				}
			}
		}
	}
	for _, s := range ss {
		switch s := s.(type) {
		case *ir.Assign:
			expr(s.LHS)
			expr(s.RHS)
		case *ir.CallStmt:
			expr(s.Call)
		case *ir.If:
			expr(s.Cond)
			found = found || reads(s.Then, v) || reads(s.Else, v)
		case *ir.Block:
			found = found || reads(s.Body, v)
		}
	}
	return found
}

// placements reads the stages of every ingress and egress table from
// the solution.
func (e *emitter) placements() {
	place := func(nodes []*transform.Node, base int) {
		for _, n := range nodes {
			t := base + n.Order
			e.stages[n.Table] = &tableStages{match: e.in.Placement.Parts[t][0], alus: e.in.Placement.ALUs[t][0]}
		}
	}
	place(e.ingressNodes, e.in.Base)
	place(e.egressNodes, e.in.EgressBase)
}

// types writes the program's own types and v1model's standard metadata
// (a local of the ingress control now): every named type not declared by
// the bundled v1model.p4 and core.p4.
func (e *emitter) types() {
	var errs []string
	// An error tna.p4 declares too is tna.p4's: errors are one namespace
	// and mean their names.
	for _, x := range e.prog.Errors {
		if !coreErrors[x] && !tnaDecls().errors[x] {
			errs = append(errs, x)
		}
	}
	if len(errs) > 0 {
		fmt.Fprintf(&e.out, "error { %s }\n", strings.Join(errs, ", "))
	}
	// Enums first: they depend on no other type, and the bridge may hold
	// one.
	for _, t := range e.prog.Types {
		if _, ok := t.(*ir.Enum); ok && !bundled[typeName(t)] {
			e.pr.Type(t)
		}
	}
	if e.bridge != nil {
		e.out.WriteString(e.bridge.typeDecl())
	}
	var metaLast ir.Type
	for _, t := range e.prog.Types {
		name := typeName(t)
		if _, enum := t.(*ir.Enum); enum || bundled[name] && name != "standard_metadata_t" {
			continue
		}
		if st, ok := t.(*ir.Struct); ok && t == e.meta.Type && len(e.metaFields()) > 0 {
			with := *st // last, after the types of the fields added
			with.Fields = append(append([]*ir.Field(nil), st.Fields...), e.metaFields()...)
			metaLast = &with
			continue
		}
		if st, ok := t.(*ir.Struct); ok && e.bridge != nil && t == e.hdr.Type {
			// The bridge goes first among the headers, as it does on the wire.
			withBridge := *st
			withBridge.Fields = append([]*ir.Field{{Name: "p4hls_bridge", Type: &ir.Struct{Kind: ir.KindHeader, Name: "p4hls_bridge_h"}}}, st.Fields...)
			t = &withBridge
		}
		e.pr.Type(t)
	}
	if metaLast != nil {
		e.pr.Type(metaLast)
	}
	if len(e.pairs) > 0 {
		e.out.WriteString("// Two registers a stateful ALU updates together.\nstruct p4hls_pair_t {\n    bit<32> lo;\n    bit<32> hi;\n}\n")
	}
	e.out.WriteString("\n")
}

// functions writes the program's functions: plain P4, they mean the same
// in TNA. One that calls an extern or a method (mark_to_drop, a
// register's read) or exits would not, and is refused.
func (e *emitter) functions() error {
	for _, f := range e.prog.Functions {
		if s := firstExternCall(f.Body); s != nil {
			return errorAt(s.Span(), "function %s: the Tofino backend writes functions of plain statements only, not %s", f.Name, stmtText(s))
		}
		e.pr.Function(f)
	}
	if len(e.prog.Functions) > 0 {
		e.out.WriteString("\n")
	}
	return nil
}

// firstExternCall returns the first statement of ss, at any depth, that
// calls an extern or a method, or exits.
func firstExternCall(ss []ir.Stmt) ir.Stmt {
	var first ir.Stmt
	eachStmt(ss, func(s ir.Stmt) {
		if first != nil {
			return
		}
		switch x := s.(type) {
		case *ir.CallStmt:
			if x.Call.Callee.Func == nil {
				first = s
			}
		case *ir.Exit, *ir.SetValid, *ir.StackShift, *ir.ApplyBlock:
			first = s
		}
	})
	return first
}

// eachStmt calls fn on every statement of ss, at any depth.
func eachStmt(ss []ir.Stmt, fn func(ir.Stmt)) {
	for _, s := range ss {
		fn(s)
		switch s := s.(type) {
		case *ir.If:
			eachStmt(s.Then, fn)
			eachStmt(s.Else, fn)
		case *ir.Block:
			eachStmt(s.Body, fn)
		case *ir.For:
			eachStmt(s.Init, fn)
			eachStmt(s.Update, fn)
			eachStmt(s.Body, fn)
		case *ir.Switch:
			for _, c := range s.Cases {
				eachStmt(c.Body, fn)
			}
		case *ir.SwitchAction:
			for _, c := range s.Cases {
				eachStmt(c.Body, fn)
			}
		}
	}
}

// stmtText is a statement as one line of P4, for a message.
func stmtText(s ir.Stmt) string {
	var b strings.Builder
	ir.NewPrinter(&b).Stmts([]ir.Stmt{s})
	return strings.Join(strings.Fields(b.String()), " ")
}

// stmtWithoutSemicolon is a statement as stmtText writes it, for a
// message that goes on after it.
func stmtWithoutSemicolon(s ir.Stmt) string { return strings.TrimSuffix(stmtText(s), ";") }

func typeName(t ir.Type) string {
	switch t := t.(type) {
	case *ir.Struct:
		return t.Name
	case *ir.Enum:
		return t.Name
	}
	return ""
}

// coreErrors are the errors core.p4 declares.
var coreErrors = map[string]bool{"NoError": true, "PacketTooShort": true, "NoMatch": true, "StackOutOfBounds": true,
	"HeaderTooShort": true, "ParserTimeout": true, "ParserInvalidArgument": true}

// bundled are the types v1model.p4 declares.
var bundled = map[string]bool{"standard_metadata_t": true, "CounterType": true, "MeterType": true,
	"HashAlgorithm": true, "CloneType": true}

// ingressParser writes the ingress parser: the intrinsic metadata and
// the port metadata first, then the program's states.
func (e *emitter) ingressParser() {
	intr := &ir.Var{Name: "ig_intr_md", Type: &ir.Struct{Kind: ir.KindHeader, Name: "ingress_intrinsic_metadata_t"}, Dir: ir.DirOut}
	port := &ir.Member{X: &ir.VarRef{Var: intr}, Name: "ingress_port", T: &ir.Bits{Width: 9}}
	e.programParser(e.parser.Name, intr, []ir.Expr{&ir.VarRef{Var: intr}}, &ir.VarRef{Var: &ir.Var{Name: "PORT_METADATA_SIZE"}}, port, true, nil)
}

// programParser writes a TNA parser named name whose start state
// extracts what extracts lists and skips advance bits (when not nil),
// then runs the program's states (its start renamed; see parserStates,
// which checksums tells to verify the checksums). When the program's
// states use v1model's standard metadata, the parser keeps it as a local
// that holds the ingress port, read from port. The extracts of the
// headers skip names (paths without their root) are left out.
func (e *emitter) programParser(name string, intr *ir.Var, extracts []ir.Expr, advance, port ir.Expr, checksums bool, skip []string) {
	p, pkt, hdr, meta := e.tnaParser(name, intr)
	rename := func(s string) string {
		if s == "start" {
			return "p4hls_start"
		}
		return s
	}
	call := func(method string, arg ir.Expr) ir.Stmt { return pktCall(pkt, method, arg) }
	start := &ir.State{Name: "start", Next: "p4hls_start"}
	for _, x := range extracts {
		start.Body = append(start.Body, call("extract", x))
	}
	if advance != nil {
		start.Body = append(start.Body, call("advance", advance))
	}
	if std, _ := e.parserStd(); std != nil { // e.check refused the other fields
		local := *std
		local.Dir = ir.DirNone
		p.Locals = append(slices.Clip(p.Locals), &local)
		start.Body = append(start.Body, &ir.Assign{LHS: &ir.Member{X: &ir.VarRef{Var: &local}, Name: "ingress_port", T: port.Type()}, RHS: port})
	}
	p.States = []*ir.State{start}
	for _, s := range e.parser.States {
		c := *s
		c.Name, c.Next = rename(s.Name), rename(s.Next)
		c.Body = slices.DeleteFunc(slices.Clone(s.Body), func(st ir.Stmt) bool {
			cs, ok := st.(*ir.CallStmt)
			return ok && cs.Call.Callee.Method == "extract" && len(cs.Call.Args) == 1 && cs.Call.Args[0].Value != nil &&
				slices.Contains(skip, withoutRoot(ir.Format(cs.Call.Args[0].Value)))
		})
		if s.Select != nil {
			sel := *s.Select
			sel.Exprs = nil
			for _, x := range s.Select.Exprs {
				sel.Exprs = append(sel.Exprs, unionValid(x))
			}
			sel.Cases = nil
			for _, k := range s.Select.Cases {
				kc := *k
				kc.Next = rename(k.Next)
				sel.Cases = append(sel.Cases, &kc)
			}
			c.Select = &sel
		}
		p.States = append(p.States, &c)
	}
	states, units := e.parserStates(p.States[1:], hdr, meta, checksums)
	p.States = append(p.States[:1], states...)
	p.Locals = stateLocals(p.States, p.Locals)
	p.Instances = append(append([]*ir.Instance(nil), p.Instances...), units...)
	e.pr.Parser(&p)
	e.out.WriteString("\n")
}

// tnaParser is a copy of the program's parser named name with a TNA
// parser's parameters: the packet, the headers, the metadata (out), and
// the intrinsic metadata intr.
func (e *emitter) tnaParser(name string, intr *ir.Var) (p ir.Parser, pkt, hdr, meta *ir.Var) {
	p = *e.parser
	p.Name = name
	pkt = p.Params[0]
	h, m := *p.Params[1], *p.Params[2]
	m.Dir = ir.DirOut
	p.Params = []*ir.Var{pkt, &h, &m, intr}
	return p, pkt, &h, &m
}

// pktCall is pkt.method(arg).
func pktCall(pkt *ir.Var, method string, arg ir.Expr) ir.Stmt {
	return &ir.CallStmt{Call: &ir.Call{Callee: ir.Callee{Recv: &ir.VarRef{Var: pkt}, Method: method}, Args: []*ir.Arg{{Value: arg}}}}
}

// stateLocals makes the variables the parser's states declare locals of
// the parser, their declarations assignments: parserStates splits a state
// at a verify, and a variable declared before it is read after. It
// returns the parser's locals; a name two states declare with two types
// stays declared in its states.
func stateLocals(states []*ir.State, locals []*ir.Var) []*ir.Var {
	types := map[string]ir.Type{}
	clash := map[string]bool{}
	for _, v := range locals {
		types[v.Name] = v.Type
	}
	for _, st := range states {
		for _, s := range st.Body {
			if d, ok := s.(*ir.Declare); ok {
				if t, seen := types[d.Var.Name]; seen && t.String() != d.Var.Type.String() {
					clash[d.Var.Name] = true
				}
				types[d.Var.Name] = d.Var.Type
			}
		}
	}
	out := slices.Clip(locals)
	for _, st := range states { // the states are the emitter's copies; their bodies are the program's
		var body []ir.Stmt
		for _, s := range st.Body {
			d, ok := s.(*ir.Declare)
			if !ok || clash[d.Var.Name] {
				body = append(body, s)
				continue
			}
			if !slices.ContainsFunc(out, func(v *ir.Var) bool { return v.Name == d.Var.Name }) {
				out = append(out, d.Var)
			}
			if d.Init != nil {
				body = append(body, &ir.Assign{Pos: d.Pos, LHS: &ir.VarRef{Pos: d.Pos, Var: d.Var}, RHS: d.Init})
			}
		}
		st.Body = body
	}
	return out
}

// deparserBlock writes the deparser of half ("ingress" or "egress"),
// named name: the program's, with TNA's parameters, computing first the
// checksums v1model's compute-checksum control updates (each with a
// Checksum unit of the deparser; the egress's recomputes them over what
// it changed). The ingress's emits the bridge first.
func (e *emitter) deparserBlock(name, half string) {
	d := *e.deparser
	if len(d.Params) != 2 {
		return
	}
	d.Name = name
	hdr := *d.Params[1]
	hdr.Dir = ir.DirInOut
	prefix := map[string]string{"ingress": "ig", "egress": "eg"}[half]
	d.Params = []*ir.Var{d.Params[0], &hdr, {Name: "p4hls_meta", Type: e.meta.Type, Dir: ir.DirIn},
		{Name: prefix + "_dprsr_md", Type: &ir.Struct{Name: half + "_intrinsic_metadata_for_deparser_t"}, Dir: ir.DirIn}}
	body := d.Body
	if e.bridge != nil && half == "ingress" && !emitsWhole(body, e.deparser.Params[1]) {
		bridgeHdr := &ir.Member{X: &ir.VarRef{Var: &hdr}, Name: "p4hls_bridge", T: &ir.Struct{Kind: ir.KindHeader, Name: "p4hls_bridge_h"}}
		emit := &ir.CallStmt{Call: &ir.Call{Callee: ir.Callee{Recv: &ir.VarRef{Var: d.Params[0]}, Method: "emit"}, Args: []*ir.Arg{{Value: bridgeHdr}}}}
		body = append([]ir.Stmt{emit}, body...)
	}
	d.Body = body
	d.Instances = append([]*ir.Instance(nil), d.Instances...)
	var pre []ir.Stmt
	if half == "ingress" { // the ingress's Checksum16 calls, then v1model's compute-checksum control
		sums, units := e.deparserSums(&hdr)
		pre, d.Instances = append(pre, sums...), append(d.Instances, units...)
	}
	cc := e.prog.Pipeline[ir.V1ComputeChecksum].Control
	for i, u := range checksumUpdates(cc) {
		ck := &ir.Instance{Name: fmt.Sprintf("p4hls_ck%d", i), Type: &ir.Extern{Name: "Checksum"}}
		d.Instances = append(d.Instances, ck)
		var args []ir.Expr // read from the deparser's headers
		for _, a := range u.Call.Args[:3] {
			args = append(args, renameRoot(a.Value, cc.Params[0].Name, &hdr))
		}
		sum := &ir.Call{Callee: ir.Callee{Recv: &ir.InstanceRef{Inst: ck}, Method: "update"}, Args: []*ir.Arg{{Value: args[1]}}, T: args[2].Type()}
		pre = append(pre, &ir.If{Cond: args[0], Then: []ir.Stmt{&ir.Assign{LHS: args[2], RHS: sum}}})
	}
	if e.digest != nil && half == "ingress" {
		inst, pack := e.digest.pack(d.Params[2], d.Params[3])
		d.Instances = append(d.Instances, inst)
		pre = append(pre, pack)
	}
	d.Body = append(pre, d.Body...)
	e.pr.Control(&d)
	e.out.WriteString("\n")
}

// checksumUpdates returns a compute-checksum control's statements when
// they are all update_checksum calls with csum16 (nil otherwise).
func checksumUpdates(c *ir.Control) []*ir.CallStmt {
	if len(c.Tables) > 0 || len(c.Body) == 0 {
		return nil
	}
	var out []*ir.CallStmt
	for _, s := range c.Body {
		cs, ok := s.(*ir.CallStmt)
		if !ok || cs.Call.Callee.Extern != "update_checksum" || len(cs.Call.Args) != 4 {
			return nil
		}
		if en, ok := cs.Call.Args[3].Value.(*ir.EnumConst); !ok || en.Member != "csum16" {
			return nil
		}
		out = append(out, cs)
	}
	return out
}

// egressBlocks write an egress that passes packets through: its parser
// takes the intrinsic metadata only, so the headers stay in the payload.
func (e *emitter) egressBlocks() {
	h, m := e.hdr.Type, e.meta.Type
	fmt.Fprintf(&e.out, `parser p4hls_EgressParser(packet_in pkt, out %s hdr, out %s meta, out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition accept;
    }
}

control p4hls_Egress(inout %s hdr, inout %s meta, in egress_intrinsic_metadata_t eg_intr_md,
        in egress_intrinsic_metadata_from_parser_t eg_prsr_md, inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
        inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply { }
}

control p4hls_EgressDeparser(packet_out pkt, inout %s hdr, in %s meta, in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { }
}

`, h, m, h, m, h, m)
}

// sortedStages returns the distinct stages of a set, in order.
func sortedStages(xs ...[]int) []int {
	seen := map[int]bool{}
	var out []int
	for _, l := range xs {
		for _, s := range l {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	sort.Ints(out)
	return out
}
