// Package z3 is a thin cgo binding to libz3 (Debian's libz3-dev 4.8.12):
// bit-vector and Boolean terms, solvers with push, pop and assumptions,
// models, and Optimize. It covers only what p4hls calls. (No Go binding of
// Z3 is available from the module proxy, so the project carries its own.)
//
// A Context owns every object made through it: each term, solver, model
// and optimizer is reference-counted once when made and released by
// Context.Close, so one deferred Close frees a whole query. A Context is
// used by one goroutine at a time; the only call that may come from
// another goroutine is the interrupt a cancelled context.Context sends.
//
// Z3 reports errors (a sort mismatch, say) through an error code, not by
// aborting: every call checks it, and the first error is kept and returned
// by Context.Err and by the solver calls.
package z3

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>

// Z3's default error handler aborts the process; this one returns, and the
// Go side reads the error code after each call.
static void p4hls_ignore_error(Z3_context c, Z3_error_code e) { (void)c; (void)e; }

static void p4hls_init(Z3_context c) { Z3_set_error_handler(c, p4hls_ignore_error); }
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// live counts contexts made and not closed, so tests can fail on leaks.
var live atomic.Int64

// LiveContexts returns the number of contexts not yet closed.
func LiveContexts() int64 { return live.Load() }

// ErrInterrupted is wrapped by Check when the context.Context was done
// before Z3 finished; the error also wraps the context's own error.
var ErrInterrupted = errors.New("z3: interrupted")

// Error is an error Z3 reported.
type Error struct {
	Code int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("z3: %s (code %d)", e.Msg, e.Code) }

// Result is the answer of a satisfiability check.
type Result int

const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string { return [...]string{"unknown", "sat", "unsat"}[r] }

// Context is a Z3 context and everything made in it.
type Context struct {
	c      C.Z3_context
	mu     sync.Mutex // guards c against Close racing an interrupt
	asts   []C.Z3_ast
	free   []func()
	err    error
	closed bool
	sorts  map[int]C.Z3_sort
	bool_  C.Z3_sort
}

// NewContext makes a context with reference counting (Z3_mk_context_rc).
func NewContext() *Context {
	cfg := C.Z3_mk_config()
	c := C.Z3_mk_context_rc(cfg)
	C.Z3_del_config(cfg)
	C.p4hls_init(c)
	live.Add(1)
	ctx := &Context{c: c, sorts: map[int]C.Z3_sort{}}
	ctx.bool_ = C.Z3_mk_bool_sort(c)
	ctx.keep(C.Z3_sort_to_ast(c, ctx.bool_))
	return ctx
}

// Close releases every object of the context and the context itself. It
// is safe to call twice.
func (x *Context) Close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return
	}
	for i := len(x.free) - 1; i >= 0; i-- {
		x.free[i]()
	}
	for _, a := range x.asts {
		C.Z3_dec_ref(x.c, a)
	}
	x.asts, x.free = nil, nil
	C.Z3_del_context(x.c)
	x.closed = true
	live.Add(-1)
}

// Err returns the first error Z3 reported in this context, or nil.
func (x *Context) Err() error { return x.err }

// check records the error of the last call, if any.
func (x *Context) check() bool {
	code := C.Z3_get_error_code(x.c)
	if code == C.Z3_OK {
		return true
	}
	if x.err == nil {
		x.err = &Error{Code: int(code), Msg: C.GoString(C.Z3_get_error_msg(x.c, code))}
	}
	return false
}

// keep takes a reference to a and records it for Close.
func (x *Context) keep(a C.Z3_ast) C.Z3_ast {
	if a == nil {
		return nil
	}
	C.Z3_inc_ref(x.c, a)
	x.asts = append(x.asts, a)
	return a
}

// Expr is a term: a bit-vector or a Boolean.
type Expr struct {
	x *Context
	a C.Z3_ast
}

func (x *Context) expr(a C.Z3_ast) Expr {
	if !x.check() || a == nil {
		return Expr{x: x}
	}
	return Expr{x: x, a: x.keep(a)}
}

// Valid reports whether e is a term (not the result of a failed call).
func (e Expr) Valid() bool { return e.a != nil }

func (x *Context) bvSort(width int) C.Z3_sort {
	if s, ok := x.sorts[width]; ok {
		return s
	}
	s := C.Z3_mk_bv_sort(x.c, C.uint(width))
	x.keep(C.Z3_sort_to_ast(x.c, s))
	x.sorts[width] = s
	return s
}

func (x *Context) symbol(name string) C.Z3_symbol {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.Z3_mk_string_symbol(x.c, cs)
}

// BVConst makes a bit-vector variable.
func (x *Context) BVConst(name string, width int) Expr {
	return x.expr(C.Z3_mk_const(x.c, x.symbol(name), x.bvSort(width)))
}

// BoolConst makes a Boolean variable.
func (x *Context) BoolConst(name string) Expr {
	return x.expr(C.Z3_mk_const(x.c, x.symbol(name), x.bool_))
}

// BV makes a bit-vector value (v is taken modulo 2^width).
func (x *Context) BV(v uint64, width int) Expr {
	return x.expr(C.Z3_mk_unsigned_int64(x.c, C.uint64_t(v), x.bvSort(width)))
}

// BVBig makes a bit-vector value from an integer of any size (negative
// values in two's complement).
func (x *Context) BVBig(v *big.Int, width int) Expr {
	m := new(big.Int).Lsh(big.NewInt(1), uint(width))
	s := C.CString(new(big.Int).Mod(v, m).String())
	defer C.free(unsafe.Pointer(s))
	return x.expr(C.Z3_mk_numeral(x.c, s, x.bvSort(width)))
}

// Bool makes true or false.
func (x *Context) Bool(b bool) Expr {
	if b {
		return x.expr(C.Z3_mk_true(x.c))
	}
	return x.expr(C.Z3_mk_false(x.c))
}

// String prints e in Z3's syntax.
func (e Expr) String() string {
	if e.a == nil {
		return "<invalid>"
	}
	return C.GoString(C.Z3_ast_to_string(e.x.c, e.a))
}

// Context is the context e belongs to.
func (e Expr) Context() *Context { return e.x }

// Width is the width of a bit-vector term (0 for a Boolean).
func (e Expr) Width() int {
	s := C.Z3_get_sort(e.x.c, e.a)
	if C.Z3_get_sort_kind(e.x.c, s) != C.Z3_BV_SORT {
		return 0
	}
	return int(C.Z3_get_bv_sort_size(e.x.c, s))
}

// Simplify returns Z3's simplification of e (a constant when e has no
// variables).
func (e Expr) Simplify() Expr { return e.x.expr(C.Z3_simplify(e.x.c, e.a)) }

// ---------------------------------------------------------------- operations

type (
	binFn func(C.Z3_context, C.Z3_ast, C.Z3_ast) C.Z3_ast
	unFn  func(C.Z3_context, C.Z3_ast) C.Z3_ast
)

func (e Expr) bin(f binFn, o Expr) Expr {
	if e.a == nil || o.a == nil {
		return Expr{x: e.x}
	}
	return e.x.expr(f(e.x.c, e.a, o.a))
}

func (e Expr) un(f unFn) Expr {
	if e.a == nil {
		return Expr{x: e.x}
	}
	return e.x.expr(f(e.x.c, e.a))
}

// Bit-vector arithmetic, modulo 2^width.
func (e Expr) Add(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvadd(c, a, b) }, o)
}
func (e Expr) Sub(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsub(c, a, b) }, o)
}
func (e Expr) Mul(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvmul(c, a, b) }, o)
}
func (e Expr) UDiv(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvudiv(c, a, b) }, o)
}
func (e Expr) URem(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvurem(c, a, b) }, o)
}
func (e Expr) Neg() Expr {
	return e.un(func(c C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvneg(c, a) })
}

// Bitwise operations.
func (e Expr) BVAnd(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvand(c, a, b) }, o)
}
func (e Expr) BVOr(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvor(c, a, b) }, o)
}
func (e Expr) BVXor(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvxor(c, a, b) }, o)
}
func (e Expr) BVNot() Expr {
	return e.un(func(c C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvnot(c, a) })
}
func (e Expr) Shl(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvshl(c, a, b) }, o)
}
func (e Expr) LShr(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvlshr(c, a, b) }, o)
}
func (e Expr) AShr(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvashr(c, a, b) }, o)
}

// RotL rotates left by a (variable) amount, taken modulo the width.
func (e Expr) RotL(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_ext_rotate_left(c, a, b) }, o)
}

// Comparisons, giving Booleans.
func (e Expr) Eq(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_eq(c, a, b) }, o)
}
func (e Expr) ULT(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvult(c, a, b) }, o)
}
func (e Expr) ULE(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvule(c, a, b) }, o)
}
func (e Expr) SLT(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvslt(c, a, b) }, o)
}
func (e Expr) SLE(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_bvsle(c, a, b) }, o)
}

// Extract returns bits hi..lo.
func (e Expr) Extract(hi, lo int) Expr {
	if e.a == nil {
		return e
	}
	return e.x.expr(C.Z3_mk_extract(e.x.c, C.uint(hi), C.uint(lo), e.a))
}

// Concat returns e ++ o (e in the high bits).
func (e Expr) Concat(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_concat(c, a, b) }, o)
}

// ZeroExt and SignExt add n high bits.
func (e Expr) ZeroExt(n int) Expr {
	if e.a == nil || n == 0 {
		return e
	}
	return e.x.expr(C.Z3_mk_zero_ext(e.x.c, C.uint(n), e.a))
}

func (e Expr) SignExt(n int) Expr {
	if e.a == nil || n == 0 {
		return e
	}
	return e.x.expr(C.Z3_mk_sign_ext(e.x.c, C.uint(n), e.a))
}

// Boolean connectives.
func (e Expr) Not() Expr {
	return e.un(func(c C.Z3_context, a C.Z3_ast) C.Z3_ast { return C.Z3_mk_not(c, a) })
}
func (e Expr) Implies(o Expr) Expr {
	return e.bin(func(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_implies(c, a, b) }, o)
}
func (e Expr) And(o Expr) Expr { return e.x.nary(0, e, o) }
func (e Expr) Or(o Expr) Expr  { return e.x.nary(1, e, o) }

// And and Or of any number of Booleans (true and false for none).
func (x *Context) And(es ...Expr) Expr { return x.nary(0, es...) }
func (x *Context) Or(es ...Expr) Expr  { return x.nary(1, es...) }

func (x *Context) nary(op int, es ...Expr) Expr {
	if len(es) == 0 {
		return x.Bool(op == 0)
	}
	args := make([]C.Z3_ast, len(es))
	for i, e := range es {
		if e.a == nil {
			return Expr{x: x}
		}
		args[i] = e.a
	}
	p := (*C.Z3_ast)(C.malloc(C.size_t(len(args)) * C.size_t(unsafe.Sizeof(args[0]))))
	defer C.free(unsafe.Pointer(p))
	copy(unsafe.Slice(p, len(args)), args)
	if op == 0 {
		return x.expr(C.Z3_mk_and(x.c, C.uint(len(args)), p))
	}
	return x.expr(C.Z3_mk_or(x.c, C.uint(len(args)), p))
}

// Ite is cond ? a : b.
func (x *Context) Ite(cond, a, b Expr) Expr {
	if cond.a == nil || a.a == nil || b.a == nil {
		return Expr{x: x}
	}
	return x.expr(C.Z3_mk_ite(x.c, cond.a, a.a, b.a))
}

// ---------------------------------------------------------------- solving

// interruptOn calls Z3_interrupt when ctx is done before stop is called.
func (x *Context) interruptOn(ctx context.Context) (stop func()) {
	if ctx.Done() == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-ctx.Done():
			C.Z3_interrupt(x.c)
		case <-done:
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

func lbool(r C.Z3_lbool) Result {
	switch r {
	case C.Z3_L_TRUE:
		return Sat
	case C.Z3_L_FALSE:
		return Unsat
	}
	return Unknown
}

// Solver is an incremental satisfiability solver.
type Solver struct {
	x *Context
	s C.Z3_solver
}

// NewSolver makes a solver in x.
func (x *Context) NewSolver() *Solver {
	return x.solver(C.Z3_mk_solver(x.c))
}

// NewSolverFor makes a solver specialized for a logic ("QF_BV" for
// quantifier-free bit-vectors), which Z3 solves with tactics tuned to it.
func (x *Context) NewSolverFor(logic string) *Solver {
	return x.solver(C.Z3_mk_solver_for_logic(x.c, x.symbol(logic)))
}

// solver keeps a new solver alive with x and turns off its Ctrl-C handler.
func (x *Context) solver(s C.Z3_solver) *Solver {
	x.check()
	C.Z3_solver_inc_ref(x.c, s)
	x.free = append(x.free, func() { C.Z3_solver_dec_ref(x.c, s) })
	p := x.noCtrlC()
	C.Z3_solver_set_params(x.c, s, p)
	C.Z3_params_dec_ref(x.c, p)
	x.check()
	return &Solver{x: x, s: s}
}

// noCtrlC is the parameter that keeps Z3 from installing its own SIGINT
// handler around a check: by default Z3 swaps the process's handler in
// and out on every check, which takes Ctrl-C from Go's runtime (the
// compile then ended as Z3's "interrupted from keyboard", an internal
// error) and, with checks on several threads, could leave a stale
// handler that crashed the process. Go owns the signals; a cancelled
// context.Context interrupts Z3 through Z3_interrupt instead.
func (x *Context) noCtrlC() C.Z3_params {
	p := C.Z3_mk_params(x.c)
	C.Z3_params_inc_ref(x.c, p)
	C.Z3_params_set_bool(x.c, p, x.symbol("ctrl_c"), false)
	return p
}

// SetResourceLimit bounds each check by Z3's resource counter ("rlimit"),
// counted from the check's start: unlike a timeout, a bound that cuts at
// the same point on every machine and under any load. 0 means no bound.
func (s *Solver) SetResourceLimit(n uint32) {
	p := C.Z3_mk_params(s.x.c)
	C.Z3_params_inc_ref(s.x.c, p)
	C.Z3_params_set_uint(s.x.c, p, s.x.symbol("rlimit"), C.uint(n))
	C.Z3_solver_set_params(s.x.c, s.s, p)
	C.Z3_params_dec_ref(s.x.c, p)
	s.x.check()
}

// ResourcesUsed is the resource counter of the solver's context so far
// (the "rlimit count" of its statistics).
func (s *Solver) ResourcesUsed() uint64 {
	st := C.Z3_solver_get_statistics(s.x.c, s.s)
	C.Z3_stats_inc_ref(s.x.c, st)
	defer C.Z3_stats_dec_ref(s.x.c, st)
	for i := C.uint(0); i < C.Z3_stats_size(s.x.c, st); i++ {
		if C.GoString(C.Z3_stats_get_key(s.x.c, st, i)) == "rlimit count" && bool(C.Z3_stats_is_uint(s.x.c, st, i)) {
			return uint64(C.Z3_stats_get_uint_value(s.x.c, st, i))
		}
	}
	return 0
}

// SetTimeout bounds each check; 0 means no bound.
func (s *Solver) SetTimeout(d time.Duration) {
	p := s.x.timeoutParams(d)
	C.Z3_solver_set_params(s.x.c, s.s, p)
	C.Z3_params_dec_ref(s.x.c, p)
	s.x.check()
}

func (x *Context) timeoutParams(d time.Duration) C.Z3_params {
	p := C.Z3_mk_params(x.c)
	C.Z3_params_inc_ref(x.c, p)
	C.Z3_params_set_uint(x.c, p, x.symbol("timeout"), C.uint(d.Milliseconds()))
	return p
}

// Assert adds a constraint.
func (s *Solver) Assert(e Expr) {
	if e.a == nil {
		return
	}
	C.Z3_solver_assert(s.x.c, s.s, e.a)
	s.x.check()
}

// Push opens a scope; Pop(n) drops the last n scopes and their constraints.
func (s *Solver) Push()     { C.Z3_solver_push(s.x.c, s.s); s.x.check() }
func (s *Solver) Pop(n int) { C.Z3_solver_pop(s.x.c, s.s, C.uint(n)); s.x.check() }

// Check decides the constraints, under optional assumptions. A done ctx
// interrupts Z3: the result is Unknown and the error wraps ErrInterrupted
// and ctx.Err().
func (s *Solver) Check(ctx context.Context, assumptions ...Expr) (Result, error) {
	if err := s.x.err; err != nil {
		return Unknown, err
	}
	if err := ctx.Err(); err != nil {
		return Unknown, fmt.Errorf("%w: %w", ErrInterrupted, err)
	}
	stop := s.x.interruptOn(ctx)
	var r C.Z3_lbool
	if len(assumptions) == 0 {
		r = C.Z3_solver_check(s.x.c, s.s)
	} else {
		as := make([]C.Z3_ast, len(assumptions))
		for i, a := range assumptions {
			as[i] = a.a
		}
		p := (*C.Z3_ast)(C.malloc(C.size_t(len(as)) * C.size_t(unsafe.Sizeof(as[0]))))
		copy(unsafe.Slice(p, len(as)), as)
		r = C.Z3_solver_check_assumptions(s.x.c, s.s, C.uint(len(as)), p)
		C.free(unsafe.Pointer(p))
	}
	stop()
	if err := ctx.Err(); err != nil && lbool(r) == Unknown {
		return Unknown, fmt.Errorf("%w: %w", ErrInterrupted, err)
	}
	if !s.x.check() {
		return Unknown, s.x.err
	}
	return lbool(r), nil
}

// ReasonUnknown says why the last check returned Unknown (a timeout, say).
func (s *Solver) ReasonUnknown() string {
	return C.GoString(C.Z3_solver_get_reason_unknown(s.x.c, s.s))
}

// Model returns the model of the last check that returned Sat.
func (s *Solver) Model() *Model { return s.x.model(C.Z3_solver_get_model(s.x.c, s.s)) }

// Model is an assignment that satisfies the constraints.
type Model struct {
	x *Context
	m C.Z3_model
}

func (x *Context) model(m C.Z3_model) *Model {
	if !x.check() || m == nil {
		return &Model{x: x}
	}
	C.Z3_model_inc_ref(x.c, m)
	x.free = append(x.free, func() { C.Z3_model_dec_ref(x.c, m) })
	return &Model{x: x, m: m}
}

// Eval evaluates e in the model; with completion, variables the model
// leaves free take a default value.
func (m *Model) Eval(e Expr, completion bool) (Expr, error) {
	if m.m == nil {
		return Expr{x: m.x}, errors.New("z3: no model")
	}
	var out C.Z3_ast
	ok := C.Z3_model_eval(m.x.c, m.m, e.a, C.bool(completion), &out)
	if !bool(ok) || !m.x.check() {
		return Expr{x: m.x}, fmt.Errorf("z3: cannot evaluate %s: %w", e, errors.Join(m.x.err, errors.New("eval failed")))
	}
	return m.x.expr(out), nil
}

// Uint returns the value of a bit-vector term in the model.
func (m *Model) Uint(e Expr) (*big.Int, error) {
	v, err := m.Eval(e, true)
	if err != nil {
		return nil, err
	}
	return v.BigValue()
}

// BoolValue returns the value of a Boolean term in the model.
func (m *Model) BoolValue(e Expr) (bool, error) {
	v, err := m.Eval(e, true)
	if err != nil {
		return false, err
	}
	switch C.Z3_get_bool_value(m.x.c, v.a) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	return false, fmt.Errorf("z3: %s is not a Boolean value", v)
}

// BigValue returns the value of a bit-vector numeral (an error if e is not one).
func (e Expr) BigValue() (*big.Int, error) {
	if e.a == nil || C.Z3_is_numeral_ast(e.x.c, e.a) == false {
		return nil, fmt.Errorf("z3: %s is not a numeral", e)
	}
	s := C.GoString(C.Z3_get_numeral_string(e.x.c, e.a))
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("z3: bad numeral %q", s)
	}
	return v, nil
}

// BoolLit reports the value of a Boolean literal (true, false) and whether
// e is one.
func (e Expr) BoolLit() (value, ok bool) {
	switch C.Z3_get_bool_value(e.x.c, e.a) {
	case C.Z3_L_TRUE:
		return true, true
	case C.Z3_L_FALSE:
		return false, true
	}
	return false, false
}

// ---------------------------------------------------------------- optimization

// Optimize is Z3's optimizing solver (νZ).
type Optimize struct {
	x *Context
	o C.Z3_optimize
}

// NewOptimize makes an optimizer in x, without Z3's Ctrl-C handler
// (noCtrlC).
func (x *Context) NewOptimize() *Optimize {
	o := C.Z3_mk_optimize(x.c)
	x.check()
	C.Z3_optimize_inc_ref(x.c, o)
	x.free = append(x.free, func() { C.Z3_optimize_dec_ref(x.c, o) })
	p := x.noCtrlC()
	C.Z3_optimize_set_params(x.c, o, p)
	C.Z3_params_dec_ref(x.c, p)
	x.check()
	return &Optimize{x: x, o: o}
}

// SetTimeout bounds each check; 0 means no bound.
func (o *Optimize) SetTimeout(d time.Duration) {
	p := o.x.timeoutParams(d)
	C.Z3_optimize_set_params(o.x.c, o.o, p)
	C.Z3_params_dec_ref(o.x.c, p)
	o.x.check()
}

// Assert adds a hard constraint.
func (o *Optimize) Assert(e Expr) {
	if e.a == nil {
		return
	}
	C.Z3_optimize_assert(o.x.c, o.o, e.a)
	o.x.check()
}

// Minimize and Maximize add an objective (a bit-vector, compared unsigned).
func (o *Optimize) Minimize(e Expr) { C.Z3_optimize_minimize(o.x.c, o.o, e.a); o.x.check() }
func (o *Optimize) Maximize(e Expr) { C.Z3_optimize_maximize(o.x.c, o.o, e.a); o.x.check() }

// Check finds an optimal model; cancellation works as for Solver.Check.
func (o *Optimize) Check(ctx context.Context) (Result, error) {
	if err := o.x.err; err != nil {
		return Unknown, err
	}
	if err := ctx.Err(); err != nil {
		return Unknown, fmt.Errorf("%w: %w", ErrInterrupted, err)
	}
	stop := o.x.interruptOn(ctx)
	r := C.Z3_optimize_check(o.x.c, o.o, 0, nil)
	stop()
	if err := ctx.Err(); err != nil && lbool(r) == Unknown {
		return Unknown, fmt.Errorf("%w: %w", ErrInterrupted, err)
	}
	if !o.x.check() {
		return Unknown, o.x.err
	}
	return lbool(r), nil
}

// Model returns the optimal model of the last check that returned Sat.
func (o *Optimize) Model() *Model { return o.x.model(C.Z3_optimize_get_model(o.x.c, o.o)) }

// AllocatedBytes is Z3's estimate of the memory it holds, for leak tests.
func AllocatedBytes() uint64 { return uint64(C.Z3_get_estimated_alloc_size()) }
