package milp

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"testing"
	"time"
)

// TestSmallILP: maximize 5x + 4y subject to 6x + 4y <= 24, x + 2y <= 6,
// x, y integer >= 0. The LP optimum is x = 3, y = 1.5 (21); among the
// integer points (4,0) gives 20, (3,1) 19, (2,2) 18: the optimum is (4,0).
func TestSmallILP(t *testing.T) {
	m, x, y := smallILP(t)
	defer m.Close()
	st, err := m.Solve(context.Background(), false)
	if err != nil || st != Optimal {
		t.Fatalf("status %v, %v", st, err)
	}
	if m.Value(x) != 4 || m.Value(y) != 0 || m.Objective() != -20 {
		t.Errorf("x=%v y=%v objective %v, want 4, 0, -20", m.Value(x), m.Value(y), m.Objective())
	}
	if _, err := m.Solve(context.Background(), false); !errors.Is(err, ErrSolved) {
		t.Errorf("second solve: %v, want ErrSolved", err)
	}
}

// TestContinuousAndEquality: minimize x + y with x continuous >= 2.5 and
// x - y == 1 over y integer: y >= 1.5 so y = 2, x = 3.
func TestContinuousAndEquality(t *testing.T) {
	m := NewModel()
	defer m.Close()
	x := m.AddVar("x", 2.5, Inf, false, 1)
	y := m.AddVar("y", -Inf, Inf, true, 1)
	must(t, m.AddRow("eq", []Var{x, y}, []float64{1, -1}, EQ, 1))
	st, err := m.Solve(context.Background(), false)
	if err != nil || st != Optimal {
		t.Fatalf("status %v, %v", st, err)
	}
	if math.Abs(m.Value(x)-3) > 1e-6 || math.Abs(m.Value(y)-2) > 1e-6 {
		t.Errorf("x=%v y=%v, want 3, 2", m.Value(x), m.Value(y))
	}
}

// TestInfeasible: x + y >= 3 with binary x and y has no solution.
func TestInfeasible(t *testing.T) {
	m := NewModel()
	defer m.Close()
	x := m.AddVar("x", 0, 1, true, 0)
	y := m.AddVar("y", 0, 1, true, 0)
	must(t, m.AddRow("r", []Var{x, y}, []float64{1, 1}, GE, 3))
	if st, err := m.Solve(context.Background(), false); err != nil || st != Infeasible {
		t.Errorf("status %v, %v, want infeasible", st, err)
	}
}

func TestBadRows(t *testing.T) {
	m := NewModel()
	defer m.Close()
	x := m.AddVar("x", 0, 1, true, 0)
	if m.AddRow("r", []Var{x}, []float64{1, 2}, LE, 1) == nil {
		t.Error("a row with more coefficients than variables was accepted")
	}
	if m.AddRow("r", nil, nil, LE, 1) == nil {
		t.Error("an empty row was accepted")
	}
	if m.AddRow("r", []Var{x + 1}, []float64{1}, LE, 1) == nil {
		t.Error("a row naming a variable that does not exist was accepted")
	}
}

// marketSplit is a Cornuéjols-Dawande market split instance: 0-1
// variables, rows of random weights that must each sum to half their
// total. Branch and bound takes very long on them.
func marketSplit(rows, cols int) *Model {
	rng := rand.New(rand.NewSource(1))
	m := NewModel()
	vars := make([]Var, cols)
	for j := range vars {
		vars[j] = m.AddVar("x", 0, 1, true, 0)
	}
	for i := 0; i < rows; i++ {
		coefs := make([]float64, cols)
		sum := 0.0
		for j := range coefs {
			coefs[j] = float64(rng.Intn(100))
			sum += coefs[j]
		}
		if err := m.AddRow("r", vars, coefs, EQ, math.Floor(sum/2)); err != nil {
			panic(err)
		}
	}
	return m
}

// TestCancel: a search cancelled mid-solve returns within 100 ms of the
// cancellation (measured with slack for a loaded machine), with the
// context's error.
func TestCancel(t *testing.T) {
	m := marketSplit(5, 40)
	defer m.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	time.AfterFunc(300*time.Millisecond, func() { cancelled = time.Now(); cancel() })
	_, err := m.Solve(ctx, false)
	late := time.Since(cancelled)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("solve returned %v, want context.Canceled", err)
	}
	if late > 500*time.Millisecond {
		t.Errorf("returned %v after the cancellation", late)
	}
}

// TestDeadline: a deadline stops the search as a time limit: no error,
// and no proof either way.
func TestDeadline(t *testing.T) {
	m := marketSplit(5, 40)
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	st, err := m.Solve(ctx, false)
	if err != nil || st == Optimal || st == Infeasible {
		t.Errorf("status %v, %v; want a search stopped by its time limit", st, err)
	}
}

// smallILP is: minimize -5x - 4y subject to 6x + 4y <= 24, x + 2y <= 6,
// x, y integer >= 0.
func smallILP(t *testing.T) (*Model, Var, Var) {
	m := NewModel()
	x := m.AddVar("x", 0, Inf, true, -5)
	y := m.AddVar("y", 0, Inf, true, -4)
	must(t, m.AddRow("a", []Var{x, y}, []float64{6, 4}, LE, 24))
	must(t, m.AddRow("b", []Var{x, y}, []float64{1, 2}, LE, 6))
	return m, x, y
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestFirstSolution: asked for any solution, the search returns one that
// meets the constraints (the small ILP's rows), optimal or not.
func TestFirstSolution(t *testing.T) {
	m, x, y := smallILP(t)
	defer m.Close()
	st, err := m.Solve(context.Background(), true)
	if err != nil || (st != Optimal && st != Feasible) {
		t.Fatalf("status %v, %v", st, err)
	}
	vx, vy := m.Value(x), m.Value(y)
	if 6*vx+4*vy > 24 || vx+2*vy > 6 || vx < 0 || vy < 0 || vx != math.Trunc(vx) || vy != math.Trunc(vy) {
		t.Errorf("x=%v y=%v breaks a constraint", vx, vy)
	}
}
