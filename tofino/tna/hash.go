package tna

import (
	"fmt"
	"math/bits"

	"github.com/p4hls/p4hls/ir"
)

// hashAlgorithms are v1model's hash algorithms a Tofino hash unit
// computes, by their tna.p4 names.
var hashAlgorithms = map[string]string{"crc16": "CRC16", "crc32": "CRC32", "identity": "IDENTITY"}

// plainHash writes v1model's hash(dst, algo, base, data, max) outside
// @atomic code: dst = base + (h mod max), where a Tofino hash unit of
// log2(max) bits computes h mod max. A hash unit has no modulo, so max must
// be a constant power of 2 (or 0 or 1: dst = base).
func (e *emitter) plainHash(s *ir.CallStmt, where string) ([]ir.Stmt, error) {
	args := s.Call.Args
	if len(args) != 5 {
		return nil, errorAt(s.Span(), "%s: hash takes 5 arguments", where)
	}
	dst, base, data := args[0].Value, args[2].Value, args[3].Value
	algo, ok := hashAlgorithms[enumMember(args[1].Value)]
	if !ok {
		return nil, errorAt(s.Span(), "%s: hash algorithm %s has no Tofino hash unit here", where, ir.Format(args[1].Value))
	}
	max, ok := args[4].Value.(*ir.Const)
	if !ok || max.Value.Sign() < 0 || max.Value.BitLen() > 33 || max.Value.Uint64()&(max.Value.Uint64()-1) != 0 {
		return nil, errorAt(s.Span(), "%s: hash with max %s: a Tofino hash unit has no modulo, so the max must be a constant power of 2 (a run-time ECMP group size is an ActionSelector on Tofino, which p4hls does not write)",
			where, ir.Format(args[4].Value))
	}
	t := dst.Type()
	sum := ir.Expr(&ir.Cast{T: t, X: base})
	if w := bits.Len64(max.Value.Uint64()) - 1; w > 0 {
		unit := &ir.Instance{Name: fmt.Sprintf("p4hls_hash%d", e.plainHashes), Type: &ir.Extern{Name: "Hash", Args: []ir.Type{&ir.Bits{Width: w}}}}
		e.plainHashes++
		e.decls = append(e.decls, fmt.Sprintf("    Hash<bit<%d>>(HashAlgorithm_t.%s) %s;\n", w, algo, unit.Name))
		get := &ir.Call{Callee: ir.Callee{Recv: &ir.InstanceRef{Inst: unit}, Method: "get"}, Args: []*ir.Arg{{Value: data}}, T: &ir.Bits{Width: w}}
		sum = &ir.Binary{Op: "+", X: sum, Y: &ir.Cast{T: t, X: get}, T: t}
	}
	return []ir.Stmt{&ir.Assign{LHS: dst, RHS: sum}}, nil
}

func enumMember(x ir.Expr) string {
	if c, ok := x.(*ir.EnumConst); ok {
		return c.Member
	}
	return ""
}
