// Package milp is a thin cgo binding to CBC, COIN-OR's branch-and-cut
// solver for mixed-integer linear programs, through its C interface
// (Debian's coinor-libcbc-dev, coin/Cbc_C_Interface.h): only what p4hls's
// allocation calls. It is written here because no Go binding of CBC (or
// of HiGHS) is served by the module proxy.
//
// A Model is built once and solved once (CBC's model is not reusable
// after a solve). Solve takes a context: its deadline becomes CBC's time
// limit, and cancelling it stops the branch-and-cut search.
package milp

/*
#cgo pkg-config: cbc
#include <stdlib.h>
#include <coin/Cbc_C_Interface.h>

// milp_cut is CBC's cut callback: once the flag behind app is set, it adds
// a cut no solution meets (the first column above its upper bound), so the
// search prunes every open node and ends.
static void milp_cut(void *osi, void *cuts, void *app) {
	volatile int *stop = (volatile int *)app;
	if (*stop && Osi_getNumCols(osi) > 0) {
		int idx = 0;
		double coef = 1.0;
		OsiCuts_addRowCut(cuts, 1, &idx, &coef, 'G', Osi_getColUpper(osi)[0] + 1.0);
	}
}

static void milp_watch(Cbc_Model *m, int *stop) {
	Cbc_addCutCallback(m, milp_cut, "p4hls-stop", stop);
}

static void milp_set_stop(int *stop) { __atomic_store_n(stop, 1, __ATOMIC_SEQ_CST); }
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
	m      unsafe.Pointer // a Cbc_Model
	stop   *C.int
	cols   int
	solved bool
}

// Var is a column of the model.
type Var int

// Inf is an infinite bound.
var Inf = math.Inf(1)

// NewModel returns an empty minimization model; Close frees it.
func NewModel() *Model {
	m := &Model{m: C.Cbc_newModel(), stop: (*C.int)(C.calloc(1, C.size_t(unsafe.Sizeof(C.int(0)))))}
	C.Cbc_setLogLevel(m.m, 0)
	C.Cbc_setObjSense(m.m, 1)
	C.milp_watch(m.m, m.stop)
	return m
}

// Close frees the model. It may be called more than once.
func (m *Model) Close() {
	if m.m != nil {
		C.Cbc_deleteModel(m.m)
		C.free(unsafe.Pointer(m.stop))
		m.m, m.stop = nil, nil
	}
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

// ErrSolved says a model was solved already.
var ErrSolved = errors.New("milp: a model is solved once")

// Solve runs branch and cut. With ctx's deadline as the time limit, a
// search that runs out of time returns Feasible or Unknown; a cancelled
// one returns ctx's error. When firstSolution is set, the search stops at
// the first solution found (a feasible placement rather than an optimal
// one).
func (m *Model) Solve(ctx context.Context, firstSolution bool) (Status, error) {
	if m.solved {
		return Unknown, ErrSolved
	}
	m.solved = true
	if err := ctx.Err(); err != nil {
		return Unknown, err
	}
	if d, ok := ctx.Deadline(); ok {
		C.Cbc_setMaximumSeconds(m.m, C.double(max(time.Until(d).Seconds(), 0.001)))
	}
	if firstSolution {
		C.Cbc_setMaximumSolutions(m.m, 1)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			// A deadline is CBC's own time limit (set above), which keeps
			// what the search found; a cancellation stops it outright.
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				C.milp_set_stop(m.stop)
			}
		case <-done:
		}
	}()
	C.Cbc_solve(m.m)
	close(done)
	if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return Unknown, ctx.Err()
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

// Value is v's value in the solution found.
func (m *Model) Value(v Var) float64 {
	sol := C.Cbc_getColSolution(m.m)
	if sol == nil || int(v) >= m.cols {
		return math.NaN()
	}
	return float64(unsafe.Slice(sol, m.cols)[v])
}

// Objective is the solution's objective value.
func (m *Model) Objective() float64 { return float64(C.Cbc_getObjValue(m.m)) }
