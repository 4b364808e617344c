package tna

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/ir"
)

// The egress parser by validity. When the ingress changes which headers
// are valid (an encapsulation pushes one, a tunnel end pops one) or a
// field the parser selects on, running the program's parser again in the
// egress would not find the headers the ingress ended with, which is what
// v1model's egress sees. Then the bridge carries a validity bit per header
// the deparser emits, and the egress parser extracts, in the order the
// deparser emits them, exactly the headers whose bit is set: the bytes the
// ingress deparser wrote, read back as the headers it wrote them from.

// emittedHeaders lists the headers the deparser emits, in its order (a
// union's members and a stack's elements one by one), rooted at the
// deparser's headers parameter; ok is false when its body is not plain
// emits.
func (e *emitter) emittedHeaders() (leaves []ir.Expr, ok bool) {
	for _, s := range e.deparser.Body {
		cs, isCall := s.(*ir.CallStmt)
		if !isCall || cs.Call.Callee.Method != "emit" || len(cs.Call.Args) != 1 || cs.Call.Args[0].Value == nil {
			return nil, false
		}
		leaves = appendHeaders(leaves, cs.Call.Args[0].Value)
	}
	return leaves, true
}

// appendHeaders appends the headers x holds, in emit order.
func appendHeaders(out []ir.Expr, x ir.Expr) []ir.Expr {
	switch t := x.Type().(type) {
	case *ir.Struct:
		if t.Kind == ir.KindHeader {
			return append(out, x)
		}
		for i, f := range t.Fields {
			out = appendHeaders(out, &ir.Member{X: x, Name: f.Name, Index: i, T: f.Type})
		}
	case *ir.Stack:
		for i := range t.Size {
			out = appendHeaders(out, &ir.StackElem{X: x, Index: &ir.Const{T: &ir.Bits{Width: 32}, Value: big.NewInt(int64(i))}})
		}
	}
	return out
}

// validityField is the bridge field holding header h's validity.
func validityField(h ir.Expr) string {
	return "v_" + strings.NewReplacer(".", "_", "[", "_", "]", "").Replace(withoutRoot(ir.Format(h)))
}

// byValidity decides whether the egress parser can go by validity bits
// instead of re-parsing; why is checkReparse's refusal, returned with the
// reason when it cannot. It can when the deparser is plain emits of
// headers without a varbit field (the egress parser would need its
// length, which P4 cannot read), and the egress uses no header the
// deparser does not emit (v1model's egress would see it; TNA's has no
// bytes to read it from). A stack's elements are extracted by index, so
// its next index starts at 0, which a control cannot observe (next, last
// and lastIndex are the parser's). egressText is the egress control as
// printed.
func (e *emitter) byValidity(why error, egressText string) ([]ir.Expr, error) {
	refuse := func(format string, args ...any) error {
		var be *backends.Error
		if !errors.As(why, &be) {
			return why
		}
		return errorAt(be.Span, "%s; nor can it go by the headers' validity: %s", be.Msg, fmt.Sprintf(format, args...))
	}
	leaves, ok := e.emittedHeaders()
	if !ok {
		return nil, refuse("the deparser %s does more than emit headers", e.deparser.Name)
	}
	hdr := e.egress.Params[0].Name
	var emitted []string
	fields := map[string]bool{}
	for _, h := range leaves {
		emitted = append(emitted, withoutRoot(ir.Format(h)))
		if hasVarbit(h.Type()) {
			return nil, refuse("%s has a varbit field, whose length it would need", ir.Format(h))
		}
		// A header emitted twice, or two whose bridge fields would have
		// one name (a.b_c and a_b.c).
		f := validityField(h)
		if fields[f] {
			return nil, refuse("the deparser emits %s where another header's validity bit would go", ir.Format(h))
		}
		fields[f] = true
	}
	root := &ir.VarRef{Var: e.hdr}
	for _, h := range appendHeaders(nil, root) {
		path := withoutRoot(ir.Format(h))
		if !coveredBy(path, emitted) && mentions(egressText, hdr+path) {
			return nil, refuse("the deparser does not emit %s, which control %s uses", ir.Format(h), e.egress.Name)
		}
	}
	return leaves, nil
}

// hasVarbit says whether header type t has a varbit field.
func hasVarbit(t ir.Type) bool {
	st, ok := t.(*ir.Struct)
	if !ok {
		return false
	}
	for _, f := range st.Fields {
		if _, ok := f.Type.(*ir.Varbit); ok {
			return true
		}
	}
	return false
}

// validityStores are the ingress's last statements for the headers'
// validity bits: 1 where the header is valid.
func (b *bridge) validityStores(br ir.Expr, hdr *ir.Var) []ir.Stmt {
	var out []ir.Stmt
	for _, h := range b.valid {
		bit := member(br, validityField(h), &ir.Bits{Width: 1})
		out = append(out, &ir.Assign{LHS: bit, RHS: &ir.Cond{C: &ir.IsValid{X: reroot(h, hdr)}, Then: bitConst(1, 1), Else: bitConst(1, 0)}})
	}
	return out
}

// validityParser writes the egress parser that extracts the intrinsic
// metadata and the bridge, then each header the deparser emits whose
// validity bit is set, in the deparser's order.
func (e *emitter) validityParser(name string, intr *ir.Var, bridgeHdr ir.Expr) {
	p, pkt, hdr, _ := e.tnaParser(name, intr)
	p.Locals, p.Instances, p.ValueSets = nil, nil, nil
	extract := func(x ir.Expr) ir.Stmt { return pktCall(pkt, "extract", x) }
	test := func(k int) string { return fmt.Sprintf("p4hls_valid_%d", k) }
	next := func(k int) string {
		if k == len(e.bridge.valid) {
			return "accept"
		}
		return test(k)
	}
	p.States = []*ir.State{{Name: "start", Body: []ir.Stmt{extract(&ir.VarRef{Var: intr}), extract(bridgeHdr)}, Next: next(0)}}
	for k, h := range e.bridge.valid {
		read := fmt.Sprintf("p4hls_extract_%d", k)
		bit := member(bridgeHdr, validityField(h), &ir.Bits{Width: 1})
		p.States = append(p.States,
			&ir.State{Name: test(k), Select: &ir.Select{Exprs: []ir.Expr{bit}, Cases: []*ir.SelectCase{
				{Keys: []*ir.Keyset{{Kind: ir.KeysetExact, Value: big.NewInt(1)}}, Next: read},
				{Keys: []*ir.Keyset{{Kind: ir.KeysetDefault}}, Next: next(k + 1)}}}},
			&ir.State{Name: read, Body: []ir.Stmt{extract(reroot(h, hdr))}, Next: next(k + 1)})
	}
	e.pr.Parser(&p)
	e.out.WriteString("\n")
}
