package z3

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"testing"
	"time"
)

// TestMain fails the run when a test leaks a context: every NewContext
// needs its Close.
func TestMain(m *testing.M) {
	code := m.Run()
	if n := LiveContexts(); n != 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "z3: %d contexts leaked (made and never closed)\n", n)
		code = 1
	}
	os.Exit(code)
}

func TestBitVectorOperations(t *testing.T) {
	x := NewContext()
	defer x.Close()
	a, b := x.BV(200, 8), x.BV(100, 8)
	tests := []struct {
		name string
		e    Expr
		want uint64
	}{
		{"add wraps modulo 2^8", a.Add(b), 44},
		{"sub wraps", b.Sub(a), 156},
		{"mul keeps the low bits", a.Mul(b), 32}, // 20000 mod 256
		{"udiv", a.UDiv(b), 2},
		{"urem", a.URem(x.BV(7, 8)), 4},
		{"neg", b.Neg(), 156},
		{"and", a.BVAnd(b), 200 & 100},
		{"or", a.BVOr(b), 200 | 100},
		{"xor", a.BVXor(b), 200 ^ 100},
		{"not", a.BVNot(), 55},
		{"shl", b.Shl(x.BV(1, 8)), 200},
		{"lshr", a.LShr(x.BV(2, 8)), 50},
		{"ashr fills with the sign", a.AShr(x.BV(2, 8)), 0xf2},
		{"extract", a.Extract(7, 4), 0xc},
		{"concat", x.BV(0xa, 4).Concat(x.BV(0xb, 4)), 0xab},
		{"zero extension", a.ZeroExt(8), 200},
		{"sign extension", a.SignExt(8), 0xffc8},
		{"ite", x.Ite(a.ULT(b), a, b), 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.e.Simplify().BigValue()
			if err != nil {
				t.Fatal(err)
			}
			if v.Uint64() != tc.want {
				t.Errorf("got %d, want %d (%s)", v, tc.want, tc.e)
			}
		})
	}
	if w := a.ZeroExt(8).Width(); w != 16 {
		t.Errorf("width of a zero-extended 8-bit value: %d, want 16", w)
	}
}

func TestComparisonsAndBooleans(t *testing.T) {
	x := NewContext()
	defer x.Close()
	a, b := x.BV(0xff, 8), x.BV(1, 8) // 255 unsigned, -1 signed
	tests := []struct {
		name string
		e    Expr
		want bool
	}{
		{"eq", a.Eq(a), true},
		{"ult: 255 < 1 is false", a.ULT(b), false},
		{"ule", b.ULE(a), true},
		{"slt: -1 < 1", a.SLT(b), true},
		{"sle", a.SLE(a), true},
		{"not", a.Eq(b).Not(), true},
		{"and", x.And(a.Eq(a), b.Eq(b)), true},
		{"or", x.Or(a.Eq(b), b.Eq(b)), true},
		{"and of none is true", x.And(), true},
		{"or of none is false", x.Or(), false},
		{"implies", a.Eq(b).Implies(x.Bool(false)), true},
		{"binary and", a.Eq(a).And(a.Eq(b)), false},
		{"binary or", a.Eq(a).Or(a.Eq(b)), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := tc.e.Simplify().BoolLit()
			if !ok || v != tc.want {
				t.Errorf("got %v (literal: %v), want %v", v, ok, tc.want)
			}
		})
	}
}

func TestSolverModelsPushPopAssumptions(t *testing.T) {
	ctx := context.Background()
	x := NewContext()
	defer x.Close()
	s := x.NewSolver()
	v := x.BVConst("v", 32)
	s.Assert(v.Add(x.BV(5, 32)).Eq(x.BV(12, 32)))
	r, err := s.Check(ctx)
	if err != nil || r != Sat {
		t.Fatalf("check: %v %v", r, err)
	}
	got, err := s.Model().Uint(v)
	if err != nil || got.Int64() != 7 {
		t.Fatalf("v = %v (%v), want 7", got, err)
	}
	s.Push()
	s.Assert(v.Eq(x.BV(8, 32)))
	if r, _ := s.Check(ctx); r != Unsat {
		t.Errorf("after push, v = 8 contradicts v = 7: got %v", r)
	}
	s.Pop(1)
	if r, _ := s.Check(ctx); r != Sat {
		t.Errorf("after pop: got %v, want sat", r)
	}
	p := x.BoolConst("p")
	s.Assert(p.Implies(v.Eq(x.BV(9, 32))))
	if r, _ := s.Check(ctx, p); r != Unsat {
		t.Errorf("under assumption p: got %v, want unsat", r)
	}
	if r, _ := s.Check(ctx, p.Not()); r != Sat {
		t.Errorf("under assumption !p: got %v, want sat", r)
	}
	b, err := s.Model().BoolValue(p)
	if err != nil || b {
		t.Errorf("p in the model: %v %v, want false", b, err)
	}
	big64 := new(big.Int).Lsh(big.NewInt(1), 70)
	if got, _ := x.BVBig(big64, 72).Simplify().BigValue(); got.Cmp(big64) != 0 {
		t.Errorf("72-bit numeral: got %v, want %v", got, big64)
	}
	if got, _ := x.BVBig(big.NewInt(-1), 8).Simplify().BigValue(); got.Int64() != 255 {
		t.Errorf("-1 as 8 bits: got %v, want 255", got)
	}
}

func TestOptimize(t *testing.T) {
	x := NewContext()
	defer x.Close()
	o := x.NewOptimize()
	v := x.BVConst("v", 16)
	o.Assert(v.UGE(x.BV(10, 16)))
	o.Assert(v.URem(x.BV(7, 16)).Eq(x.BV(3, 16)))
	o.Minimize(v)
	if r, err := o.Check(context.Background()); r != Sat || err != nil {
		t.Fatalf("check: %v %v", r, err)
	}
	if got, _ := o.Model().Uint(v); got.Int64() != 10 {
		t.Errorf("min v >= 10 with v mod 7 = 3: got %v, want 10", got)
	}
	o2 := x.NewOptimize()
	o2.Assert(v.ULE(x.BV(100, 16)))
	o2.Maximize(v)
	o2.SetTimeout(5 * time.Second)
	if r, _ := o2.Check(context.Background()); r != Sat {
		t.Fatalf("maximize: %v", r)
	}
	if got, _ := o2.Model().Uint(v); got.Int64() != 100 {
		t.Errorf("max v <= 100: got %v", got)
	}
}

// UGE is v >= o, unsigned (used by the tests; ULE with the operands swapped).
func (e Expr) UGE(o Expr) Expr { return o.ULE(e) }

func TestErrorsAreReturned(t *testing.T) {
	x := NewContext()
	defer x.Close()
	bad := x.BV(1, 8).Add(x.BV(1, 16)) // mismatched widths
	if bad.Valid() {
		t.Error("adding an 8-bit and a 16-bit value gave a term")
	}
	var zerr *Error
	if !errors.As(x.Err(), &zerr) {
		t.Fatalf("Err() = %v, want a *z3.Error", x.Err())
	}
	s := x.NewSolver()
	s.Assert(bad)
	if _, err := s.Check(context.Background()); err == nil {
		t.Error("Check after an error returned no error")
	}
}

// hardProblem asks for a factorization of 2^64 - 59, a prime: proving it
// has none by bit-blasting a 128-bit product takes Z3 far longer than any
// test runs, so the checks below must be cut short.
func hardProblem(x *Context) *Solver {
	s := x.NewSolver()
	a, b := x.BVConst("a", 64).ZeroExt(64), x.BVConst("b", 64).ZeroExt(64)
	s.Assert(a.Mul(b).Eq(x.BV(0xFFFFFFFFFFFFFFC5, 128)))
	s.Assert(x.BV(1, 128).ULT(a))
	s.Assert(x.BV(1, 128).ULT(b))
	return s
}

func TestCancellationInterrupts(t *testing.T) {
	x := NewContext()
	defer x.Close()
	s := hardProblem(x)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := s.Check(ctx)
	if r != Unknown || !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("check under a 200 ms deadline: %v, %v; want unknown and ErrInterrupted wrapping the deadline", r, err)
	}
	t.Logf("interrupted after %v", time.Since(start))
	// A context that is already done never starts the solver.
	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := s.Check(done); !errors.Is(err, context.Canceled) {
		t.Errorf("check with a cancelled context: %v", err)
	}
}

func TestTimeout(t *testing.T) {
	x := NewContext()
	defer x.Close()
	s := hardProblem(x)
	s.SetTimeout(100 * time.Millisecond)
	r, err := s.Check(context.Background())
	if err != nil || r != Unknown {
		t.Fatalf("check with a 100 ms timeout: %v, %v; want unknown", r, err)
	}
	if reason := s.ReasonUnknown(); reason == "" {
		t.Error("a timed-out check gives no reason")
	}
}

// TestResourceLimit: a check cut by its resource limit is Unknown, the
// counter grows with the work done, and the same limit cuts at the same
// count (it counts work, not time).
func TestResourceLimit(t *testing.T) {
	var counts []uint64
	for run := 0; run < 2; run++ {
		x := NewContext()
		s := hardProblem(x)
		s.SetResourceLimit(200_000)
		before := s.ResourcesUsed()
		r, err := s.Check(context.Background())
		if err != nil || r != Unknown {
			t.Fatalf("check with a resource limit of 200,000: %v, %v; want unknown", r, err)
		}
		used := s.ResourcesUsed() - before
		if used < 200_000 {
			t.Errorf("the check stopped after %d units, before its limit", used)
		}
		counts = append(counts, used)
		x.Close()
	}
	if counts[0] != counts[1] {
		t.Errorf("the same check with the same limit counted %d, then %d", counts[0], counts[1])
	}
}

// TestNoLeakOverManyContexts makes and closes many contexts with solvers,
// models and optimizers; Z3's allocation must come back to where it was.
func TestNoLeakOverManyContexts(t *testing.T) {
	round := func() {
		x := NewContext()
		defer x.Close()
		s := x.NewSolver()
		v := x.BVConst("v", 32)
		for i := 0; i < 50; i++ {
			s.Assert(v.Add(x.BV(uint64(i), 32)).ULT(x.BV(1<<31, 32)))
		}
		s.Check(context.Background())
		s.Model().Uint(v)
		o := x.NewOptimize()
		o.Assert(v.ULT(x.BV(9, 32)))
		o.Maximize(v)
		o.Check(context.Background())
		o.Model().Uint(v)
	}
	for i := 0; i < 20; i++ {
		round() // warm up caches Z3 keeps for good
	}
	before := AllocatedBytes()
	for i := 0; i < 200; i++ {
		round()
	}
	after := AllocatedBytes()
	if after > before+1<<20 {
		t.Errorf("Z3 holds %d bytes more after 200 rounds (%d -> %d)", after-before, before, after)
	}
}
