package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/interp"
)

// simRow is a row of `p4hls bench sim`.
type simRow struct {
	Program          string  `json:"program"`
	Packets          int     `json:"packets"`
	Seconds          float64 `json:"seconds"`
	PacketsPerSecond float64 `json:"packets_per_second"`
	AllocsPerPacket  float64 `json:"allocs_per_packet"`
	Error            string  `json:"error,omitempty"`
}

// simPrograms are the programs `bench sim` runs: forwarding through
// tables, a stateful transaction, and an ACL of ternary matches.
var simPrograms = []string{"ipv4_lpm", "five_tables", "blue_increase", "acl"}

// benchSim implements `p4hls bench sim`: the interpreter's throughput in
// the process (random packets and entries, as the differential tests
// use them), with its allocations per packet and the machine's load.
func benchSim(ctx context.Context, corpus string, packets int, jsonOut string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "load average: %s\n", loadAverage())
	const format = "%-16s %9s %9s %14s %14s\n"
	fmt.Fprintf(stdout, format, "program", "packets", "time", "packets/s", "allocs/packet")
	var rows []simRow
	for _, name := range simPrograms {
		if ctx.Err() != nil {
			return exitUserErr
		}
		r := simOne(ctx, filepath.Join(corpus, name+".p4"), packets)
		rows = append(rows, r)
		if r.Error != "" {
			fmt.Fprintf(stderr, "%s: %s\n", name, r.Error)
			continue
		}
		fmt.Fprintf(stdout, format, name, fmt.Sprint(r.Packets), fmt.Sprintf("%.2fs", r.Seconds),
			fmt.Sprintf("%.0f", r.PacketsPerSecond), fmt.Sprintf("%.1f", r.AllocsPerPacket))
	}
	return writeJSON(jsonOut, rows, stderr)
}

// simOne runs packets random packets through a fresh interpreter of the
// program, with two random entries per table, and times the packets
// alone.
func simOne(ctx context.Context, file string, packets int) simRow {
	r := simRow{Program: strings.TrimSuffix(filepath.Base(file), ".p4"), Packets: packets}
	src, err := frontend.ReadSource(file)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	var d diag.List
	prog, _, err := frontend.Load(ctx, file, src, frontend.Options{}, &d)
	if err != nil || prog == nil {
		r.Error = fmt.Sprintf("%v %s", err, d.Error())
		return r
	}
	sw, err := interp.New(prog, interp.Options{})
	if err != nil {
		r.Error = err.Error()
		return r
	}
	c := interp.NewGenerator(prog, 1).Case(packets, 2, 0)
	for _, e := range c.Entries {
		sw.AddEntry(e.Table, e.Entry) // an entry the generator cannot make fit is only one fewer
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	for _, p := range c.Packets {
		sw.Process(p.Port, p.Data) // a packet's own fault is part of what runs
	}
	r.Seconds = time.Since(start).Seconds()
	runtime.ReadMemStats(&after)
	r.PacketsPerSecond = float64(packets) / r.Seconds
	r.AllocsPerPacket = float64(after.Mallocs-before.Mallocs) / float64(packets)
	return r
}

// loadAverage is the machine's load over 1, 5 and 15 minutes, as
// /proc/loadavg says it ("?" elsewhere): figures are comparable only
// under like loads.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
