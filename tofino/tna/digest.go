package tna

import (
	"math/big"

	"github.com/p4hls/p4hls/ir"
)

// Digests and multicast: what the ingress tells the control plane and the
// traffic manager.
//
// v1model's digest(receiver, data) sends data when it runs; TNA's ingress
// sets ig_dprsr_md.digest_type and the ingress deparser packs a Digest
// from the headers or the metadata. The data is copied at the call, into a
// field of the metadata the written program adds (p4hls_digest), so that
// later changes to what it was read from do not change it. A packet sends
// one digest on TNA (digest_type is one number), so the backend writes a
// program with one digest call, whose receiver (1 to 7) is the type.
//
// v1model's mcast_grp is the traffic manager's mcast_grp_a. A packet with
// a group is replicated and its egress_spec ignored (BMv2's rule); on
// Tofino a port set as well would add a unicast copy, so the ingress sets
// the port only when the group is 0.

// digestField is the metadata field that carries the digest's data to the
// deparser, and the deparser's Digest instance.
const digestField = "p4hls_digest"

// digestSite is the program's digest call.
type digestSite struct {
	call     *ir.CallStmt
	data     ir.Type
	receiver int64 // the digest_type
}

// findDigest finds the ingress's digest call, and refuses more than one
// or a receiver no digest_type holds.
func (e *emitter) findDigest() error {
	var calls []*ir.CallStmt
	visit := func(ss []ir.Stmt) {
		eachStmt(ss, func(s ir.Stmt) {
			if cs, ok := s.(*ir.CallStmt); ok && cs.Call.Callee.Extern == "digest" {
				calls = append(calls, cs)
			}
		})
	}
	for _, a := range e.ingress.Actions {
		visit(a.Body)
	}
	visit(e.ingress.Body)
	switch {
	case len(calls) == 0:
		return nil
	case len(calls) > 1:
		return errorAt(calls[1].Span(), "a second digest call: a Tofino packet sends one digest, and the Tofino backend writes programs with one digest call")
	}
	c := calls[0].Call
	if len(c.Args) != 2 {
		return errorAt(calls[0].Span(), "digest takes a receiver and data")
	}
	recv, ok := c.Args[0].Value.(*ir.Const)
	if !ok || !recv.Value.IsInt64() || recv.Value.Int64() < 1 || recv.Value.Int64() > 7 {
		return errorAt(calls[0].Span(), "digest's receiver %s: on Tofino it is the digest_type, a constant from 1 to 7", ir.Format(c.Args[0].Value))
	}
	t := c.Args[1].Value.Type()
	if len(c.Callee.TypeArgs) == 1 {
		t = c.Callee.TypeArgs[0]
	}
	if _, ok := t.(*ir.Struct); !ok {
		return errorAt(calls[0].Span(), "digest's data: the Tofino backend writes a digest of a struct type")
	}
	e.digest = &digestSite{call: calls[0], data: t, receiver: recv.Value.Int64()}
	return nil
}

// digestStmts is the digest call written for TNA: the data into the
// metadata, the digest's type into the deparser's metadata.
func (d *digestSite) digestStmts(meta *ir.Var) []ir.Stmt {
	dst := member(&ir.VarRef{Var: meta}, digestField, d.data)
	data := d.call.Call.Args[1].Value
	if l, ok := data.(*ir.List); ok {
		lc := *l
		lc.T = d.data
		data = &lc
	}
	kind := member(&ir.VarRef{Var: &ir.Var{Name: "ig_dprsr_md"}}, "digest_type", &ir.Bits{Width: 3})
	return []ir.Stmt{&ir.Assign{LHS: dst, RHS: data}, &ir.Assign{LHS: kind, RHS: bitConst(3, d.receiver)}}
}

// pack is the ingress deparser's part: its Digest instance, made with its
// digest_type (Intel's tna.p4 deprecates the constructor without it), and
// the pack under that type.
func (d *digestSite) pack(meta, dprsr *ir.Var) (*ir.Instance, ir.Stmt) {
	inst := &ir.Instance{Name: digestField, Type: &ir.Extern{Name: "Digest", Args: []ir.Type{d.data}}, Args: []ir.Expr{bitConst(3, d.receiver)}}
	kind := member(&ir.VarRef{Var: dprsr}, "digest_type", &ir.Bits{Width: 3})
	call := &ir.Call{Callee: ir.Callee{Recv: &ir.InstanceRef{Inst: inst}, Method: "pack"},
		Args: []*ir.Arg{{Value: member(&ir.VarRef{Var: meta}, digestField, d.data)}}}
	return inst, &ir.If{Cond: &ir.Binary{Op: ir.Eq, X: kind, Y: bitConst(3, d.receiver), T: ir.Bool{}},
		Then: []ir.Stmt{&ir.CallStmt{Call: call}}}
}

// portAndDrop is the end of the ingress: the traffic manager's port, or
// its multicast group when the program uses one (mcast, from portsOnly),
// and the drop when the port is 511.
func portAndDrop(std *ir.Var, mcast bool) []ir.Stmt {
	tm := &ir.VarRef{Var: &ir.Var{Name: "ig_tm_md"}}
	port := member(tm, "ucast_egress_port", &ir.Bits{Width: 9})
	unicast := []ir.Stmt{&ir.Assign{LHS: port, RHS: member(&ir.VarRef{Var: std}, "egress_spec", &ir.Bits{Width: 9})},
		dropIf511(std, &ir.Var{Name: "ig_dprsr_md"})}
	if !mcast {
		return unicast
	}
	grp := member(&ir.VarRef{Var: std}, "mcast_grp", &ir.Bits{Width: 16})
	return []ir.Stmt{&ir.If{Cond: &ir.Binary{Op: ir.Eq, X: grp, Y: bitConst(16, 0), T: ir.Bool{}}, Then: unicast,
		Else: []ir.Stmt{&ir.Assign{LHS: member(tm, "mcast_grp_a", &ir.Bits{Width: 16}), RHS: grp}}}}
}

// markToDrop is v1model's mark_to_drop(std) as BMv2 does it: the drop
// port, and no multicast group (when the program uses one).
func markToDrop(std ir.Expr, mcast bool) []ir.Stmt {
	out := []ir.Stmt{&ir.Assign{LHS: &ir.Member{X: std, Name: "egress_spec", T: &ir.Bits{Width: 9}},
		RHS: &ir.Const{T: &ir.Bits{Width: 9}, Value: big.NewInt(511)}}}
	if mcast {
		out = append(out, &ir.Assign{LHS: &ir.Member{X: std, Name: "mcast_grp", T: &ir.Bits{Width: 16}}, RHS: bitConst(16, 0)})
	}
	return out
}
