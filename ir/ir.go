// Package ir is the program every phase of p4hls shares: types with widths,
// headers, registers, tables, actions, parsers and controls as structured
// statements, and @atomic blocks. The frontend builds it; transform
// rewrites it; interp runs it; synth and the backends read it.
//
// Names are resolved: a variable reference points at its *Var, a table
// application at its *Table, an action call at its *Action. Every node has
// the Span of the source it came from, for diagnostics in later phases.
package ir

import (
	"math/big"

	"github.com/p4hls/p4hls/diag"
)

// Program is a whole P4 program.
type Program struct {
	// Arch is the architecture of the main package (V1Model, TNA), or "" when
	// the program has no main instance of a known architecture.
	Arch string
	// Types holds the named types (headers, structs, unions, enums) in
	// declaration order.
	Types []Type
	// Errors is the error enumeration, in declaration order.
	Errors []string
	// MatchKinds are the match kinds the program declares (core.p4's,
	// the architecture's), in declaration order.
	MatchKinds []string
	Parsers    []*Parser
	Controls   []*Control
	Functions  []*Function
	// Actions and Instances declared at the top level (NoAction, global
	// registers).
	Actions   []*Action
	Instances []*Instance
	// Pipeline is the main package's blocks in the order packets traverse
	// them (for v1model: parser, verify checksum, ingress, egress, compute
	// checksum, deparser).
	Pipeline []*PipeBlock
}

// The architectures p4hls knows, as Program.Arch names them.
const (
	V1Model = "v1model" // a V1Switch main instance
	TNA     = "tna"     // a Tofino Switch of one Pipeline
)

// The blocks of a v1model program, by their position in Program.Pipeline
// (the V1Switch package's parameter order).
const (
	V1Parser = iota
	V1VerifyChecksum
	V1Ingress
	V1Egress
	V1ComputeChecksum
	V1Deparser
	V1Blocks // how many blocks a V1Switch has
)

// The blocks of a TNA program's Pipeline, by their position in
// Program.Pipeline.
const (
	TNAIngressParser = iota
	TNAIngress
	TNAIngressDeparser
	TNAEgressParser
	TNAEgress
	TNAEgressDeparser
	TNABlocks // how many blocks a TNA Pipeline has
)

// PipeBlock is one block of the main package: a parser or a control, with the
// name of the package parameter it is bound to (p, vr, ig, ...).
type PipeBlock struct {
	Param   string
	Parser  *Parser
	Control *Control
}

// AtomicActions lists the actions that hold an @atomic block, in
// declaration order.
func (p *Program) AtomicActions() []*Action {
	var out []*Action
	for _, c := range p.Controls {
		for _, a := range c.Actions {
			if AtomicIn(a.Body) {
				out = append(out, a)
			}
		}
	}
	return out
}

// SynthesizedActions lists the actions synthesis maps onto ALUs, in
// declaration order: those that hold an @atomic block, and those that
// read or write a register outside one. A switch runs a register's
// read-modify-write in a stateful ALU either way, and a plain action runs
// whole for one packet before the next, as an @atomic block does.
func (p *Program) SynthesizedActions() []*Action {
	var out []*Action
	for _, c := range p.Controls {
		for _, a := range c.Actions {
			if a.Synthesized() {
				out = append(out, a)
			}
		}
	}
	return out
}

// Synthesized reports whether synthesis maps the action onto ALUs: it
// holds an @atomic block, or it uses a register.
func (a *Action) Synthesized() bool {
	return AtomicIn(a.Body) || RegisterCall(a.Body) != nil
}

// RegisterCall returns the first call, at any depth of ss, of a method of
// a v1model register, or nil.
func RegisterCall(ss []Stmt) *CallStmt {
	for _, s := range ss {
		var found *CallStmt
		switch s := s.(type) {
		case *CallStmt:
			if r, ok := s.Call.Callee.Recv.(*InstanceRef); ok && r.Inst.Type.Name == "register" {
				return s
			}
		case *If:
			if found = RegisterCall(s.Then); found == nil {
				found = RegisterCall(s.Else)
			}
		case *Block:
			found = RegisterCall(s.Body)
		}
		if found != nil {
			return found
		}
	}
	return nil
}

// AtomicIn reports whether statements hold an @atomic block, at any depth.
func AtomicIn(ss []Stmt) bool {
	for _, s := range ss {
		if b, ok := s.(*Block); ok && (b.Atomic || AtomicIn(b.Body)) {
			return true
		}
	}
	return false
}

// Control finds a control by name.
func (p *Program) Control(name string) *Control {
	for _, c := range p.Controls {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Parser finds a parser by name.
func (p *Program) Parser(name string) *Parser {
	for _, x := range p.Parsers {
		if x.Name == name {
			return x
		}
	}
	return nil
}

// Direction is a parameter's direction.
type Direction int

const (
	DirNone Direction = iota // action data, constructor arguments
	DirIn
	DirOut
	DirInOut
)

func (d Direction) String() string { return [...]string{"", "in", "out", "inout"}[d] }

// Var is a parameter or a variable.
type Var struct {
	Name string
	Type Type
	Dir  Direction
	Span diag.Span
}

// Instance is an extern object instantiated in a parser or control:
// register<bit<32>, bit<32>>(1024) r;
type Instance struct {
	Name string
	Type *Extern
	// Args are the constructor arguments, all compile-time constants.
	Args []Expr
	// Methods implement the extern's abstract methods (a RegisterAction's
	// apply), from the instance's initializer.
	Methods []*Function
	Span    diag.Span
}

// Method returns the instance's implementation of an abstract method.
func (inst *Instance) Method(name string) *Function {
	for _, f := range inst.Methods {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Parser is a parser with its states. State "start" is first; "accept" and
// "reject" are implicit.
type Parser struct {
	Name      string
	Params    []*Var
	Locals    []*Var
	Instances []*Instance
	ValueSets []*ValueSet
	States    []*State
	Span      diag.Span
}

// State finds a state by name.
func (p *Parser) State(name string) *State {
	for _, s := range p.States {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Names of the built-in parser states.
const (
	StateAccept = "accept"
	StateReject = "reject"
)

// State is one parser state.
type State struct {
	Name string
	Body []Stmt
	// Next is the state to go to when Select is nil ("accept", "reject" or a
	// declared state; "reject" when the state has no transition).
	Next   string
	Select *Select
	Span   diag.Span
}

// Select is transition select(Exprs) { Cases }.
type Select struct {
	Exprs []Expr
	Cases []*SelectCase
	Span  diag.Span
}

// SelectCase matches one keyset per select expression.
type SelectCase struct {
	Keys []*Keyset
	Next string
	Span diag.Span
}

// KeysetKind says how a keyset matches.
type KeysetKind int

const (
	KeysetExact    KeysetKind = iota // Value
	KeysetMask                       // Value &&& Mask
	KeysetRange                      // Value .. Hi
	KeysetDefault                    // default or _
	KeysetValueSet                   // a value_set
)

// Keyset is one keyset of a select case or a const table entry.
type Keyset struct {
	Kind     KeysetKind
	Value    *big.Int
	Mask     *big.Int
	Hi       *big.Int
	ValueSet *ValueSet
}

// ValueSet is a parser value_set, filled by the control plane.
type ValueSet struct {
	Name string
	Elem Type
	Size int
	Span diag.Span
}

// Control is a control block: its locals, actions, tables and apply body.
type Control struct {
	Name      string
	Params    []*Var
	Locals    []*Var
	Instances []*Instance
	Actions   []*Action
	Tables    []*Table
	Body      []Stmt
	Span      diag.Span
	// ApplySpan is the span of the apply block's braces: source rewrites
	// insert declarations before its keyword.
	ApplySpan diag.Span
}

// Table finds a table by name.
func (c *Control) Table(name string) *Table {
	for _, t := range c.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Action finds an action by name.
func (c *Control) Action(name string) *Action {
	for _, a := range c.Actions {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Action is an action: parameters with directions come first, then the
// directionless ones (action data from the table entry).
type Action struct {
	Name   string
	Params []*Var
	Body   []Stmt
	Span   diag.Span
}

// Data returns the directionless parameters (the entry's action data).
func (a *Action) Data() []*Var {
	var out []*Var
	for _, p := range a.Params {
		if p.Dir == DirNone {
			out = append(out, p)
		}
	}
	return out
}

// Match kinds of table keys.
const (
	MatchExact    = "exact"
	MatchTernary  = "ternary"
	MatchLPM      = "lpm"
	MatchRange    = "range"
	MatchOptional = "optional"
)

// Table is a match-action table.
type Table struct {
	Name    string
	Keys    []*Key
	Actions []*ActionRef
	// Default is the default action (NoAction when none was given).
	Default      *ActionCall
	DefaultConst bool
	// Entries are the const entries, in priority order (first wins).
	Entries []*Entry
	// Size is the declared size, or 0 when none was given.
	Size int
	// Counters and Meters are the direct counter and the direct meter the
	// table's counters and meters properties attach (nil without).
	Counters, Meters *Instance
	Span             diag.Span
}

// Key is one key of a table.
type Key struct {
	Expr  Expr
	Match string
	// Name is the control-plane name of the key (its @name or its text).
	Name string
}

// ActionRef is an action a table may run, with its directional arguments
// bound.
type ActionRef struct {
	Action *Action
	Args   []Expr
}

// ActionCall is an action with all its arguments.
type ActionCall struct {
	Action *Action
	Args   []Expr
}

// Entry is one const entry of a table.
type Entry struct {
	Keys   []*Keyset
	Action *ActionCall
	// Priority ranks entries that could both match: the larger wins, as in
	// P4Runtime. Without explicit priorities the first entry written ranks
	// highest; an entry without one among entries with them takes the rank
	// of the entry before it (ties go to the earlier entry).
	Priority int
	Span     diag.Span
}

// Function is a function with a body.
type Function struct {
	Name   string
	Return Type // nil for void
	Params []*Var
	Body   []Stmt
	Span   diag.Span
}
