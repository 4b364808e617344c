package tna

import "github.com/p4hls/p4hls/ir"

// Header unions. p4c's mid end (FlattenHeaderUnion) replaces a header
// union by its member headers, and leaves u.isValid() of the union itself
// behind, which its later passes then refuse. A union is valid when one of
// its members is (at most one is), so the TNA program writes u.isValid()
// as u.a.isValid() || u.b.isValid() || ..., which the member headers
// answer alone.

// unionValid is x with every isValid() of a header union written over the
// union's members.
func unionValid(x ir.Expr) ir.Expr {
	return mapExpr(x, func(y ir.Expr) ir.Expr {
		iv, ok := y.(*ir.IsValid)
		if !ok {
			return y
		}
		u, ok := iv.X.Type().(*ir.Struct)
		if !ok || u.Kind != ir.KindHeaderUnion || len(u.Fields) == 0 {
			return y
		}
		var out ir.Expr
		for i, f := range u.Fields {
			m := &ir.IsValid{Pos: iv.Pos, X: &ir.Member{Pos: iv.Pos, X: iv.X, Name: f.Name, Index: i, T: f.Type}}
			if out == nil {
				out = m
				continue
			}
			out = &ir.Binary{Pos: iv.Pos, Op: ir.LOr, X: out, Y: m, T: ir.Bool{}}
		}
		return out
	})
}
