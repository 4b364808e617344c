package main

import (
	"context"
	"fmt"
	"io"

	"github.com/p4hls/p4hls/backends/xdp/kernel"
)

// runXDPSim implements `p4hls sim --target xdp OUT TEST.stf`: the test's
// entries go into the maps of OUT/prog.o, loaded into the kernel, and its
// packets run through BPF_PROG_TEST_RUN.
func runXDPSim(ctx context.Context, dir, test string, stdout, stderr io.Writer) int {
	m, err := kernel.Open(ctx, dir)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUserErr
	}
	defer m.Close()
	return runSTF(ctx, m, test, stdout, stderr)
}
