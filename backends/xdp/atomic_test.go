package xdp_test

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/cilium/ebpf"
	"golang.org/x/sys/unix"

	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/interp"
)

// requireCPUs skips a test that needs n CPUs to mean anything on a
// machine that has fewer: a named missing feature, not a refusal.
func requireCPUs(t *testing.T, n int) {
	t.Helper()
	if runtime.NumCPU() < n {
		t.Skipf("feature missing: %d CPUs (this machine has %d)", n, runtime.NumCPU())
	}
}

// sketchPacket is an Ethernet frame of the sketch's flow header for key.
func sketchPacket(key uint32) []byte {
	p := make([]byte, 14+8)
	binary.BigEndian.PutUint16(p[12:], 0x88b5)
	binary.BigEndian.PutUint32(p[14:], key)
	return p
}

const (
	atomicWorkers = 4    // threads, spread over the CPUs
	atomicKeys    = 16   // flows each thread sends
	atomicRepeat  = 2000 // runs of each packet, each its own BPF_PROG_TEST_RUN
)

// runConcurrently runs every worker's packets on the program from its own
// thread pinned to its own CPU, at once, and reports the CPUs used.
func runConcurrently(t *testing.T, prog *ebpf.Program) map[int]bool {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	cpus := map[int]bool{}
	errs := make(chan error, atomicWorkers)
	start := make(chan struct{})
	for w := 0; w < atomicWorkers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu := w % runtime.NumCPU()
			var set unix.CPUSet
			set.Set(cpu)
			if err := unix.SchedSetaffinity(0, &set); err != nil {
				errs <- fmt.Errorf("pinning worker %d to CPU %d: %w", w, cpu, err)
				return
			}
			mu.Lock()
			cpus[cpu] = true
			mu.Unlock()
			<-start
			for k := 0; k < atomicKeys; k++ {
				in := sketchPacket(uint32(k))
				out := make([]byte, len(in)+256)
				// One run per call: a test run of several repeats that a
				// signal interrupts is retried whole, after some repeats
				// already counted.
				for i := 0; i < atomicRepeat; i++ {
					ret, err := prog.Run(&ebpf.RunOptions{Data: in, DataOut: out})
					if err != nil {
						errs <- err
						return
					}
					if ret == 0 {
						errs <- fmt.Errorf("worker %d: XDP_ABORTED", w)
						return
					}
				}
			}
		}(w)
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	return cpus
}

// TestAtomicAcrossCPUs runs the sketch's @atomic read-modify-writes from
// several threads on different CPUs at once, and checks every register
// cell ends where the interpreter, running the same packets one after
// the other, ends: each packet's three increments must be one transaction,
// none lost to another CPU's. The counts are commutative, so any serial
// order gives the same cells.
func TestAtomicAcrossCPUs(t *testing.T) {
	requireCPUs(t, 2)
	res, m := loadSketch(t, false)
	defer m.Close()
	cpus := runConcurrently(t, m.Program())
	if len(cpus) < 2 {
		t.Fatalf("the workers ran on %d CPU(s); the test needs 2", len(cpus))
	}
	sw, err := interp.New(res.Program, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < atomicKeys; k++ {
		for i := 0; i < atomicWorkers*atomicRepeat; i++ {
			if _, err := sw.Process(0, sketchPacket(uint32(k))); err != nil {
				t.Fatal(err)
			}
		}
	}
	total, err := m.RegisterRead("total", 0)
	if err != nil {
		t.Fatal(err)
	}
	// By hand: every run of every packet counts once.
	if want := big.NewInt(atomicWorkers * atomicKeys * atomicRepeat); total.Cmp(want) != 0 {
		t.Errorf("total: got %v, want %v", total, want)
	}
	for _, cell := range interp.RegisterCells(res.Program) {
		got, err := m.RegisterRead(cell.Register, cell.Index)
		if err != nil {
			t.Fatal(err)
		}
		want, err := sw.RegisterRead(cell.Register, cell.Index)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(want) != 0 {
			t.Errorf("%s[%d]: got %v after the concurrent runs, want %v as in a serial run", cell.Register, cell.Index, got, want)
		}
	}
	t.Logf("%d threads on CPUs %v, %d packets: registers as in a serial run", atomicWorkers, cpus, atomicWorkers*atomicKeys*atomicRepeat)
}

// TestWithoutAtomic shows what the lock is for: the same sketch without
// @atomic has its registers in plain ARRAY maps, and concurrent runs may
// lose increments. It asserts only what the program must keep (no cell
// counts more than it was sent) and logs the updates lost.
func TestWithoutAtomic(t *testing.T) {
	requireCPUs(t, 2)
	_, m := loadSketch(t, true)
	defer m.Close()
	runConcurrently(t, m.Program())
	total, err := m.RegisterRead("total", 0)
	if err != nil {
		t.Fatal(err)
	}
	sent := int64(atomicWorkers * atomicKeys * atomicRepeat)
	if total.Int64() > sent {
		t.Fatalf("total: got %v, more than the %d packets sent", total, sent)
	}
	t.Logf("without @atomic: total %v of %d packets (%d updates lost)", total, sent, sent-total.Int64())
}

// loadSketch compiles testdata/sketch.p4 (without its @atomic, when
// plain) and loads it.
func loadSketch(t *testing.T, plain bool) (*driver.Result, *kernel.Machine) {
	t.Helper()
	file := "testdata/sketch.p4"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if plain {
		src = []byte(strings.ReplaceAll(string(src), "@atomic", ""))
	}
	res, err := compile(t, file, src)
	if err != nil {
		t.Fatal(err)
	}
	obj, layout := output(t, res)
	locked := 0
	for _, r := range layout.Registers {
		if r.Locked {
			locked++
		}
	}
	if want := map[bool]int{false: 3, true: 0}[plain]; locked != want {
		t.Fatalf("%d registers under a lock; want %d", locked, want)
	}
	m, err := kernel.Load(obj, layout, res.Program)
	if err != nil {
		t.Fatal(err)
	}
	return res, m
}
