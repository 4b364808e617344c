package z3

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// hardCheck asks for the factors of a 64-bit product of two 31-bit
// primes, which takes Z3 far longer than the test waits.
func hardCheck(x *Context) *Solver {
	s := x.NewSolverFor("QF_BV")
	s.SetResourceLimit(0) // later parameters must keep Ctrl-C off
	a, b := x.BVConst("a", 64), x.BVConst("b", 64)
	// 2147483647 * 2147483629 (both prime).
	s.Assert(a.Mul(b).Eq(x.BV(2147483647*2147483629, 64)))
	for _, v := range []Expr{a, b} {
		s.Assert(x.BV(1, 64).ULT(v))
		s.Assert(v.ULT(x.BV(1<<32, 64)))
	}
	return s
}

// TestCtrlCIsGos: a SIGINT during a check reaches Go's handler, not Z3's:
// the check goes on (Z3 did not turn the signal into "interrupted from
// keyboard") until the context, which Go's handler would cancel, ends it.
// With Z3's default, its handler takes the signal, the check returns at
// once, and Go never sees it.
func TestCtrlCIsGos(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	for _, s := range []func(*Context) checker{
		func(x *Context) checker { return hardCheck(x) },
		func(x *Context) checker { return hardOptimize(x) },
	} {
		x := NewContext()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := s(x).check(ctx)
			done <- err
		}()
		time.Sleep(100 * time.Millisecond) // into the check
		if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		select {
		case <-sigs:
		case <-time.After(10 * time.Second):
			t.Fatal("Go's handler never saw the SIGINT")
		}
		select {
		case err := <-done:
			t.Fatalf("the check ended on the SIGINT: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("after cancel: %v, want context.Canceled", err)
		}
		x.Close()
	}
}

// checker is a Solver or an Optimize.
type checker interface {
	check(ctx context.Context) (Result, error)
}

func (s *Solver) check(ctx context.Context) (Result, error) { return s.Check(ctx) }

// hardOptimize is hardCheck's problem as an optimization.
func hardOptimize(x *Context) *Optimize {
	o := x.NewOptimize()
	o.SetTimeout(time.Hour) // later parameters must keep Ctrl-C off
	a, b := x.BVConst("a", 64), x.BVConst("b", 64)
	o.Assert(a.Mul(b).Eq(x.BV(2147483647*2147483629, 64)))
	for _, v := range []Expr{a, b} {
		o.Assert(x.BV(1, 64).ULT(v))
		o.Assert(v.ULT(x.BV(1<<32, 64)))
	}
	o.Minimize(a)
	return o
}

func (o *Optimize) check(ctx context.Context) (Result, error) { return o.Check(ctx) }
