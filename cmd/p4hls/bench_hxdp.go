package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	hxdpc "github.com/p4hls/p4hls/backends/hxdp"
	"github.com/p4hls/p4hls/backends/xdp"
	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/hxdp"
)

// `p4hls bench hxdp` compiles every corpus program the xdp target takes
// for the hXDP core and runs it on the model against the kernel: per
// program the eBPF instructions, the instructions left after the passes,
// the rows, the instructions per row (the paper's static IPC), the cycles
// per packet the model counts and the packets per second they give at the
// core's 156.25 MHz; then the paper's Table 2 beside them.

// paperRow is one program of the hXDP paper's Table 2: instructions, the
// x86 core's runtime IPC and hXDP's static IPC. The figures are the ones
// ../shared/targets/NIC.md quotes from the paper (the paper's text in
// shared/seeds carries the table's caption but not its body).
type paperRow struct {
	Program      string  `json:"program"`
	Instructions int     `json:"instructions"`
	X86IPC       float64 `json:"x86_ipc"`
	HXDPIPC      float64 `json:"hxdp_ipc"`
	// Ours names the corpus program of the same shape, if one is.
	Ours string `json:"ours,omitempty"`
}

var paperTable2 = []paperRow{
	{"xdp1", 61, 2.20, 1.70, ""},
	{"xdp2", 78, 2.19, 1.81, ""},
	{"xdp_adjust_tail", 117, 2.37, 2.72, ""},
	{"router_ipv4", 119, 2.38, 2.38, "ipv4_lpm"},
	{"rxq_info", 81, 2.81, 1.76, ""},
	{"tx_ip_tunnel", 283, 2.24, 2.83, "tunnel_encap"},
	{"simple_firewall", 72, 2.16, 2.66, "stateful_firewall"},
	{"Katran", 268, 2.32, 2.62, ""},
}

// HXDPBenchResult is one program of `p4hls bench hxdp`.
type HXDPBenchResult struct {
	Program          string  `json:"program"`
	EBPFInstructions int     `json:"ebpf_instructions"`
	Instructions     int     `json:"instructions"`
	Rows             int     `json:"rows"`
	FitsROM          bool    `json:"fits_rom"`
	IPC              float64 `json:"ipc"`
	LanesPerRow      float64 `json:"lanes_per_row"`
	Packets          int     `json:"packets"`
	CyclesPerPacket  float64 `json:"cycles_per_packet"`
	Mpps             float64 `json:"mpps"`
	AgreesWithKernel bool    `json:"agrees_with_kernel"`
	Error            string  `json:"error,omitempty"`
}

// HXDPBench is the JSON `bench hxdp --json` writes.
type HXDPBench struct {
	ClockHz  int               `json:"clock_hz"`
	Programs []HXDPBenchResult `json:"programs"`
	Paper    []paperRow        `json:"paper_table2"`
}

func benchHXDP(ctx context.Context, corpus string, packets int, jsonOut string, stdout, stderr io.Writer) int {
	files, err := filepath.Glob(filepath.Join(corpus, "*.p4"))
	if err != nil || len(files) == 0 {
		fmt.Fprintf(stderr, "p4hls: bench hxdp: no programs in %s\n", corpus)
		return exitUserErr
	}
	sort.Strings(files)
	out := HXDPBench{ClockHz: hxdp.ClockHz, Paper: paperTable2}
	const format = "%-22s %6s %6s %5s %5s %6s %9s %8s %6s\n"
	fmt.Fprintf(stdout, "hXDP core: %d lanes, %d-row ROM, %.2f MHz; cycles per packet: the model's mean over %d random packets (each checked against the kernel)\n",
		hxdp.Lanes, hxdp.MaxRows, hxdp.ClockHz/1e6, packets)
	fmt.Fprintf(stdout, "IPC: prog.o's eBPF instructions per row (the paper's static IPC); lanes: instructions per row after the passes\n")
	fmt.Fprintf(stdout, format, "program", "eBPF", "insns", "rows", "IPC", "lanes", "cyc/pkt", "Mpps", "agree")
	for _, file := range files {
		if ctx.Err() != nil {
			return exitUserErr
		}
		r, ok := benchHXDPOne(ctx, file, packets)
		if !ok {
			continue // the xdp target does not take it
		}
		out.Programs = append(out.Programs, r)
		if r.Error != "" {
			fmt.Fprintf(stderr, "%s: %s\n", r.Program, r.Error)
			continue
		}
		rows := fmt.Sprint(r.Rows)
		if !r.FitsROM {
			rows += "*"
		}
		fmt.Fprintf(stdout, format, r.Program, fmt.Sprint(r.EBPFInstructions), fmt.Sprint(r.Instructions), rows,
			fmt.Sprintf("%.2f", r.IPC), fmt.Sprintf("%.2f", r.LanesPerRow), fmt.Sprintf("%.1f", r.CyclesPerPacket),
			fmt.Sprintf("%.2f", r.Mpps), yesNo(r.AgreesWithKernel))
	}
	fmt.Fprintf(stdout, "* more rows than the core's %d: the compile refuses it (the model runs it all the same)\n\n", hxdp.MaxRows)
	printPaper(stdout, out.Programs)
	if jsonOut != "" {
		data, _ := json.MarshalIndent(out, "", "  ")
		if err := os.WriteFile(jsonOut, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
	}
	for _, r := range out.Programs {
		if r.Error != "" || !r.AgreesWithKernel {
			return exitInternal
		}
	}
	return exitOK
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

// printPaper prints Table 2 of the paper beside our figures for the
// programs of the same shape.
func printPaper(w io.Writer, ours []HXDPBenchResult) {
	byName := map[string]HXDPBenchResult{}
	for _, r := range ours {
		byName[r.Program] = r
	}
	fmt.Fprintln(w, "hXDP paper, Table 2 (its compiler's static IPC; figures as ../shared/targets/NIC.md quotes them, the paper's text in shared/seeds has the caption only):")
	const format = "%-16s %6s %8s %9s   %-18s %6s %5s %5s\n"
	fmt.Fprintf(w, format, "program", "insns", "x86 IPC", "hXDP IPC", "ours (same shape)", "eBPF", "rows", "IPC")
	for _, p := range paperTable2 {
		o, eb, rows, ipc := "-", "", "", ""
		if r, ok := byName[p.Ours]; ok && r.Error == "" {
			o, eb, rows, ipc = p.Ours, fmt.Sprint(r.EBPFInstructions), fmt.Sprint(r.Rows), fmt.Sprintf("%.2f", r.IPC)
		}
		fmt.Fprintf(w, format, p.Program, fmt.Sprint(p.Instructions), fmt.Sprintf("%.2f", p.X86IPC), fmt.Sprintf("%.2f", p.HXDPIPC), o, eb, rows, ipc)
	}
	var ipc, lanes []float64
	for _, r := range ours {
		if r.Error == "" {
			ipc, lanes = append(ipc, r.IPC), append(lanes, r.LanesPerRow)
		}
	}
	if len(ipc) > 0 {
		fmt.Fprintf(w, "ours, %d programs: IPC %s; lanes per row %s; the paper's IPC: 1.70 to 2.83\n", len(ipc), spread(ipc), spread(lanes))
		fmt.Fprintln(w, "(our programs are P4 compiled to C: about 1.6 to 4 times the eBPF of the paper's hand-written C for the same job, much of it what the passes remove)")
	}
}

// spread prints the least, the greatest and the mean of xs.
func spread(xs []float64) string {
	lo, hi, sum := xs[0], xs[0], 0.0
	for _, x := range xs {
		lo, hi, sum = min(lo, x), max(hi, x), sum+x
	}
	return fmt.Sprintf("%.2f to %.2f, mean %.2f", lo, hi, sum/float64(len(xs)))
}

// benchHXDPOne compiles one program for xdp, then for the core, and runs
// it on the model against the kernel; ok is false when the xdp target
// refuses the program.
func benchHXDPOne(ctx context.Context, file string, packets int) (HXDPBenchResult, bool) {
	r := HXDPBenchResult{Program: strings.TrimSuffix(filepath.Base(file), ".p4"), Packets: packets}
	src, err := os.ReadFile(file)
	if err != nil {
		r.Error = err.Error()
		return r, true
	}
	res, err := driver.Compile(ctx, driver.Request{File: file, Source: src, Target: xdp.Name}, nil)
	if err != nil {
		return r, false
	}
	var obj []byte
	var layout kernel.Layout
	for _, a := range res.Artifacts {
		switch a.Name {
		case kernel.ObjectFile:
			obj = a.Data
		case kernel.LayoutFile:
			err = json.Unmarshal(a.Data, &layout)
		}
	}
	if err != nil {
		r.Error = err.Error()
		return r, true
	}
	im, err := hxdpc.Build(ctx, obj, layout, hxdpc.Options{})
	if err != nil {
		r.Error = err.Error()
		return r, true
	}
	r.EBPFInstructions, r.Instructions, r.Rows, r.FitsROM = im.EBPF, im.Scheduled, im.Rows(), im.Fits()
	r.IPC, r.LanesPerRow = im.IPC(), im.LanesPerRow()
	d, st, err := hxdpc.Diff(ctx, res.Program, obj, layout, im, 1, packets)
	switch {
	case err != nil:
		r.Error = err.Error()
	case d != nil:
		r.Error = "the model disagrees with the kernel: " + d.Error()
	default:
		r.AgreesWithKernel = true
	}
	r.CyclesPerPacket = st.CyclesPerPacket()
	if r.CyclesPerPacket > 0 {
		r.Mpps = hxdp.ClockHz / r.CyclesPerPacket / 1e6
	}
	return r, true
}
