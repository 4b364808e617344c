package interp

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// FuzzSTF reads and runs any test file against a corpus program with
// tables, registers and a parser: a file is run or refused with its line
// (an *STFError, or a parse error naming the file), never a panic, and
// the streaming reader agrees with ParseSTF on what it accepts.
func FuzzSTF(f *testing.F) {
	for _, seed := range []string{
		"add ipv4_lpm dstAddr:0x0a000000/8 ipv4_forward(dstAddr:0x000000000002, port:3)\npacket 0 000000000001 000000000002 0800 4500 0014 0000 0000 4011 0000 0a000063 0a000001\nexpect 3 ****\n",
		"register_write r 0 1\nexpect_register r 0 1\n",
		"setdefault ipv4_lpm drop()\npacket 1 00\nexpect drop\n",
		"# comment\n\npacket 0 0*\n",
		"meter_color m 0 red\nvalue_set_add vs 1\n",
		"mc_mgrp_create 1\nmc_node_create 7 1 2\nmc_node_associate 1 0\nmc_node_associate 2 5\n",
	} {
		f.Add(seed)
	}
	prog, _ := load(f, "ipv4_lpm.p4")
	f.Fuzz(func(t *testing.T, src string) {
		sw, err := New(prog, Options{Seed: 1}) // a fresh switch: a failure reproduces from its input alone
		if err != nil {
			t.Fatal(err)
		}
		_, parseErr := ParseSTF("f.stf", src)
		if parseErr != nil && !strings.HasPrefix(parseErr.Error(), "f.stf:") {
			t.Fatalf("a parse error without its place: %v", parseErr)
		}
		res, runErr := RunSTFStream(context.Background(), sw, NewSTFReader("f.stf", strings.NewReader(src)))
		if res == nil {
			t.Fatal("no result")
		}
		if parseErr != nil {
			if runErr == nil {
				t.Fatalf("ParseSTF refused it (%v), the stream ran it", parseErr)
			}
			return
		}
		var se *STFError
		if runErr != nil && !errors.As(runErr, &se) {
			t.Fatalf("a run error without its line: %v", runErr)
		}
	})
}
