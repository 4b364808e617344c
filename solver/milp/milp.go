// Package milp is a thin cgo binding to CBC, COIN-OR's branch-and-cut
// solver for mixed-integer linear programs, through its C interface
// (Debian's coinor-libcbc-dev, coin/Cbc_C_Interface.h): only what p4hls's
// allocation calls. It is written here because no Go binding of CBC (or
// of HiGHS) is served by the module proxy.
//
// A Model is built once and solved once (CBC's model is not reusable
// after a solve). Solve takes a context: its deadline becomes CBC's time
// limit, and a cancelled Solve returns at once. CBC 2.10's C interface has
// no way to interrupt a search (its cut callback, the one hook that runs
// during the search, crashes CBC on some models), so the abandoned search
// runs on, in the background, until its time limit; the model is freed
// when it ends.
package milp

/*
#cgo pkg-config: cbc
#include <stdlib.h>
#include <coin/Cbc_C_Interface.h>

*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"
)

// Model is a mixed-integer linear program being built. Columns and rows
// are kept in Go and handed to CBC in one call when solving (CBC's own
// add-a-row calls take time that grows with the model).
type Model struct {
	m    unsafe.Pointer // a Cbc_Model
	cols []column
	rows []row
	// running is closed when the solve ends (nil before Solve).
	running chan struct{}
	solved  bool
	// abandoned is set when a cancelled search runs on: its values are
	// not to be read.
	abandoned bool
}

// Var is a column of the model.
type Var int

type column struct {
	lb, ub, obj float64
	integer     bool
}

type row struct {
	vars   []Var
	coefs  []float64
	lo, hi float64
}

// Inf is an infinite bound.
var Inf = math.Inf(1)

// NewModel returns an empty minimization model; Close frees it.
func NewModel() *Model {
	m := &Model{m: C.Cbc_newModel()}
	C.Cbc_setLogLevel(m.m, 0)
	return m
}

// Close frees the model (once an abandoned search ends). It may be
// called more than once.
func (m *Model) Close() {
	if m.m == nil {
		return
	}
	model, running := m.m, m.running
	m.m = nil
	if running == nil {
		C.Cbc_deleteModel(model)
		return
	}
	go func() {
		<-running
		C.Cbc_deleteModel(model)
	}()
}

// AddVar adds a variable with bounds [lb, ub] (Inf for none), integer or
// continuous, with coefficient obj in the objective. (Names are for
// reading a model; CBC is not told them.)
func (m *Model) AddVar(name string, lb, ub float64, integer bool, obj float64) Var {
	m.cols = append(m.cols, column{lb: bound(lb), ub: bound(ub), obj: obj, integer: integer})
	return Var(len(m.cols) - 1)
}

// bound maps an infinite bound to CBC's (it reads 1e30 and beyond as
// infinite).
func bound(v float64) float64 {
	switch {
	case math.IsInf(v, 1):
		return 1e30
	case math.IsInf(v, -1):
		return -1e30
	}
	return v
}

// Sense is a constraint's relation to its right-hand side.
type Sense byte

const (
	LE Sense = 'L' // sum <= rhs
	GE Sense = 'G' // sum >= rhs
	EQ Sense = 'E' // sum == rhs
)

// AddRow adds the constraint sum(coefs[i] * vars[i]) sense rhs.
func (m *Model) AddRow(name string, vars []Var, coefs []float64, sense Sense, rhs float64) error {
	if len(vars) != len(coefs) {
		return fmt.Errorf("milp: row %s has %d variables and %d coefficients", name, len(vars), len(coefs))
	}
	if len(vars) == 0 {
		return fmt.Errorf("milp: row %s is empty", name)
	}
	for _, v := range vars {
		if int(v) < 0 || int(v) >= len(m.cols) {
			return fmt.Errorf("milp: row %s names variable %d of %d", name, v, len(m.cols))
		}
	}
	r := row{vars: append([]Var(nil), vars...), coefs: append([]float64(nil), coefs...), lo: -1e30, hi: 1e30}
	switch sense {
	case LE:
		r.hi = rhs
	case GE:
		r.lo = rhs
	case EQ:
		r.lo, r.hi = rhs, rhs
	default:
		return fmt.Errorf("milp: row %s has sense %q", name, sense)
	}
	m.rows = append(m.rows, r)
	return nil
}

// load hands the model to CBC: the matrix in compressed sparse columns.
func (m *Model) load() {
	n := len(m.cols)
	count := make([]int, n+1)
	for _, r := range m.rows {
		for _, v := range r.vars {
			count[v+1]++
		}
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	nz := count[n]
	start := cArray[C.CoinBigIndex](n + 1)
	index := cArray[C.int](max(nz, 1))
	value := cArray[C.double](max(nz, 1))
	defer freeAll(start, index, value)
	next := append([]int(nil), count[:n]...)
	for i, r := range m.rows {
		for k, v := range r.vars {
			index.s[next[v]], value.s[next[v]] = C.int(i), C.double(r.coefs[k])
			next[v]++
		}
	}
	for i, c := range count {
		start.s[i] = C.CoinBigIndex(c)
	}
	collb, colub, obj := cArray[C.double](max(n, 1)), cArray[C.double](max(n, 1)), cArray[C.double](max(n, 1))
	rowlb, rowub := cArray[C.double](max(len(m.rows), 1)), cArray[C.double](max(len(m.rows), 1))
	defer freeAll(collb, colub, obj, rowlb, rowub)
	for i, c := range m.cols {
		collb.s[i], colub.s[i], obj.s[i] = C.double(c.lb), C.double(c.ub), C.double(c.obj)
	}
	for i, r := range m.rows {
		rowlb.s[i], rowub.s[i] = C.double(r.lo), C.double(r.hi)
	}
	C.Cbc_loadProblem(m.m, C.int(n), C.int(len(m.rows)), start.p, index.p, value.p, collb.p, colub.p, obj.p, rowlb.p, rowub.p)
	for i, c := range m.cols {
		if c.integer {
			C.Cbc_setInteger(m.m, C.int(i))
		}
	}
	C.Cbc_setObjSense(m.m, 1)
}

// carray is an array in C memory, with a Go view of it.
type carray[T any] struct {
	p *T
	s []T
}

func cArray[T any](n int) carray[T] {
	var zero T
	p := (*T)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(zero))))
	return carray[T]{p: p, s: unsafe.Slice(p, n)}
}

type freer interface{ free() }

func (a carray[T]) free() { C.free(unsafe.Pointer(a.p)) }

func freeAll(as ...freer) {
	for _, a := range as {
		a.free()
	}
}

// Status is the outcome of a solve.
type Status int

const (
	// Optimal: a solution proven optimal.
	Optimal Status = iota
	// Feasible: a solution, not proven optimal (a limit stopped the search).
	Feasible
	// Infeasible: proven to have no solution.
	Infeasible
	// Unknown: stopped before finding a solution or proving there is none.
	Unknown
)

func (s Status) String() string {
	return [...]string{"optimal", "feasible", "infeasible", "unknown"}[s]
}

// maxSearch bounds a search whose context has no deadline, so that an
// abandoned one does not run forever.
const maxSearch = 10 * time.Minute

// overrun is how long past its deadline a search may take to stop.
const overrun = 200 * time.Millisecond

// ErrSolved says a model was solved already.
var ErrSolved = errors.New("milp: a model is solved once")

// Solve runs branch and cut. With ctx's deadline as the time limit, a
// search that runs out of time returns Feasible or Unknown; a cancelled
// one returns ctx's error at once (and the model has no values). When
// firstSolution is set, the search stops at the first solution found (a
// feasible placement rather than an optimal one).
func (m *Model) Solve(ctx context.Context, firstSolution bool) (Status, error) {
	if m.solved {
		return Unknown, ErrSolved
	}
	m.solved = true
	if err := ctx.Err(); err != nil {
		return Unknown, err
	}
	m.load()
	limit := maxSearch
	if d, ok := ctx.Deadline(); ok {
		limit = max(time.Until(d), time.Millisecond)
	}
	C.Cbc_setMaximumSeconds(m.m, C.double(limit.Seconds()))
	if firstSolution {
		C.Cbc_setMaximumSolutions(m.m, 1)
	}
	m.running = make(chan struct{})
	go func(model unsafe.Pointer) {
		C.Cbc_solve(model)
		close(m.running)
	}(m.m)
	select {
	case <-m.running:
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// CBC's time limit ends the search now, keeping what it
			// found, unless CBC is in a step that does not look at the
			// clock (its root relaxation of a large model).
			select {
			case <-m.running:
			case <-time.After(overrun):
				m.abandoned = true
				return Unknown, nil
			}
			break
		}
		m.abandoned = true
		return Unknown, ctx.Err()
	}
	switch {
	case C.Cbc_isProvenOptimal(m.m) != 0:
		return Optimal, nil
	case C.Cbc_isProvenInfeasible(m.m) != 0 && C.Cbc_status(m.m) == 0:
		return Infeasible, nil
	case C.Cbc_getColSolution(m.m) != nil && len(m.cols) > 0 && C.Cbc_numberSavedSolutions(m.m) > 0:
		return Feasible, nil
	}
	return Unknown, nil
}

// Value is v's value in the solution found (NaN when there is none).
func (m *Model) Value(v Var) float64 {
	if m.m == nil || m.abandoned || m.running == nil {
		return math.NaN()
	}
	sol := C.Cbc_getColSolution(m.m)
	if sol == nil || int(v) >= len(m.cols) {
		return math.NaN()
	}
	return float64(unsafe.Slice(sol, len(m.cols))[v])
}

// Objective is the solution's objective value (NaN when there is none).
func (m *Model) Objective() float64 {
	if m.m == nil || m.abandoned || m.running == nil {
		return math.NaN()
	}
	return float64(C.Cbc_getObjValue(m.m))
}
