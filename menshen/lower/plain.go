package lower

import (
	"math/big"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
)

// plain lowers the statements of an action without ALU synthesis into
// one stage: each primitive is one sub-action, and all of them read the
// stage's input, so a statement may not read what an earlier one wrote.
func (l *lowering) plain(a *ir.Action, body []ir.Stmt, st *step, wrote map[string]bool) error {
	for _, s := range body {
		switch s := s.(type) {
		case *ir.CallStmt:
			if s.Call.Callee.Extern != "mark_to_drop" {
				return errorAt(s.Span(), "%s: Menshen cannot run this call", what(a))
			}
			if !l.deferPort {
				st.discard = true
			}
			if err := l.mirrorPort(s.Call.Args[0].Value, &imm{konst: big.NewInt(dropPort)}, st); err != nil {
				return err
			}
		case *ir.CallAction:
			if len(s.Call.Args) > 0 {
				return errorAt(s.Span(), "%s: calls of actions with arguments are not supported on Menshen", what(a))
			}
			if err := l.plain(a, s.Call.Action.Body, st, wrote); err != nil {
				return err
			}
		case *ir.Assign:
			if err := l.assign(a, s, st, wrote); err != nil {
				return err
			}
		default:
			return errorAt(s.Span(), "%s: Menshen runs assignments and mark_to_drop in plain actions; synthesize anything else with @atomic", what(a))
		}
	}
	return nil
}

// assign lowers one assignment.
func (l *lowering) assign(a *ir.Action, s *ir.Assign, st *step, wrote map[string]bool) error {
	lhs := ir.Format(s.LHS)
	unsupported := errorAt(s.Span(), "%s: Menshen cannot compute %s = %s in one sub-action", what(a), lhs, ir.Format(s.RHS))
	for _, r := range reads(s.RHS) {
		if wrote[r] {
			return errorAt(s.Span(), "%s reads %s after writing it; Menshen's sub-actions all read the stage's input", what(a), r)
		}
	}
	defer func() { wrote[lhs] = true }()
	if f, ok := stdField(s.LHS); ok && f == "egress_spec" {
		im, ok := l.immediate(a, s.RHS, 0)
		if !ok {
			return unsupported
		}
		if !l.deferPort {
			st.port = im
		}
		return l.mirrorPort(s.LHS.(*ir.Member).X, im, st)
	}
	dst, err := l.cs.place(s.LHS)
	if err != nil {
		return err
	}
	if dst.header {
		l.cs.written[dst.field] = true
	}
	if len(dst.chunks) > 1 {
		return l.assignWide(a, s, dst, st)
	}
	c := dst.chunks[0].container
	// A narrow header field's container holds the bytes after it too: a
	// sub-action that overwrites them has them restored by a container
	// the deparser stores after this one (containers.maps).
	restore := func() {
		if dst.header && dst.width < 32 {
			l.cs.restore[dst.field] = true
		}
	}
	if im, ok := l.immediate(a, s.RHS, dst.shift()); ok {
		restore()
		return put(st, c, sub{SubAction: menshen.SubAction{Opcode: 0x0E, A: c}, data: im}, s.LHS)
	}
	switch r := s.RHS.(type) {
	case *ir.Member:
		src, err := l.cs.place(r)
		if err != nil {
			return err
		}
		if src.width != dst.width || len(src.chunks) != 1 {
			return unsupported
		}
		if src != dst {
			restore()
		}
		return put(st, c, sub{SubAction: menshen.SubAction{Opcode: 0x09, A: src.chunks[0].container}}, s.LHS)
	case *ir.Binary:
		if r.Op != ir.Add && r.Op != ir.Sub {
			return unsupported
		}
		x, err := l.cs.place(r.X)
		if err != nil || len(x.chunks) != 1 {
			return unsupported
		}
		// x + k, k shifted to the field's place, changes the field's bits
		// alone (the bits after it carry nothing into them).
		if im, ok := l.immediate(a, r.Y, x.shift()); ok && x.width == dst.width {
			if x != dst {
				restore()
			}
			op := map[ir.Op]uint8{ir.Add: 0x09, ir.Sub: 0x0A}[r.Op]
			return put(st, c, sub{SubAction: menshen.SubAction{Opcode: op, A: x.chunks[0].container}, data: im}, s.LHS)
		}
		y, err := l.cs.place(r.Y)
		if err != nil || dst.width != 32 || x.width != 32 || y.width != 32 {
			return unsupported
		}
		op := map[ir.Op]uint8{ir.Add: 0x01, ir.Sub: 0x02}[r.Op]
		return put(st, c, sub{SubAction: menshen.SubAction{Opcode: op, A: x.chunks[0].container, B: y.chunks[0].container}}, s.LHS)
	}
	return unsupported
}

// assignWide sets a field wider than a container to a constant or
// action data: each container gets its 4 bytes of the value.
func (l *lowering) assignWide(a *ir.Action, s *ir.Assign, dst *place, st *step) error {
	n := (dst.width + 7) / 8
	for _, c := range dst.chunks {
		rshift := 8 * (n - c.from - 4)
		im, ok := l.immediate(a, s.RHS, 0)
		if !ok {
			return errorAt(s.Span(), "%s: Menshen sets %s (%d bits, %d containers) only to a constant or action data", what(a), dst.field, dst.width, len(dst.chunks))
		}
		im.rshift = rshift
		if err := put(st, c.container, sub{SubAction: menshen.SubAction{Opcode: 0x0E, A: c.container}, data: im}, s.LHS); err != nil {
			return err
		}
	}
	return nil
}

// mirrorPort keeps the egress port in a container too, when the program
// reads it (a later table matches on it): the metadata ALU's port is not
// a container. std is the standard metadata.
func (l *lowering) mirrorPort(std ir.Expr, im *imm, st *step) error {
	p, ok := l.cs.fields[ir.Format(std)+".egress_spec"]
	if !ok {
		return nil
	}
	l.portStage = max(l.portStage, st.stage)
	shifted := *im
	shifted.shift = p.shift()
	return put(st, p.chunks[0].container, sub{SubAction: menshen.SubAction{Opcode: 0x0E, A: p.chunks[0].container}, data: &shifted}, std)
}

// immediate is a constant or action data as an immediate shifted left
// by shift; a constant is an imm of no parameter.
func (l *lowering) immediate(a *ir.Action, e ir.Expr, shift int) (*imm, bool) {
	switch e := e.(type) {
	case *ir.Const:
		return &imm{konst: e.Value, shift: shift}, true
	case *ir.Cast:
		return l.immediate(a, e.X, shift)
	}
	if i := paramIndex(a, e); i >= 0 {
		return &imm{param: i, shift: shift}, true
	}
	return nil, false
}

// reads lists the fields an expression reads.
func reads(e ir.Expr) []string {
	switch e := e.(type) {
	case *ir.Member:
		return []string{ir.Format(e)}
	case *ir.Binary:
		return append(reads(e.X), reads(e.Y)...)
	case *ir.Unary:
		return reads(e.X)
	case *ir.Cast:
		return reads(e.X)
	}
	return nil
}
