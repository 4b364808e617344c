package ir

import "github.com/p4hls/p4hls/diag"

// Stmt is a statement.
type Stmt interface {
	Span() diag.Span
	isStmt()
}

// Assign is LHS = RHS. Compound assignments are already expanded.
type Assign struct {
	Pos
	LHS, RHS Expr
}

// If is if (Cond) Then else Else.
type If struct {
	Pos
	Cond Expr
	Then []Stmt
	Else []Stmt
}

// Block is a nested block. Atomic marks an @atomic block: its statements
// execute as one transaction on one packet (what synthesis must keep).
type Block struct {
	Pos
	Body   []Stmt
	Atomic bool
}

// Declare declares a local variable, with its initial value (nil leaves it
// uninitialized).
type Declare struct {
	Pos
	Var  *Var
	Init Expr
}

// CallAction runs an action directly with all its arguments.
type CallAction struct {
	Pos
	Call *ActionCall
}

// ApplyTable applies a table and ignores which action ran.
type ApplyTable struct {
	Pos
	Table *Table
}

// SwitchAction applies Table and runs the case of the action that ran:
// switch (t.apply().action_run) { ... }.
type SwitchAction struct {
	Pos
	Table *Table
	Cases []*ActionCase
}

// ActionCase is one case of a SwitchAction. Actions lists the labels that
// share Body (fall-through labels are merged); Default marks the default.
type ActionCase struct {
	Actions []*Action
	Default bool
	Body    []Stmt
}

// Switch is switch (X) on a value, with constant labels.
type Switch struct {
	Pos
	X     Expr
	Cases []*SwitchCase
}

// SwitchCase is one case of a Switch: Values (merged fall-through labels)
// or Default.
type SwitchCase struct {
	Values  []Expr
	Default bool
	Body    []Stmt
}

// CallStmt is a call whose result, if any, is ignored (extern methods and
// functions, functions).
type CallStmt struct {
	Pos
	Call *Call
}

// SetValid is X.setValid() (Valid true) or X.setInvalid().
type SetValid struct {
	Pos
	X     Expr
	Valid bool
}

// StackShift is X.push_front(Count) or X.pop_front(Count).
type StackShift struct {
	Pos
	X     Expr
	Count int
	Push  bool
}

// ApplyBlock applies a sub-parser or sub-control instance.
type ApplyBlock struct {
	Pos
	Control *Control
	Parser  *Parser
	Args    []*Arg
}

// Exit ends the current control (and the pipeline block it is in).
type Exit struct{ Pos }

// Return returns from an action, control apply or function.
type Return struct {
	Pos
	Value Expr
}

// For is for (Init; Cond; Update) Body.
type For struct {
	Pos
	Init   []Stmt
	Cond   Expr
	Update []Stmt
	Body   []Stmt
}

// Break leaves the innermost loop.
type Break struct{ Pos }

// Continue goes to the innermost loop's update.
type Continue struct{ Pos }

func (*Assign) isStmt()       {}
func (*If) isStmt()           {}
func (*Block) isStmt()        {}
func (*Declare) isStmt()      {}
func (*CallAction) isStmt()   {}
func (*ApplyTable) isStmt()   {}
func (*SwitchAction) isStmt() {}
func (*Switch) isStmt()       {}
func (*CallStmt) isStmt()     {}
func (*SetValid) isStmt()     {}
func (*StackShift) isStmt()   {}
func (*ApplyBlock) isStmt()   {}
func (*Exit) isStmt()         {}
func (*Return) isStmt()       {}
func (*For) isStmt()          {}
func (*Break) isStmt()        {}
func (*Continue) isStmt()     {}
