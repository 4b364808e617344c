// Package memlimit stops work that grows past a memory budget: it watches
// the process's resident memory and cancels a context, with a
// *LimitError as its cause, when the budget is passed. The compile's
// phases already stop when their context is cancelled, so a compile over
// its budget ends with a message instead of the kernel killing it.
//
// It measures the whole process (Go's heap and what Z3 and CBC allocate
// in C), so it fits a process that runs one compile: the command line.
package memlimit

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"time"
)

// interval is how often the watcher samples: a compile cannot allocate
// much more than its budget in that time.
const interval = 20 * time.Millisecond

// LimitError says the process passed its memory budget.
type LimitError struct {
	Limit, Used int64 // bytes
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("memory limit: %s in use, the limit is %s (--max-memory)", Size(e.Used), Size(e.Limit))
}

// Watch returns a context that is cancelled, with a *LimitError as its
// cause, when the process's resident memory passes limit bytes (never,
// when limit <= 0); stop ends the watch and releases the context.
func Watch(ctx context.Context, limit int64) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	if limit <= 0 {
		return ctx, func() { cancel(nil) }
	}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				if used := Resident(); used > limit {
					cancel(&LimitError{Limit: limit, Used: used})
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}

// Resident is the process's resident memory in bytes: from
// /proc/self/statm on Linux, else what the Go runtime holds (which misses
// C allocations).
func Resident() int64 {
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := bytes.Fields(b); len(f) > 1 {
			if pages, err := strconv.ParseInt(string(f[1]), 10, 64); err == nil {
				return pages * int64(os.Getpagesize())
			}
		}
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// Default is the budget when none is given: half the machine's memory,
// or of the cgroup's limit when that is lower (0 when neither is known).
func Default() int64 {
	total := memTotal()
	if c := cgroupLimit(); c > 0 && (total == 0 || c < total) {
		total = c
	}
	return total / 2
}

// memTotal is MemTotal of /proc/meminfo in bytes (0 when unknown).
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("MemTotal:")); ok {
			if fs := bytes.Fields(rest); len(fs) == 2 && string(fs[1]) == "kB" {
				if kb, err := strconv.ParseInt(string(fs[0]), 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// cgroupLimit is the cgroup v2 memory.max in bytes (0 when there is none).
func cgroupLimit() int64 {
	b, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil {
		return 0 // "max"
	}
	return n
}

// Size prints a byte count in MiB or GiB.
func Size(n int64) string {
	if n >= 1<<30 {
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
	}
	return strconv.FormatInt(n>>20, 10) + " MiB"
}

// ParseSize reads a size as a command line gives it: a number of bytes
// with an optional K, M, G or T suffix (powers of 1024; "MiB", "GB" and
// the like read the same), or 0 for no limit.
func ParseSize(s string) (int64, error) {
	t := bytes.TrimSpace([]byte(s))
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9') {
		i++
	}
	n, err := strconv.ParseInt(string(t[:i]), 10, 64)
	if err != nil || i == 0 {
		return 0, fmt.Errorf("%q is not a size (a number with an optional K, M, G or T)", s)
	}
	shift := map[string]uint{"": 0, "K": 10, "M": 20, "G": 30, "T": 40}
	unit := string(bytes.ToUpper(bytes.TrimSpace(t[i:])))
	for _, suffix := range []string{"IB", "B"} {
		if u, ok := bytes.CutSuffix([]byte(unit), []byte(suffix)); ok && len(u) == 1 {
			unit = string(u)
			break
		}
	}
	sh, ok := shift[unit]
	if !ok {
		return 0, fmt.Errorf("%q is not a size: the unit is one of K, M, G or T", s)
	}
	if n > (1<<62)>>sh {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n << sh, nil
}
