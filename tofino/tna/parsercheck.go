package tna

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// Parser errors and checksum verification.
//
// v1model's parser stops at an error and the packet goes on to the
// ingress with standard_metadata.parser_error set; its verify-checksum
// control sets checksum_error. TNA has neither: the ingress parser's
// errors are the hardware's flags in ig_prsr_md.parser_err (a packet too
// short for a header sets PARTIAL_HDR, a select no case matches NO_MATCH),
// and a checksum is verified by a Checksum unit of the parser. So:
//
//   - a verify(cond, error.E) in a parser state ends the state: a select on
//     cond goes on in a new state, or to a state that records E in the
//     metadata (p4hls_parser_error) and accepts;
//   - each verify_checksum(H.isValid(), {fields of H}, H.f, csum16) of the
//     verify-checksum control (its condition H.isValid() && more, too)
//     becomes a Checksum unit that the state extracting H feeds (the
//     fields, then the checksum) right after the extract, and whose
//     verify() goes into the metadata (p4hls_ckN_ok);
//   - the ingress starts by setting v1model's parser_error and
//     checksum_error from these (where the call's condition holds) and
//     from parser_err's flags.
//
// One case differs from v1model, as the hardware's does: a header whose
// fields sum to 0xFFFF with a checksum field of 0xFFFF (negative zero)
// verifies on Tofino, where v1model's exact compare with the computed
// 0x0000 fails.

const (
	parserErrorField = "p4hls_parser_error"
	// tofinoPartialHeader and tofinoNoMatch are parser_err's flags for a
	// header the packet is too short for and a select no case matches.
	tofinoPartialHeader = "PARSER_ERROR_PARTIAL_HDR"
	tofinoNoMatch       = "PARSER_ERROR_NO_MATCH"
)

// checksumCheck is one verify_checksum call of the verify-checksum
// control, over header H.
type checksumCheck struct {
	header ir.Expr // H, rooted at the verify-checksum control's headers
	// cond is the call's condition (H.isValid() and what else it asks),
	// rooted at the verify-checksum control's parameters.
	cond         ir.Expr
	data         []ir.Expr // the fields summed, then the checksum field
	unit, okFlag string    // the parser's Checksum unit; the metadata's bool
}

// planChecksums reads the verify-checksum control c, refusing what the
// backend does not write.
func (e *emitter) planChecksums(c *ir.Control) error {
	if len(c.Tables) > 0 || len(c.Instances) > 0 || len(c.Actions) > 0 {
		return errorAt(c.Span, "control %s: the Tofino backend writes a verify-checksum control of verify_checksum calls only", c.Name)
	}
	for i, s := range c.Body {
		ck, err := e.checksumCheck(s, i)
		if err != nil {
			return err
		}
		e.checksums = append(e.checksums, ck)
	}
	return nil
}

func (e *emitter) checksumCheck(s ir.Stmt, i int) (*checksumCheck, error) {
	refuse := func() (*checksumCheck, error) {
		return nil, errorAt(s.Span(), "%s: the Tofino backend writes verify_checksum(H.isValid() [&& ...], { fields of H }, H.field, HashAlgorithm.csum16) only (TNA verifies checksums in the parser state that extracts H)", stmtWithoutSemicolon(s))
	}
	cs, ok := s.(*ir.CallStmt)
	if !ok || cs.Call.Callee.Extern != "verify_checksum" || len(cs.Call.Args) != 4 {
		return refuse()
	}
	args := cs.Call.Args
	valid, ok := validConjunct(args[0].Value)
	list, isList := args[1].Value.(*ir.List)
	algo, isEnum := args[3].Value.(*ir.EnumConst)
	if !ok || !isList || !isEnum || algo.Member != "csum16" {
		return refuse()
	}
	h := ir.Format(valid.X)
	fields := append(append([]ir.Expr(nil), list.Elems...), args[2].Value)
	for _, f := range fields {
		m, ok := f.(*ir.Member)
		if !ok || ir.Format(m.X) != h {
			return refuse()
		}
	}
	if e.extractingState(valid.X) == nil {
		return nil, errorAt(s.Span(), "%s: no parser state extracts %s", stmtWithoutSemicolon(s), h)
	}
	return &checksumCheck{header: valid.X, cond: args[0].Value, data: fields, unit: fmt.Sprintf("p4hls_ck%d", i), okFlag: fmt.Sprintf("p4hls_ck%d_ok", i)}, nil
}

// validConjunct finds H.isValid() among the operands of a condition's
// top-level &&s (H.isValid() && H.ihl == 5, as IPv4's check is often
// written). The parser sums H where it extracts it; the ingress, where H
// has the values the verify-checksum control saw, tests the condition.
func validConjunct(cond ir.Expr) (*ir.IsValid, bool) {
	switch c := cond.(type) {
	case *ir.IsValid:
		return c, true
	case *ir.Binary:
		if c.Op != ir.LAnd {
			return nil, false
		}
		if v, ok := validConjunct(c.X); ok {
			return v, true
		}
		return validConjunct(c.Y)
	}
	return nil, false
}

// extractingState returns the parser state that extracts header h (the
// first).
func (e *emitter) extractingState(h ir.Expr) *ir.State {
	for _, st := range e.parser.States {
		if extractAt(st, h, e.parser.Params[1]) >= 0 {
			return st
		}
	}
	return nil
}

// extractAt is the index of the statement of st that extracts h (rooted
// at any headers variable; hdr is the parser's), or -1.
func extractAt(st *ir.State, h ir.Expr, hdr *ir.Var) int {
	want := withoutRoot(ir.Format(h))
	for i, s := range st.Body {
		if cs, ok := s.(*ir.CallStmt); ok && cs.Call.Callee.Method == "extract" && len(cs.Call.Args) == 1 &&
			ir.Format(cs.Call.Args[0].Value) == hdr.Name+want {
			return i
		}
	}
	return -1
}

// withoutRoot drops the variable an access path starts from: ".ipv4"
// for "hdr.ipv4".
func withoutRoot(path string) string {
	if i := strings.Index(path, "."); i >= 0 {
		return path[i:]
	}
	return ""
}

// reroot is x read from v instead of the variable it starts from.
func reroot(x ir.Expr, v *ir.Var) ir.Expr {
	return renameRootFunc(x, func(*ir.VarRef) ir.Expr { return &ir.VarRef{Var: v} })
}

// checkParserErrorRead refuses an ingress that reads parser_error when
// the parser fills a header stack: a stack that overflows is
// StackOutOfBounds, which parser_err has no flag p4hls knows for.
func (e *emitter) checkParserErrorRead() error {
	if !e.readsParserError {
		return nil
	}
	for _, st := range e.parser.States {
		for _, s := range st.Body {
			if cs, ok := s.(*ir.CallStmt); ok && cs.Call.Callee.Method == "extract" && len(cs.Call.Args) > 0 {
				if op, ok := cs.Call.Args[0].Value.(*ir.StackOp); ok && op.Op == "next" {
					return errorAt(s.Span(), "state %s fills a header stack, and control %s reads parser_error: Tofino's parser_err has no flag for StackOutOfBounds that the backend knows", st.Name, e.ingress.Name)
				}
			}
		}
	}
	return nil
}

// parserVerifies reports whether the parser checks what may end it with
// an error of its own (parserChecks).
func (e *emitter) parserVerifies() bool {
	for _, st := range e.parser.States {
		for _, s := range st.Body {
			if len(parserChecks(s)) > 0 {
				return true
			}
		}
	}
	return false
}

// parserCheck is a condition a parser state checks, and the error the
// parser stops with where it does not hold.
type parserCheck struct {
	cond ir.Expr
	err  string
}

// parserChecks are the checks a parser statement makes before it goes
// on: a verify's; and, before a header with a varbit field is extracted,
// v1model's on the field's size: at most its maximum (HeaderTooShort),
// and the header whole bytes (ParserInvalidArgument), which Tofino's
// parser_err has no flags for.
func parserChecks(s ir.Stmt) []parserCheck {
	cs, ok := s.(*ir.CallStmt)
	switch {
	case !ok:
		return nil
	case cs.Call.Callee.Extern == "verify":
		if e, ok := cs.Call.Args[1].Value.(*ir.ErrorConst); ok { // checkVerifies refuses another
			return []parserCheck{{cs.Call.Args[0].Value, e.Name}}
		}
		return nil
	case cs.Call.Callee.Method != "extract" || len(cs.Call.Args) != 2:
		return nil
	}
	size, t := cs.Call.Args[1].Value, cs.Call.Args[0].Value.Type()
	max := ir.VarbitMax(t)
	word := size.Type()
	c := func(v int) ir.Expr { return &ir.Const{T: word, Value: big.NewInt(int64(v))} }
	fits := &ir.Binary{Op: ir.Le, X: size, Y: c(max), T: ir.Bool{}}
	end := size // where the header ends, in bits past a byte boundary
	if fixed := ir.WidthBits(t) - max; fixed%8 != 0 {
		end = &ir.Binary{Op: ir.Add, X: size, Y: c(fixed % 8), T: word}
	}
	whole := &ir.Binary{Op: ir.Eq, X: &ir.Binary{Op: ir.BitAnd, X: end, Y: c(7), T: word}, Y: c(0), T: ir.Bool{}}
	return []parserCheck{{fits, "HeaderTooShort"}, {whole, "ParserInvalidArgument"}}
}

// checkVerifies refuses a verify the backend cannot turn into a
// transition: one not a statement of a state's body, or whose error is
// not a constant.
func (e *emitter) checkVerifies() error {
	for _, st := range e.parser.States {
		for _, s := range st.Body {
			var bad ir.Stmt
			eachStmt([]ir.Stmt{s}, func(x ir.Stmt) {
				if cs, ok := x.(*ir.CallStmt); ok && cs.Call.Callee.Extern == "verify" && bad == nil {
					if _, ok := cs.Call.Args[1].Value.(*ir.ErrorConst); !ok || x != s {
						bad = x
					}
				}
			})
			if bad != nil {
				return errorAt(bad.Span(), "state %s: the Tofino backend writes a verify of a constant error, as a statement of the state, only", st.Name)
			}
		}
	}
	return nil
}

// splitAtVerifies returns state s as states that end at each check (a
// verify's, parserChecks): a select on the condition goes on to the next
// part, or to the error's state (named in errStates, which it fills).
func splitAtVerifies(s *ir.State, errStates map[string]string) []*ir.State {
	var out []*ir.State
	cur := &ir.State{Name: s.Name, Span: s.Span}
	for _, st := range s.Body {
		for _, ck := range parserChecks(st) {
			next := fmt.Sprintf("%s__%d", s.Name, len(out)+1)
			errState := "p4hls_error_" + ck.err
			errStates[errState] = ck.err
			cur.Select = verifySelect(ck.cond, next, errState)
			out = append(out, cur)
			cur = &ir.State{Name: next, Span: s.Span}
		}
		if cs, ok := st.(*ir.CallStmt); !ok || cs.Call.Callee.Extern != "verify" {
			cur.Body = append(cur.Body, st)
		}
	}
	cur.Next, cur.Select = s.Next, s.Select
	return append(out, cur)
}

// verifySelect goes to cont when cond holds, to fail otherwise: a select
// on the field for a comparison with a constant (what a parser's match
// does), on the condition as a bit otherwise.
func verifySelect(cond ir.Expr, cont, fail string) *ir.Select {
	exact := func(v *big.Int, next string) *ir.SelectCase {
		return &ir.SelectCase{Keys: []*ir.Keyset{{Kind: ir.KeysetExact, Value: v}}, Next: next}
	}
	otherwise := func(next string) *ir.SelectCase {
		return &ir.SelectCase{Keys: []*ir.Keyset{{Kind: ir.KeysetDefault}}, Next: next}
	}
	if b, ok := cond.(*ir.Binary); ok && (b.Op == ir.Eq || b.Op == ir.Ne) {
		x, c := b.X, b.Y
		if _, ok := x.(*ir.Const); ok {
			x, c = c, x
		}
		if k, ok := c.(*ir.Const); ok {
			if b.Op == ir.Eq {
				return &ir.Select{Exprs: []ir.Expr{x}, Cases: []*ir.SelectCase{exact(k.Value, cont), otherwise(fail)}}
			}
			return &ir.Select{Exprs: []ir.Expr{x}, Cases: []*ir.SelectCase{exact(k.Value, fail), otherwise(cont)}}
		}
	}
	asBit := &ir.Cast{T: &ir.Bits{Width: 1}, X: cond}
	return &ir.Select{Exprs: []ir.Expr{asBit}, Cases: []*ir.SelectCase{exact(big.NewInt(1), cont), otherwise(fail)}}
}

// parserStates are the program's states as the TNA parser runs them:
// verifies split off, and, for the ingress (checksums), the checksum
// units fed after the extracts. It returns the units to declare.
func (e *emitter) parserStates(states []*ir.State, hdr, meta *ir.Var, checksums bool) ([]*ir.State, []*ir.Instance) {
	var units []*ir.Instance
	if checksums {
		fed := make([]*ir.State, 0, len(states))
		for _, st := range states {
			c := *st
			for _, ck := range e.checksums {
				i := extractAt(&c, ck.header, hdr)
				if i < 0 {
					continue
				}
				c.Body = append(append(append([]ir.Stmt(nil), c.Body[:i+1]...), ck.feed(hdr, meta)...), c.Body[i+1:]...)
			}
			fed = append(fed, &c)
		}
		states = fed
		for _, ck := range e.checksums {
			units = append(units, &ir.Instance{Name: ck.unit, Type: &ir.Extern{Name: "Checksum"}})
		}
	}
	errStates := map[string]string{}
	var out []*ir.State
	for _, st := range states {
		out = append(out, splitAtVerifies(st, errStates)...)
	}
	for _, name := range slices.Sorted(maps.Keys(errStates)) {
		record := &ir.Assign{LHS: member(&ir.VarRef{Var: meta}, parserErrorField, ir.ErrorType{}), RHS: &ir.ErrorConst{Name: errStates[name]}}
		out = append(out, &ir.State{Name: name, Body: []ir.Stmt{record}, Next: "accept"})
	}
	return out, units
}

// feed adds the header's fields and its checksum to the unit, and keeps
// whether they verify.
func (ck *checksumCheck) feed(hdr, meta *ir.Var) []ir.Stmt {
	unit := &ir.InstanceRef{Inst: &ir.Instance{Name: ck.unit, Type: &ir.Extern{Name: "Checksum"}}}
	var elems []ir.Expr
	for _, f := range ck.data {
		elems = append(elems, reroot(f, hdr))
	}
	add := &ir.Call{Callee: ir.Callee{Recv: unit, Method: "add"}, Args: []*ir.Arg{{Value: &ir.List{Elems: elems}}}}
	verify := &ir.Call{Callee: ir.Callee{Recv: unit, Method: "verify"}, T: ir.Bool{}}
	return []ir.Stmt{&ir.CallStmt{Call: add}, &ir.Assign{LHS: member(&ir.VarRef{Var: meta}, ck.okFlag, ir.Bool{}), RHS: verify}}
}

// ingressPrologue is what the ingress does first for v1model's parser
// errors and checksums: parser_error from the recorded verify and
// parser_err's flags (when the ingress reads it), checksum_error from
// the units.
func (e *emitter) ingressPrologue() []string {
	hdr, meta, std := e.ingress.Params[0], e.ingress.Params[1], e.ingress.Params[2].Name
	var out []string
	if e.readsParserError {
		if e.parserVerifies() {
			out = append(out, fmt.Sprintf("%s.parser_error = %s.%s;", std, meta.Name, parserErrorField))
		}
		out = append(out,
			fmt.Sprintf("if ((ig_prsr_md.parser_err & %s) != 16w0) { %s.parser_error = error.PacketTooShort; }", tofinoPartialHeader, std),
			fmt.Sprintf("if ((ig_prsr_md.parser_err & %s) != 16w0) { %s.parser_error = error.NoMatch; }", tofinoNoMatch, std))
	}
	vc := e.prog.Pipeline[ir.V1VerifyChecksum].Control
	for _, ck := range e.checksums {
		// The condition reads the verify-checksum control's headers and
		// metadata: the ingress's, which start with the same values.
		cond := renameRootFunc(ck.cond, func(r *ir.VarRef) ir.Expr {
			switch r.Var {
			case vc.Params[0]:
				return &ir.VarRef{Pos: r.Pos, Var: hdr}
			case vc.Params[1]:
				return &ir.VarRef{Pos: r.Pos, Var: meta}
			}
			return r
		})
		out = append(out, fmt.Sprintf("if (%s && !%s.%s) { %s.checksum_error = 1w1; }", ir.Format(cond), meta.Name, ck.okFlag, std))
	}
	return out
}

// metaFields are the fields the written program adds to the metadata:
// the digest's data, the parser's error, the checksums' verdicts.
func (e *emitter) metaFields() []*ir.Field {
	var out []*ir.Field
	if e.digest != nil {
		out = append(out, &ir.Field{Name: digestField, Type: e.digest.data})
	}
	if e.parserVerifies() {
		out = append(out, &ir.Field{Name: parserErrorField, Type: ir.ErrorType{}})
	}
	for _, ck := range e.checksums {
		out = append(out, &ir.Field{Name: ck.okFlag, Type: ir.Bool{}})
	}
	return out
}
