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
	fs.SetOutput(stderr)
	options := frontendFlags(fs)
	seed := fs.Int64("seed", 1, "seed of random() and the random hash")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: p4hls sim [-I DIR]... [-D NAME[=VALUE]]... [--seed N] PROGRAM.p4 TEST.stf")
		fs.PrintDefaults()
	}
	files, code, done := parseArgs(fs, args, 2)
	if done {
		return code
	}
	program, test := files[0], files[1]
	src, err := os.ReadFile(program)
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
	stf, err := os.ReadFile(test)
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", test, unwrapPathError(err))
		return exitUserErr
	}
	cmds, err := interp.ParseSTF(test, string(stf))
	if err == nil {
		var res *interp.STFResult
		res, err = sw.RunSTF(test, cmds)
		if res != nil {
			for _, m := range res.Mismatches {
				fmt.Fprintf(stderr, "%s:%d: mismatch: %s\n", test, m.Line, mismatchText(m))
			}
			fmt.Fprintf(stdout, "%s: %d packets, %d expectations, %d mismatches\n", test, res.Packets, res.Expectations, len(res.Mismatches))
			if err == nil && len(res.Mismatches) > 0 {
				return exitUserErr
			}
		}
	}
	if err != nil {
		var se *interp.STFError
		if errors.As(err, &se) {
			fmt.Fprintln(stderr, se.Error())
		} else {
			fmt.Fprintf(stderr, "%s: error: %v\n", test, err)
		}
		return exitUserErr
	}
	return exitOK
}

func mismatchText(m interp.Mismatch) string {
	if m.Packet > 0 {
		return fmt.Sprintf("packet %d: %s", m.Packet, m.Msg)
	}
	return m.Msg
}
