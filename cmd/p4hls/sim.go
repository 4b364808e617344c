package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/interp"
)

// runSim implements `p4hls sim PROGRAM.p4 TEST.stf`: it runs a packet test
// on the reference interpreter and reports every broken expectation.
func runSim(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	options := frontendFlags(fs)
	seed := fs.Int64("seed", 1, "`N` seeds random() and the random hash")
	target := fs.String("target", "", "run on `TARGET` instead of the interpreter: menshen (its model) or xdp (the Linux kernel, as root); then the first argument is the compile's OUTDIR")
	want := operands{synopsis: "PROGRAM.p4 TEST.stf", min: 2, max: 2}
	fs.Usage = func() { printHelp(stdout, fs, want, "--target menshen|xdp OUTDIR TEST.stf") }
	files, code, done := parseArgs(ctx, fs, args, want, stderr)
	if done {
		return code
	}
	program, test := files[0], files[1]
	switch *target {
	case "":
	case "menshen":
		return runMenshenSim(ctx, program, test, stdout, stderr)
	case "xdp":
		return runXDPSim(ctx, program, test, stdout, stderr)
	default:
		return usageError(stderr, "sim", "--target %s: the targets sim runs on are: menshen, xdp", *target)
	}
	src, err := frontend.ReadSource(program)
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", program, unwrapPathError(err))
		return exitUserErr
	}
	var d diag.List
	prog, source, err := frontend.Load(ctx, program, src, options(), &d)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: %s: %v\n", program, err)
		return exitUserErr
	}
	diag.Print(stderr, &d, source.FileText, isTerminal(stderr))
	if prog == nil {
		return exitUserErr
	}
	sw, err := interp.New(prog, interp.Options{Seed: *seed})
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", program, err)
		return exitUserErr
	}
	return runSTF(ctx, sw, test, stdout, stderr)
}

func mismatchText(m interp.Mismatch) string {
	if m.Packet > 0 {
		return fmt.Sprintf("packet %d: %s", m.Packet, m.Msg)
	}
	return m.Msg
}

// runSTF runs a packet test on a target as it reads it (any number of
// packets in bounded memory; Ctrl-C stops it), and reports every broken
// expectation.
func runSTF(ctx context.Context, t interp.STFTarget, test string, stdout, stderr io.Writer) int {
	f, err := os.Open(test)
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", test, unwrapPathError(err))
		return exitUserErr
	}
	defer f.Close()
	res, err := interp.RunSTFStream(ctx, t, interp.NewSTFReader(test, f))
	for _, m := range res.Mismatches {
		fmt.Fprintf(stderr, "%s:%d: mismatch: %s\n", test, m.Line, mismatchText(m))
	}
	if res.More > 0 {
		fmt.Fprintf(stderr, "%s: and %d more mismatches\n", test, res.More)
	}
	mismatches := len(res.Mismatches) + res.More
	fmt.Fprintf(stdout, "%s: %d packets, %d expectations, %d mismatches\n", test, res.Packets, res.Expectations, mismatches)
	var se *interp.STFError
	switch {
	case errors.As(err, &se):
		fmt.Fprintln(stderr, se.Error())
		return exitUserErr
	case err != nil:
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUserErr
	case mismatches > 0:
		return exitUserErr
	}
	return exitOK
}
