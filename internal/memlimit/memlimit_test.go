package memlimit

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{"0", 0, false},
		{"512", 512, false},
		{"4K", 4 << 10, false},
		{"200M", 200 << 20, false},
		{"200MiB", 200 << 20, false},
		{"2G", 2 << 30, false},
		{"2gb", 2 << 30, false},
		{"1T", 1 << 40, false},
		{"", 0, true},
		{"G", 0, true},
		{"12X", 0, true},
		{"-1G", 0, true},
		{"99999999999T", 0, true},
	} {
		got, err := ParseSize(tc.in)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d (error: %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

// TestWatchCancels: a budget below what the process already holds
// cancels the context with a *LimitError naming both figures.
func TestWatchCancels(t *testing.T) {
	ctx, stop := Watch(context.Background(), 1<<20) // 1 MiB: a Go process holds more
	defer stop()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the context was not cancelled")
	}
	var le *LimitError
	if !errors.As(context.Cause(ctx), &le) || le.Limit != 1<<20 || le.Used <= le.Limit {
		t.Errorf("cause %v, want a LimitError over 1 MiB", context.Cause(ctx))
	}
}

// TestWatchQuiet: under a budget the process does not reach, the context
// stays live until stop, which cancels it without a LimitError.
func TestWatchQuiet(t *testing.T) {
	ctx, stop := Watch(context.Background(), 1<<50)
	time.Sleep(3 * interval)
	if ctx.Err() != nil {
		t.Fatalf("cancelled under the budget: %v", context.Cause(ctx))
	}
	stop()
	var le *LimitError
	if ctx.Err() == nil || errors.As(context.Cause(ctx), &le) {
		t.Errorf("after stop: %v, cause %v", ctx.Err(), context.Cause(ctx))
	}
}

func TestResidentAndDefault(t *testing.T) {
	if r := Resident(); r < 1<<20 {
		t.Errorf("Resident() = %d, want at least a MiB", r)
	}
	if d := Default(); d < 0 {
		t.Errorf("Default() = %d", d)
	}
}
