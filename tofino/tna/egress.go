package tna

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
)

// The egress. TNA's egress is a pipeline of its own: its parser parses
// the packet the ingress deparser wrote, and nothing else crosses from
// ingress but what that packet carries. So when v1model's egress control
// does something, the ingress bridges its metadata (and the ingress port,
// and the standard metadata of bridgedStd the egress reads) in a header,
// p4hls_bridge, which the ingress deparser emits first and the egress
// parser extracts before the program's own states; the egress control
// copies it back into the metadata before the program's code runs. The
// egress parser re-parses the headers when the ingress leaves the parse
// as it found it (see checkReparse), and otherwise goes by the headers'
// validity, which the bridge then carries too (validity.go).

// bridgeLeaf is one metadata field the bridge carries: its path in the
// metadata struct and its type.
type bridgeLeaf struct {
	path []string
	t    ir.Type
}

// field is the leaf's name in the bridge header.
func (l bridgeLeaf) field() string { return "m__" + strings.Join(l.path, "__") }

// width is the leaf's width in the bridge header (a bool is one bit).
func (l bridgeLeaf) width() int {
	switch t := l.t.(type) {
	case *ir.Bits:
		return t.Width
	case *ir.Enum:
		return t.Underlying.Width
	}
	return 1
}

// bridge is what the ingress hands the egress.
type bridge struct {
	leaves []bridgeLeaf
	// std are the fields of bridgedStd the egress reads.
	std []bridgedField
	// valid are the headers whose validity the bridge carries, when the
	// egress parser goes by it (see validity.go).
	valid []ir.Expr
}

// bridgeIngressPort is the bridge field holding v1model's ingress port.
const bridgeIngressPort = "p4hls_ingress_port"

// bridgedField is a field of v1model's standard metadata that the
// ingress fills or sets and the egress may read, and Tofino's egress
// intrinsic metadata does not have: the bridge carries it. unset is
// what the ingress's standard metadata holds when its code does not
// mention the field.
type bridgedField struct {
	name  string
	width int
	unset string
}

// bridgedStd are those fields: the ingress's timestamp (from its parser's
// intrinsic metadata) and the multicast group the ingress chose (0 when
// it chose none).
var bridgedStd = []bridgedField{
	{"ingress_global_timestamp", 48, "ig_prsr_md.global_tstamp"},
	{"mcast_grp", 16, "16w0"},
}

// field is the field's name in the bridge header.
func (f bridgedField) field() string { return "p4hls_" + f.name }

// planBridge lays out the bridge of the metadata struct t, with the
// fields of bridgedStd that std names.
func planBridge(t ir.Type, std []bridgedField) (*bridge, error) {
	b := &bridge{std: std}
	var walk func(path []string, t ir.Type) error
	walk = func(path []string, t ir.Type) error {
		switch t := t.(type) {
		case *ir.Bits, ir.Bool:
			b.leaves = append(b.leaves, bridgeLeaf{path: path, t: t})
			return nil
		case *ir.Enum:
			if t.Underlying != nil { // a serializable enum: a header holds it as its bits
				b.leaves = append(b.leaves, bridgeLeaf{path: path, t: t})
				return nil
			}
		case *ir.Struct:
			if t.Kind == ir.KindStruct {
				for _, f := range t.Fields {
					if err := walk(append(append([]string(nil), path...), f.Name), f.Type); err != nil {
						return err
					}
				}
				return nil
			}
		}
		return fmt.Errorf("metadata field %s is a %s, which p4hls does not bridge to the Tofino egress yet", strings.Join(path, "."), t)
	}
	if err := walk(nil, t); err != nil {
		return nil, err
	}
	return b, nil
}

// pad is the number of bits that make the bridge a whole number of bytes.
func (b *bridge) pad() int {
	bits := 9 + len(b.valid) // the ingress port and the validity bits
	for _, f := range b.std {
		bits += f.width
	}
	for _, l := range b.leaves {
		bits += l.width()
	}
	return (8 - bits%8) % 8
}

// typeDecl is the bridge header's declaration.
func (b *bridge) typeDecl() string {
	var s strings.Builder
	s.WriteString("// Ingress metadata the egress reads: the ingress deparser emits it first.\nheader p4hls_bridge_h {\n")
	fmt.Fprintf(&s, "    bit<9> %s;\n", bridgeIngressPort)
	for _, f := range b.std {
		fmt.Fprintf(&s, "    bit<%d> %s;\n", f.width, f.field())
	}
	for _, l := range b.leaves {
		t := l.t.String()
		if _, ok := l.t.(ir.Bool); ok {
			t = "bit<1>"
		}
		fmt.Fprintf(&s, "    %s %s;\n", t, l.field())
	}
	for _, h := range b.valid {
		fmt.Fprintf(&s, "    bit<1> %s;\n", validityField(h))
	}
	if pad := b.pad(); pad > 0 {
		fmt.Fprintf(&s, "    bit<%d> p4hls_pad;\n", pad)
	}
	s.WriteString("}\n")
	return s.String()
}

// stores are the ingress's last statements: the bridge filled in.
func (b *bridge) stores(hdr, meta, std *ir.Var) []ir.Stmt {
	br := member(&ir.VarRef{Var: hdr}, "p4hls_bridge", &ir.Struct{Kind: ir.KindHeader, Name: "p4hls_bridge_h"})
	out := []ir.Stmt{&ir.SetValid{X: br, Valid: true},
		&ir.Assign{LHS: member(br, bridgeIngressPort, &ir.Bits{Width: 9}), RHS: member(&ir.VarRef{Var: std}, "ingress_port", &ir.Bits{Width: 9})}}
	for _, f := range b.std {
		t := &ir.Bits{Width: f.width}
		out = append(out, &ir.Assign{LHS: member(br, f.field(), t), RHS: member(&ir.VarRef{Var: std}, f.name, t)})
	}
	for _, l := range b.leaves {
		var v ir.Expr = &ir.VarRef{Var: meta}
		for _, f := range l.path {
			v = member(v, f, l.t)
		}
		if _, ok := l.t.(ir.Bool); ok {
			v = &ir.Cond{C: v, Then: bitConst(1, 1), Else: bitConst(1, 0)}
		}
		out = append(out, &ir.Assign{LHS: member(br, l.field(), l.t), RHS: v})
	}
	return append(out, b.validityStores(br, hdr)...)
}

func member(x ir.Expr, name string, t ir.Type) *ir.Member {
	return &ir.Member{X: x, Name: name, T: t}
}

func bitConst(width int, v int64) *ir.Const {
	return &ir.Const{T: &ir.Bits{Width: width}, Value: big.NewInt(v)}
}

// dropIf511 is the end of a v1model control on TNA: egress_spec 511 (what
// mark_to_drop sets) drops the packet through the deparser's drop_ctl.
func dropIf511(std, dprsr *ir.Var) ir.Stmt {
	spec := member(&ir.VarRef{Var: std}, "egress_spec", &ir.Bits{Width: 9})
	return &ir.If{Cond: &ir.Binary{Op: ir.Eq, X: spec, Y: bitConst(9, 511), T: ir.Bool{}},
		Then: []ir.Stmt{&ir.Assign{LHS: member(&ir.VarRef{Var: dprsr}, "drop_ctl", &ir.Bits{Width: 3}), RHS: bitConst(3, 1)}}}
}

// loads are the egress's first statements: the metadata and v1model's
// ports back from the bridge and the egress intrinsic metadata (the
// egress_spec the ingress left is the port).
func (b *bridge) loads(hdr, meta, std string) []string {
	var out []string
	for _, l := range b.leaves {
		v := fmt.Sprintf("%s.p4hls_bridge.%s", hdr, l.field())
		if _, ok := l.t.(ir.Bool); ok {
			v = fmt.Sprintf("(%s == 1w1)", v)
		}
		out = append(out, fmt.Sprintf("%s.%s = %s;", meta, strings.Join(l.path, "."), v))
	}
	for _, f := range b.std {
		out = append(out, fmt.Sprintf("%s.%s = %s.p4hls_bridge.%s;", std, f.name, hdr, f.field()))
	}
	return append(out,
		fmt.Sprintf("%s.ingress_port = %s.p4hls_bridge.%s;", std, hdr, bridgeIngressPort),
		fmt.Sprintf("%s.egress_port = eg_intr_md.egress_port;", std),
		fmt.Sprintf("%s.egress_spec = eg_intr_md.egress_port;", std),
		hdr+".p4hls_bridge.setInvalid();")
}

// checkEgress refuses what the backend does not write in the egress yet:
// extern instances other than registers, counters and meters, a register
// the egress shares with the ingress,
// standard metadata beyond the ports, a
// write to the egress port (which TNA's egress cannot change), and an
// ingress after which the egress parser would not find the headers the
// ingress had (checkReparse).
func (e *emitter) checkEgress() error {
	c := e.egress
	if len(c.Params) != 3 {
		return errorAt(c.Span, "control %s: v1model's egress has 3 parameters", c.Name)
	}
	for _, a := range c.Actions {
		if err := e.egressRegisters(a); err != nil {
			return err
		}
	}
	for _, inst := range c.Instances {
		if !isCounterOrMeter(inst) && inst.Type.Name != "register" {
			return errorAt(inst.Span, "extern %s %s in the egress control: the Tofino backend writes the egress's tables, actions, registers, counters and meters only", inst.Type.Name, inst.Name)
		}
	}
	allowed := slices.Collect(maps.Keys(stdFromIntrinsic["egress"]))
	for _, f := range bridgedStd {
		allowed = append(allowed, f.name)
	}
	text, err := portsOnly(c, allowed...)
	if err != nil {
		return err
	}
	std := c.Params[2]
	e.egressStdLoads = stdLoads(text, std.Name, "egress")
	// A packet the egress sees is a multicast copy, instance type 5 in
	// v1model, when the ingress chose a group: the bridge carries the
	// group for that.
	readsType := strings.Contains(text, std.Name+".instance_type")
	if readsType {
		e.egressStdLoads = replicaType(e.egressStdLoads, std.Name)
	}
	var bridged []bridgedField
	for _, f := range bridgedStd {
		if strings.Contains(text, std.Name+"."+f.name) || readsType && f.name == "mcast_grp" {
			bridged = append(bridged, f)
		}
	}
	if strings.Contains(text, std.Name+".egress_port = ") {
		return errorAt(c.Span, "control %s sets %s.egress_port; a Tofino egress cannot change the port", c.Name, std.Name)
	}
	br, err := planBridge(e.meta.Type, bridged)
	if err != nil {
		return errorAt(c.Span, "control %s: %v", c.Name, err)
	}
	e.bridge = br
	if why := e.checkReparse(text); why != nil {
		valid, err := e.byValidity(why, text)
		if err != nil {
			return err
		}
		e.egressSkips, br.valid = nil, valid
	}
	return nil
}

// replicaType makes the egress's load of v1model's instance type (std's)
// tell a multicast copy from a packet sent to one port, by the group the
// bridge carries (loaded before it).
func replicaType(loads []string, std string) []string {
	out := slices.Clone(loads)
	for i, l := range out {
		if strings.HasPrefix(l, std+".instance_type = ") {
			out[i] = fmt.Sprintf("%s.instance_type = (%s.mcast_grp != 16w0 ? 32w%d : 32w0);", std, std, interp.ReplicaInstance)
		}
	}
	return out
}

// egressRegisters refuses an egress action that updates a register
// declared outside the egress control: a Tofino register's cells sit in
// the stages of one gress, so the ingress and the egress cannot share one.
func (e *emitter) egressRegisters(a *ir.Action) error {
	g := e.in.Graph(a.Name)
	if g == nil {
		return nil
	}
	for _, alu := range g.ALUs {
		for _, c := range alu.State {
			if c.Register != nil && !slices.Contains(e.egress.Instances, c.Register) {
				return errorAt(a.Span, "action %s of the egress uses register %s, declared outside the egress control; on Tofino a register belongs to the ingress or the egress, not both: declare it in control %s", a.Name, c.Register.Name, e.egress.Name)
			}
		}
	}
	return nil
}

// checkReparse makes sure the egress parser, running the program's
// states on what the ingress deparser wrote, extracts the headers the
// ingress ended with: the deparser emits every header the parser
// extracts, and the ingress changes no header's validity and no field a
// transition selects on. egressText is the egress control as printed.
func (e *emitter) checkReparse(egressText string) error {
	var extracted, selected []string
	for _, st := range e.parser.States {
		for _, s := range st.Body {
			if cs, ok := s.(*ir.CallStmt); ok && cs.Call.Callee.Method == "extract" && len(cs.Call.Args) == 1 {
				extracted = append(extracted, ir.Format(cs.Call.Args[0].Value))
			}
		}
		if st.Select != nil {
			for _, x := range st.Select.Exprs {
				selected = append(selected, ir.Format(x))
			}
		}
	}
	var emitted []string
	for _, s := range e.deparser.Body {
		if cs, ok := s.(*ir.CallStmt); ok && cs.Call.Callee.Method == "emit" && len(cs.Call.Args) == 1 {
			emitted = append(emitted, ir.Format(cs.Call.Args[0].Value))
		}
	}
	for _, x := range extracted {
		if coveredBy(x, emitted) {
			continue
		}
		if err := e.unemitted(x, selected, egressText); err != nil {
			return err
		}
		e.egressSkips = append(e.egressSkips, withoutRoot(x))
	}
	var stmts []ir.Stmt
	stmts = append(stmts, e.ingress.Body...)
	for _, a := range e.ingress.Actions {
		stmts = append(stmts, a.Body...)
	}
	return reparse{selected: selected, skipped: e.egressSkips}.safe(stmts)
}

// unemitted refuses a header x the parser extracts and the deparser does
// not emit (a CPU's packet-out header, stripped), unless the egress parser
// may leave it out: no transition selects on it, and the egress does not
// use it (in v1model the egress sees it as the ingress left it; in TNA it
// is not in the packet the egress parser reads).
func (e *emitter) unemitted(x string, selected []string, egressText string) error {
	if slices.ContainsFunc(selected, func(k string) bool { return coveredBy(k, []string{x}) }) {
		return errorAt(e.deparser.Span, "the deparser does not emit %s, which the parser extracts and selects on; the Tofino egress parser would take another path", x)
	}
	if mentions(egressText, e.egress.Params[0].Name+withoutRoot(x)) {
		return errorAt(e.deparser.Span, "the deparser does not emit %s, which the parser extracts and control %s uses; the Tofino egress parser would not find it", x, e.egress.Name)
	}
	return nil
}

// left says whether header h is one the egress parser leaves out.
func (r reparse) left(h ir.Expr) bool {
	return slices.Contains(r.skipped, withoutRoot(ir.Format(h)))
}

// mentions says whether text holds path whole (hdr.po, not hdr.port).
func mentions(text, path string) bool {
	for i := strings.Index(text, path); i >= 0; {
		end := i + len(path)
		if end == len(text) || !isIdentByte(text[end]) {
			return true
		}
		j := strings.Index(text[end:], path)
		if j < 0 {
			return false
		}
		i = end + j
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// coveredBy says whether path x is one of paths or inside one of them.
func coveredBy(x string, paths []string) bool {
	for _, p := range paths {
		if x == p || strings.HasPrefix(x, p+".") || strings.HasPrefix(x, p+"[") {
			return true
		}
	}
	return false
}

// reparse is what the egress parser's second parse depends on: the
// fields the parser selects on, and the headers it leaves out (paths
// without their root), whose validity the ingress may change.
type reparse struct{ selected, skipped []string }

// safe refuses statements that change a header's validity or a field the
// parser selects on.
func (r reparse) safe(ss []ir.Stmt) error {
	for _, s := range ss {
		switch s := s.(type) {
		case *ir.Assign:
			lhs := ir.Format(s.LHS)
			if st, ok := s.LHS.Type().(*ir.Struct); ok && st.Kind != ir.KindStruct && !r.left(s.LHS) {
				return errorAt(s.Span(), "the ingress assigns header %s; the Tofino egress parser re-parses the packet", lhs)
			}
			for _, k := range r.selected {
				if k == lhs || strings.HasPrefix(k, lhs+".") {
					return errorAt(s.Span(), "the ingress changes %s, which the parser selects on; the Tofino egress parser would take another path", lhs)
				}
			}
		case *ir.SetValid:
			if r.left(s.X) {
				continue
			}
			m := "setInvalid"
			if s.Valid {
				m = "setValid"
			}
			return errorAt(s.Span(), "the ingress calls %s.%s(); the Tofino egress parser re-parses the packet", ir.Format(s.X), m)
		case *ir.StackShift:
			return errorAt(s.Span(), "the ingress shifts header stack %s; the Tofino egress parser re-parses the packet", ir.Format(s.X))
		case *ir.For:
			if err := r.safe(append(append(append([]ir.Stmt(nil), s.Init...), s.Update...), s.Body...)); err != nil {
				return err
			}
		case *ir.Switch:
			for _, k := range s.Cases {
				if err := r.safe(k.Body); err != nil {
					return err
				}
			}
		case *ir.If:
			if err := r.safe(append(append([]ir.Stmt(nil), s.Then...), s.Else...)); err != nil {
				return err
			}
		case *ir.Block:
			if err := r.safe(s.Body); err != nil {
				return err
			}
		case *ir.SwitchAction:
			for _, k := range s.Cases {
				if err := r.safe(k.Body); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// egressParser writes the egress parser: the intrinsic metadata, the
// bridge, then the program's states.
func (e *emitter) egressParser() {
	hdr := e.parser.Params[1]
	intr := &ir.Var{Name: "eg_intr_md", Type: &ir.Struct{Kind: ir.KindHeader, Name: "egress_intrinsic_metadata_t"}, Dir: ir.DirOut}
	bridgeHdr := &ir.Member{X: &ir.VarRef{Var: hdr}, Name: "p4hls_bridge", T: &ir.Struct{Kind: ir.KindHeader, Name: "p4hls_bridge_h"}}
	port := &ir.Member{X: bridgeHdr, Name: bridgeIngressPort, T: &ir.Bits{Width: 9}}
	if len(e.bridge.valid) > 0 {
		e.validityParser("p4hls_EgressParser", intr, bridgeHdr)
		return
	}
	e.programParser("p4hls_EgressParser", intr, []ir.Expr{&ir.VarRef{Var: intr}, bridgeHdr}, nil, port, false, e.egressSkips)
}

// egressControl writes v1model's egress control as TNA's: its standard
// metadata a local, the bridge loaded first, and mark_to_drop's 511
// setting the egress deparser's drop_ctl last.
func (e *emitter) egressControl() error {
	c := e.egress
	hdr, meta, std := c.Params[0], c.Params[1], c.Params[2]
	e.epilogue = []ir.Stmt{dropIf511(std, &ir.Var{Name: "eg_dprsr_md"})}
	// The egress's own locals, declarations and synthesized actions (the
	// ingress's are written).
	e.locals, e.decls, e.actions, e.runFlags, e.usesMeters, e.egressWritten = nil, nil, nil, nil, false, true
	for _, inst := range c.Instances {
		if !e.counterOrMeter(inst) { // checkEgress let in registers besides
			if err := e.register(inst); err != nil {
				return err
			}
		}
	}
	tables, actions, body, err := e.controlParts(c, e.egressNodes)
	if err != nil {
		return err
	}
	e.controlHead(c, "egress", "eg", "output_port_t eg_oport_md")
	e.printDeclarations()
	for _, a := range actions {
		e.pr.Action(a)
	}
	for _, a := range e.actions {
		e.out.WriteString(a)
	}
	e.printTables(tables)
	e.pr.Line("apply {")
	e.pr.Indent(1)
	for _, l := range append(e.bridge.loads(hdr.Name, meta.Name, std.Name), e.egressStdLoads...) {
		e.pr.Line("%s", l)
	}
	for _, f := range e.runFlags {
		e.pr.Line("%s = 1w0;", f)
	}
	e.controlTail(body)
	return nil
}

// emitsWhole says whether a deparser emits its headers struct whole (the
// bridge, its first field, goes out first then).
func emitsWhole(body []ir.Stmt, hdr *ir.Var) bool {
	for _, s := range body {
		if cs, ok := s.(*ir.CallStmt); ok && cs.Call.Callee.Method == "emit" && len(cs.Call.Args) == 1 {
			if v, ok := cs.Call.Args[0].Value.(*ir.VarRef); ok && v.Var == hdr {
				return true
			}
		}
	}
	return false
}
