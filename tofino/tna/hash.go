package tna

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/p4hls/p4hls/ir"
)

// Hash and Random units for v1model's hash and random outside @atomic
// code.

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
		sum = &ir.Binary{Op: ir.Add, X: sum, Y: &ir.Cast{T: t, X: get}, T: t}
	}
	return []ir.Stmt{&ir.Assign{LHS: dst, RHS: sum}}, nil
}

func enumMember(x ir.Expr) string {
	if c, ok := x.(*ir.EnumConst); ok {
		return c.Member
	}
	return ""
}

// plainRandom writes v1model's random(dst, lo, hi) outside @atomic code:
// dst = lo + a Random unit's log2(hi - lo + 1) bits.
func (e *emitter) plainRandom(s *ir.CallStmt, where string) ([]ir.Stmt, error) {
	lo, w, err := randomBits(s, where)
	if err != nil {
		return nil, err
	}
	dst := s.Call.Args[0].Value
	t := dst.Type()
	sum := ir.Expr(&ir.Cast{T: t, X: lo})
	if w > 0 {
		unit := &ir.Instance{Name: fmt.Sprintf("p4hls_random%d", e.randoms), Type: &ir.Extern{Name: "Random", Args: []ir.Type{&ir.Bits{Width: w}}}}
		e.randoms++
		e.decls = append(e.decls, fmt.Sprintf("    Random<bit<%d>>() %s;\n", w, unit.Name))
		get := &ir.Call{Callee: ir.Callee{Recv: &ir.InstanceRef{Inst: unit}, Method: "get"}, T: &ir.Bits{Width: w}}
		sum = &ir.Binary{Op: ir.Add, X: sum, Y: &ir.Cast{T: t, X: get}, T: t}
	}
	return []ir.Stmt{&ir.Assign{LHS: dst, RHS: sum}}, nil
}

// randomBits returns a random call's low bound and how many random bits
// it takes. A Random unit draws uniform bits, so the range must hold a
// power of 2 of values.
func randomBits(s *ir.CallStmt, where string) (*ir.Const, int, error) {
	args := s.Call.Args
	if len(args) != 3 {
		return nil, 0, errorAt(s.Span(), "%s: random takes 3 arguments", where)
	}
	lo, okLo := args[1].Value.(*ir.Const)
	hi, okHi := args[2].Value.(*ir.Const)
	if !okLo || !okHi || hi.Value.Cmp(lo.Value) < 0 {
		return nil, 0, errorAt(s.Span(), "%s: random's bounds must be constants, the low one first", where)
	}
	n := new(big.Int).Sub(hi.Value, lo.Value)
	n.Add(n, big.NewInt(1))
	if !n.IsUint64() || n.Uint64()&(n.Uint64()-1) != 0 {
		return nil, 0, errorAt(s.Span(), "%s: random(%s, %s): a Tofino Random unit draws uniform bits, so the range must hold a power of 2 of values, not %s",
			where, ir.Format(args[1].Value), ir.Format(args[2].Value), n)
	}
	return lo, bits.Len64(n.Uint64()) - 1, nil
}

// checkRandoms refuses, before anything else is written, a random call of
// the ingress whose range no Random unit draws: the limit that binds.
func (e *emitter) checkRandoms() error {
	var err error
	check := func(ss []ir.Stmt, where string) {
		eachStmt(ss, func(s ir.Stmt) {
			if cs, ok := s.(*ir.CallStmt); ok && cs.Call.Callee.Extern == "random" && err == nil {
				_, _, err = randomBits(cs, where)
			}
		})
	}
	check(e.ingress.Body, "the apply block")
	for _, a := range e.ingress.Actions {
		check(a.Body, "action "+a.Name)
	}
	return err
}
