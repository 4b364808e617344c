package ir

import (
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
)

// Print writes p in a P4-like text form: every type is explicit, constants
// carry their type (8w5), and names are resolved. It is the form of IR
// dumps and golden files; it is deterministic.
func Print(w io.Writer, p *Program) {
	pr := &printer{w: w}
	pr.program(p)
}

// String prints p to a string.
func (p *Program) String() string {
	var b strings.Builder
	Print(&b, p)
	return b.String()
}

type printer struct {
	w      io.Writer
	indent int
	// orderedEntries writes const entries without priorities (OrderEntries).
	orderedEntries bool
	// errors is the program's error enumeration, for keysets that match
	// an error (an index into it).
	errors []string
}

func (p *printer) line(format string, args ...any) {
	fmt.Fprintf(p.w, "%s%s\n", strings.Repeat("    ", p.indent), fmt.Sprintf(format, args...))
}

func (p *printer) program(prog *Program) {
	p.errors = prog.Errors
	if prog.Arch != "" {
		p.line("// architecture %s", prog.Arch)
	}
	if len(prog.Errors) > 0 {
		p.line("error { %s }", strings.Join(prog.Errors, ", "))
	}
	for _, t := range prog.Types {
		p.typeDecl(t)
	}
	for _, inst := range prog.Instances {
		p.instance(inst)
	}
	for _, a := range prog.Actions {
		p.action(a)
	}
	for _, f := range prog.Functions {
		p.function(f)
	}
	for _, x := range prog.Parsers {
		p.parser(x)
	}
	for _, c := range prog.Controls {
		p.control(c)
	}
	if len(prog.Pipeline) > 0 {
		var parts []string
		for _, b := range prog.Pipeline {
			name := "?"
			if b.Parser != nil {
				name = b.Parser.Name
			} else if b.Control != nil {
				name = b.Control.Name
			}
			parts = append(parts, b.Param+"="+name)
		}
		p.line("pipeline(%s);", strings.Join(parts, ", "))
	}
}

func (p *printer) typeDecl(t Type) {
	switch t := t.(type) {
	case *Struct:
		p.line("%s %s {", t.Kind, t.Name)
		p.indent++
		for _, f := range t.Fields {
			p.line("%s %s;", f.Type, f.Name)
		}
		p.indent--
		p.line("}")
	case *Enum:
		if t.Underlying == nil {
			p.line("enum %s { %s }", t.Name, strings.Join(t.Members, ", "))
			return
		}
		parts := make([]string, len(t.Members))
		for i, m := range t.Members {
			parts[i] = fmt.Sprintf("%s = %s", m, t.Values[i])
		}
		p.line("enum %s %s { %s }", t.Underlying, t.Name, strings.Join(parts, ", "))
	}
}

func params(vs []*Var) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		if v.Dir != DirNone {
			parts[i] = fmt.Sprintf("%s %s %s", v.Dir, v.Type, v.Name)
		} else {
			parts[i] = fmt.Sprintf("%s %s", v.Type, v.Name)
		}
	}
	return strings.Join(parts, ", ")
}

func (p *printer) instance(inst *Instance) {
	if len(inst.Methods) == 0 {
		p.line("%s(%s) %s;", inst.Type, exprList(inst.Args), inst.Name)
		return
	}
	p.line("%s(%s) %s = {", inst.Type, exprList(inst.Args), inst.Name)
	p.indent++
	for _, f := range inst.Methods {
		p.function(f)
	}
	p.indent--
	p.line("};")
}

func (p *printer) action(a *Action) {
	p.line("action %s(%s) {", a.Name, params(a.Params))
	p.block(a.Body)
	p.line("}")
}

func (p *printer) function(f *Function) {
	ret := "void"
	if f.Return != nil {
		ret = f.Return.String()
	}
	p.line("%s %s(%s) {", ret, f.Name, params(f.Params))
	p.block(f.Body)
	p.line("}")
}

func (p *printer) parser(x *Parser) {
	p.line("parser %s(%s) {", x.Name, params(x.Params))
	p.indent++
	for _, v := range x.Locals {
		p.line("%s %s;", v.Type, v.Name)
	}
	for _, inst := range x.Instances {
		p.instance(inst)
	}
	for _, vs := range x.ValueSets {
		p.line("value_set<%s>(%d) %s;", vs.Elem, vs.Size, vs.Name)
	}
	for _, s := range x.States {
		p.line("state %s {", s.Name)
		p.block(s.Body)
		p.indent++
		if s.Select == nil {
			p.line("transition %s;", s.Next)
		} else {
			p.line("transition select(%s) {", exprList(s.Select.Exprs))
			p.indent++
			for _, c := range s.Select.Cases {
				p.line("%s: %s;", p.keysets(s.Select.Exprs, c.Keys), c.Next)
			}
			p.indent--
			p.line("}")
		}
		p.indent--
		p.line("}")
	}
	p.indent--
	p.line("}")
}

// keysets prints the keysets of a select case, each as its key (of
// keys) reads it.
func (p *printer) keysets(keys []Expr, ks []*Keyset) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = k.String()
		if i < len(keys) {
			parts[i] = p.keysetText(k, keys[i].Type())
		}
	}
	return keysetTuple(parts)
}

func keysetTuple(parts []string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// entryKeysets prints an entry's keysets, each as its key reads it.
func (p *printer) entryKeysets(t *Table, e *Entry) string {
	keys := make([]Expr, len(t.Keys))
	for i, k := range t.Keys {
		keys[i] = k.Expr
	}
	return p.keysets(keys, e.Keys)
}

// keysetText prints keyset k of a key of type t. The IR holds a value as
// a number; P4 takes none for a bool key (true or false), an error (its
// name) or an enum (its member's name).
func (p *printer) keysetText(k *Keyset, t Type) string {
	if k.Kind != KeysetExact || k.Value == nil {
		return k.String()
	}
	i := -1
	if k.Value.IsInt64() {
		i = int(k.Value.Int64())
	}
	switch t := t.(type) {
	case Bool:
		return fmt.Sprint(k.Value.Sign() != 0)
	case ErrorType:
		if i >= 0 && i < len(p.errors) {
			return "error." + p.errors[i]
		}
	case *Enum:
		if t.Underlying != nil {
			i = slices.IndexFunc(t.Values, func(v *big.Int) bool { return v.Cmp(k.Value) == 0 })
		}
		if i >= 0 && i < len(t.Members) {
			return t.Name + "." + t.Members[i]
		}
	}
	return k.String()
}

// String prints a keyset as P4 writes it.
func (k *Keyset) String() string {
	switch k.Kind {
	case KeysetMask:
		return fmt.Sprintf("0x%x &&& 0x%x", k.Value, k.Mask)
	case KeysetRange:
		return fmt.Sprintf("%s .. %s", k.Value, k.Hi)
	case KeysetDefault:
		return "default"
	case KeysetValueSet:
		return k.ValueSet.Name
	}
	return k.Value.String()
}

func (p *printer) control(c *Control) {
	p.line("control %s(%s) {", c.Name, params(c.Params))
	p.indent++
	for _, v := range c.Locals {
		p.line("%s %s;", v.Type, v.Name)
	}
	for _, inst := range c.Instances {
		p.instance(inst)
	}
	for _, a := range c.Actions {
		p.action(a)
	}
	for _, t := range c.Tables {
		p.table(t)
	}
	p.line("apply {")
	p.block(c.Body)
	p.line("}")
	p.indent--
	p.line("}")
}

func (p *printer) table(t *Table) {
	p.line("table %s {", t.Name)
	p.indent++
	if len(t.Keys) > 0 {
		var keys []string
		for _, k := range t.Keys {
			text := Format(k.Expr)
			if k.Name != "" && k.Name != text { // the control plane's name for it
				keys = append(keys, fmt.Sprintf("%s: %s @name(%q)", text, k.Match, k.Name))
			} else {
				keys = append(keys, fmt.Sprintf("%s: %s", text, k.Match))
			}
		}
		p.line("key = { %s; }", strings.Join(keys, "; "))
	}
	var acts []string
	for _, a := range t.Actions {
		if len(a.Args) > 0 {
			acts = append(acts, fmt.Sprintf("%s(%s)", a.Action.Name, exprList(a.Args)))
		} else {
			acts = append(acts, a.Action.Name)
		}
	}
	if len(acts) == 0 {
		p.line("actions = { }")
	} else {
		p.line("actions = { %s; }", strings.Join(acts, "; "))
	}
	if t.Default != nil {
		c := ""
		if t.DefaultConst {
			c = "const "
		}
		p.line("%sdefault_action = %s(%s);", c, t.Default.Action.Name, exprList(t.Default.Args))
	}
	if t.Size > 0 {
		p.line("size = %d;", t.Size)
	}
	if t.Counters != nil {
		p.line("counters = %s;", t.Counters.Name)
	}
	if t.Meters != nil {
		p.line("meters = %s;", t.Meters.Name)
	}
	if len(t.Entries) > 0 {
		p.line("const entries = {")
		p.indent++
		for _, e := range t.Entries {
			if p.orderedEntries {
				p.line("%s: %s(%s);", p.entryKeysets(t, e), e.Action.Action.Name, exprList(e.Action.Args))
				continue
			}
			p.line("priority=%d: %s: %s(%s);", e.Priority, p.entryKeysets(t, e), e.Action.Action.Name, exprList(e.Action.Args))
		}
		p.indent--
		p.line("}")
	}
	p.indent--
	p.line("}")
}

func (p *printer) block(ss []Stmt) {
	p.indent++
	for _, s := range ss {
		p.stmt(s)
	}
	p.indent--
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Assign:
		p.line("%s = %s;", Format(s.LHS), Format(s.RHS))
	case *If:
		p.line("if (%s) {", Format(s.Cond))
		p.block(s.Then)
		if len(s.Else) > 0 {
			p.line("} else {")
			p.block(s.Else)
		}
		p.line("}")
	case *Block:
		if s.Atomic {
			p.line("@atomic {")
		} else {
			p.line("{")
		}
		p.block(s.Body)
		p.line("}")
	case *Declare:
		if s.Init != nil {
			p.line("%s %s = %s;", s.Var.Type, s.Var.Name, Format(s.Init))
		} else {
			p.line("%s %s;", s.Var.Type, s.Var.Name)
		}
	case *CallAction:
		p.line("%s(%s);", s.Call.Action.Name, exprList(s.Call.Args))
	case *ApplyTable:
		p.line("%s.apply();", s.Table.Name)
	case *SwitchAction:
		p.line("switch (%s.apply().action_run) {", s.Table.Name)
		p.indent++
		for _, c := range s.Cases {
			var labels []string
			for _, a := range c.Actions {
				labels = append(labels, a.Name)
			}
			p.switchCase(labels, c.Default, c.Body)
		}
		p.indent--
		p.line("}")
	case *Switch:
		p.line("switch (%s) {", Format(s.X))
		p.indent++
		for _, c := range s.Cases {
			var labels []string
			for _, v := range c.Values {
				labels = append(labels, Format(v))
			}
			p.switchCase(labels, c.Default, c.Body)
		}
		p.indent--
		p.line("}")
	case *CallStmt:
		p.line("%s;", Format(s.Call))
	case *SetValid:
		m := "setInvalid"
		if s.Valid {
			m = "setValid"
		}
		p.line("%s.%s();", Format(s.X), m)
	case *StackShift:
		m := "pop_front"
		if s.Push {
			m = "push_front"
		}
		p.line("%s.%s(%d);", Format(s.X), m, s.Count)
	case *ApplyBlock:
		p.line("apply block;")
	case *Exit:
		p.line("exit;")
	case *Return:
		if s.Value != nil {
			p.line("return %s;", Format(s.Value))
		} else {
			p.line("return;")
		}
	case *For:
		p.line("for (%s; %s; %s) {", simpleStmts(s.Init), Format(s.Cond), simpleStmts(s.Update))
		p.block(s.Body)
		p.line("}")
	case *Break:
		p.line("break;")
	case *Continue:
		p.line("continue;")
	default:
		p.line("/* %T */", s)
	}
}

// simpleStmts prints a for loop's initializations or updates: simple
// statements separated by commas.
func simpleStmts(ss []Stmt) string {
	var parts []string
	for _, s := range ss {
		switch s := s.(type) {
		case *Declare:
			if s.Init != nil {
				parts = append(parts, fmt.Sprintf("%s %s = %s", s.Var.Type, s.Var.Name, Format(s.Init)))
			} else {
				parts = append(parts, fmt.Sprintf("%s %s", s.Var.Type, s.Var.Name))
			}
		case *Assign:
			parts = append(parts, fmt.Sprintf("%s = %s", Format(s.LHS), Format(s.RHS)))
		case *CallStmt:
			parts = append(parts, Format(s.Call))
		default:
			parts = append(parts, fmt.Sprintf("/* %T */", s))
		}
	}
	return strings.Join(parts, ", ")
}

func (p *printer) switchCase(labels []string, dflt bool, body []Stmt) {
	if dflt {
		labels = append(labels, "default")
	}
	p.line("%s: {", strings.Join(labels, ": "))
	p.block(body)
	p.line("}")
}

func exprList(es []Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = Format(e)
	}
	return strings.Join(parts, ", ")
}

// Format prints an expression, fully parenthesized.
func Format(e Expr) string {
	if e == nil {
		return "<nil>"
	}
	switch e := e.(type) {
	case *Const:
		switch t := e.T.(type) {
		case *Bits:
			if t.Width == 0 { // P4 has no 0w0 literal
				return "((bit<0>) 0)"
			}
			if t.Signed {
				if e.Value.Sign() < 0 { // P4 writes a negative constant as a negation
					return fmt.Sprintf("(-%ds%s)", t.Width, new(big.Int).Neg(e.Value))
				}
				return fmt.Sprintf("%ds%s", t.Width, e.Value)
			}
			return fmt.Sprintf("%dw%s", t.Width, e.Value)
		case Bool:
			return fmt.Sprint(e.Value.Sign() != 0)
		}
		return e.Value.String()
	case *ErrorConst:
		return "error." + e.Name
	case *EnumConst:
		return e.Enum.Name + "." + e.Member
	case *StringConst:
		return fmt.Sprintf("%q", e.Value)
	case *VarRef:
		return e.Var.Name
	case *InstanceRef:
		return e.Inst.Name
	case *Member:
		if _, ok := e.X.Type().(*Tuple); ok {
			return fmt.Sprintf("%s[%d]", Format(e.X), e.Index)
		}
		return Format(e.X) + "." + e.Name
	case *StackElem:
		return fmt.Sprintf("%s[%s]", Format(e.X), Format(e.Index))
	case *StackOp:
		return Format(e.X) + "." + e.Op
	case *Slice:
		return fmt.Sprintf("%s[%d:%d]", Format(e.X), e.Hi, e.Lo)
	case *Unary:
		return fmt.Sprintf("(%s%s)", e.Op, Format(e.X))
	case *Binary:
		return fmt.Sprintf("(%s %s %s)", Format(e.X), e.Op, Format(e.Y))
	case *Cast:
		return fmt.Sprintf("((%s) %s)", e.T, Format(e.X))
	case *Cond:
		return fmt.Sprintf("(%s ? %s : %s)", Format(e.C), Format(e.Then), Format(e.Else))
	case *IsValid:
		return Format(e.X) + ".isValid()"
	case *List:
		return "{" + exprList(e.Elems) + "}"
	case *TableHit:
		if e.Miss {
			return e.Table.Name + ".apply().miss"
		}
		return e.Table.Name + ".apply().hit"
	case *Call:
		var name string
		switch {
		case e.Callee.Recv != nil:
			name = Format(e.Callee.Recv) + "." + e.Callee.Method
		case e.Callee.Func != nil:
			name = e.Callee.Func.Name
		default:
			name = e.Callee.Extern
		}
		if len(e.Callee.TypeArgs) > 0 {
			name += "<" + joinTypes(e.Callee.TypeArgs) + ">"
		}
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			if a.Value == nil {
				args[i] = "_"
			} else {
				args[i] = Format(a.Value)
			}
		}
		return name + "(" + strings.Join(args, ", ") + ")"
	}
	return fmt.Sprintf("<%T>", e)
}

// Printer writes pieces of a program in Print's text form, for an emitter
// that builds a program of its own around them.
type Printer struct{ p printer }

// NewPrinter returns a printer to w.
func NewPrinter(w io.Writer) *Printer { return &Printer{printer{w: w}} }

// OrderEntries makes the printer write const entries without their
// priorities, in the order given: P4-16 matches const entries in the
// order written, and p4c refuses priorities in them. The caller puts the
// entries in the order their priorities rank them.
func (x *Printer) OrderEntries() { x.p.orderedEntries = true }

// Errors gives the printer the program's error enumeration, which the
// keysets that match an error need.
func (x *Printer) Errors(names []string) { x.p.errors = names }

// Line writes one line at the current indentation.
func (x *Printer) Line(format string, args ...any) { x.p.line(format, args...) }

// Indent changes the indentation by d levels.
func (x *Printer) Indent(d int) { x.p.indent += d }

// Type writes a type declaration.
func (x *Printer) Type(t Type) { x.p.typeDecl(t) }

// Parser writes a parser.
func (x *Printer) Parser(p *Parser) { x.p.parser(p) }

// Control writes a control.
func (x *Printer) Control(c *Control) { x.p.control(c) }

// Function writes a function.
func (x *Printer) Function(f *Function) { x.p.function(f) }

// Action writes an action.
func (x *Printer) Action(a *Action) { x.p.action(a) }

// Table writes a table.
func (x *Printer) Table(t *Table) { x.p.table(t) }

// Instance writes an extern instance.
func (x *Printer) Instance(inst *Instance) { x.p.instance(inst) }

// Stmts writes statements, one level deeper than the current indentation.
func (x *Printer) Stmts(ss []Stmt) { x.p.block(ss) }
