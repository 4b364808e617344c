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

// Model is a mixed-integer linear program being built.
type Model struct {
	m    unsafe.Pointer // a Cbc_Model
	cols int
	// running is closed when the solve ends (nil before Solve).
	running chan struct{}
	solved  bool
	// abandoned is set when a cancelled search runs on: its values are
	// not to be read.
	abandoned bool
}

// Var is a column of the model.
type Var int

// Inf is an infinite bound.
var Inf = math.Inf(1)

// NewModel returns an empty minimization model; Close frees it.
func NewModel() *Model {
	m := &Model{m: C.Cbc_newModel()}
	C.Cbc_setLogLevel(m.m, 0)
	C.Cbc_setObjSense(m.m, 1)
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
// continuous, with coefficient obj in the objective.
func (m *Model) AddVar(name string, lb, ub float64, integer bool, obj float64) Var {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	isInt := C.char(0)
	if integer {
		isInt = 1
	}
	C.Cbc_addCol(m.m, cname, C.double(bound(lb)), C.double(bound(ub)), C.double(obj), isInt, 0, nil, nil)
	m.cols++
	return Var(m.cols - 1)
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
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	idx := (*C.int)(C.malloc(C.size_t(len(vars)) * C.size_t(unsafe.Sizeof(C.int(0)))))
	defer C.free(unsafe.Pointer(idx))
	val := (*C.double)(C.malloc(C.size_t(len(vars)) * C.size_t(unsafe.Sizeof(C.double(0)))))
	defer C.free(unsafe.Pointer(val))
	is := unsafe.Slice(idx, len(vars))
	vs := unsafe.Slice(val, len(vars))
	for i, v := range vars {
		if int(v) < 0 || int(v) >= m.cols {
			return fmt.Errorf("milp: row %s names variable %d of %d", name, v, m.cols)
		}
		is[i], vs[i] = C.int(v), C.double(coefs[i])
	}
	C.Cbc_addRow(m.m, cname, C.int(len(vars)), idx, val, C.char(sense), C.double(rhs))
	return nil
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
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			m.abandoned = true
			return Unknown, ctx.Err()
		}
		<-m.running // CBC's time limit ends it now
	}
	switch {
	case C.Cbc_isProvenOptimal(m.m) != 0:
		return Optimal, nil
	case C.Cbc_isProvenInfeasible(m.m) != 0 && C.Cbc_status(m.m) == 0:
		return Infeasible, nil
	case C.Cbc_getColSolution(m.m) != nil && m.cols > 0 && C.Cbc_numberSavedSolutions(m.m) > 0:
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
	if sol == nil || int(v) >= m.cols {
		return math.NaN()
	}
	return float64(unsafe.Slice(sol, m.cols)[v])
}

// Objective is the solution's objective value (NaN when there is none).
func (m *Model) Objective() float64 {
	if m.m == nil || m.abandoned || m.running == nil {
		return math.NaN()
	}
	return float64(C.Cbc_getObjValue(m.m))
}
