package main

import (
	"bytes"
	"context"
	"embed"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cilium/ebpf"

	"github.com/p4hls/p4hls/backends/xdp"
	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/interp"
)

// `p4hls bench xdp` times three jobs compiled from P4 by the xdp target
// against the same jobs written in C by hand and compiled with clang -O2,
// side by side in one run: ns per packet with the kernel's repeated test
// run (BPF_PROG_TEST_RUN, each program's production path: no XDP
// metadata), and the instructions of each object.

//go:embed benchxdp
var benchXDP embed.FS

// xdpJob is one benchmark: a P4 program, the hand-written C, the entries
// both get, and the packet timed.
type xdpJob struct {
	name, p4, c string
	// p4Entries fills the P4 program's tables; cFill the C program's maps
	// with the same.
	p4Entries func(m *kernel.Machine) error
	cFill     func(coll *ebpf.Collection) error
	packet    []byte
}

// XDPBenchResult is one row of `p4hls bench xdp`.
type XDPBenchResult struct {
	Benchmark       string  `json:"benchmark"`
	P4NsPerPacket   float64 `json:"p4_ns_per_packet"`
	CNsPerPacket    float64 `json:"c_ns_per_packet"`
	Ratio           float64 `json:"ratio"`
	P4Instructions  int     `json:"p4_instructions"`
	CInstructions   int     `json:"c_instructions"`
	P4Verdict       uint32  `json:"p4_verdict"`
	CVerdict        uint32  `json:"c_verdict"`
	PacketsPerRound int     `json:"packets_per_round"`
}

// The runs: rounds of benchRepeat runs each, alternating the two programs,
// the median round kept.
const (
	benchRounds = 15
	benchRepeat = 200000
)

func runBenchXDP(ctx context.Context, jsonOut string, stdout, stderr io.Writer) int {
	var results []XDPBenchResult
	const format = "%-10s %12s %12s %7s %10s %10s\n"
	fmt.Fprintf(stdout, format, "benchmark", "P4 ns/pkt", "C ns/pkt", "ratio", "P4 insns", "C insns")
	for _, job := range xdpJobs() {
		r, err := benchXDPJob(ctx, job)
		if err != nil {
			fmt.Fprintf(stderr, "p4hls: bench xdp: %s: %v\n", job.name, err)
			return exitInternal
		}
		results = append(results, r)
		fmt.Fprintf(stdout, format, r.Benchmark, fmt.Sprintf("%.1f", r.P4NsPerPacket), fmt.Sprintf("%.1f", r.CNsPerPacket),
			fmt.Sprintf("%.2fx", r.Ratio), fmt.Sprint(r.P4Instructions), fmt.Sprint(r.CInstructions))
	}
	if jsonOut != "" {
		data, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(jsonOut, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
	}
	return exitOK
}

func benchXDPJob(ctx context.Context, job xdpJob) (XDPBenchResult, error) {
	r := XDPBenchResult{Benchmark: job.name, PacketsPerRound: benchRepeat}
	p4src, err := benchXDP.ReadFile("benchxdp/" + job.p4)
	if err != nil {
		return r, err
	}
	res, err := driver.Compile(ctx, driver.Request{File: job.p4, Source: p4src, Target: xdp.Name}, nil)
	if err != nil {
		return r, fmt.Errorf("compiling %s: %w", job.p4, err)
	}
	obj, layout, err := xdp.ObjectAndLayout(res.Artifacts)
	if err != nil {
		return r, err
	}
	m, err := kernel.Load(obj, layout, res.Program)
	if err != nil {
		return r, err
	}
	defer m.Close()
	if err := job.p4Entries(m); err != nil {
		return r, fmt.Errorf("P4 entries: %w", err)
	}
	cobj, coll, err := loadHandC(ctx, job.c)
	if err != nil {
		return r, err
	}
	defer coll.Close()
	if err := job.cFill(coll); err != nil {
		return r, fmt.Errorf("C maps: %w", err)
	}
	var cprog *ebpf.Program
	for _, p := range coll.Programs {
		cprog = p
	}
	if r.P4Instructions, err = xdp.Instructions(obj); err != nil {
		return r, err
	}
	if r.CInstructions, err = xdp.Instructions(cobj); err != nil {
		return r, err
	}
	var p4Times, cTimes []time.Duration
	for round := 0; round < benchRounds; round++ {
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		ret, d, err := m.Program().Benchmark(job.packet, benchRepeat, nil)
		if err != nil {
			return r, err
		}
		r.P4Verdict = ret
		p4Times = append(p4Times, d)
		ret, d, err = cprog.Benchmark(job.packet, benchRepeat, nil)
		if err != nil {
			return r, err
		}
		r.CVerdict = ret
		cTimes = append(cTimes, d)
	}
	if r.P4Verdict != r.CVerdict {
		return r, fmt.Errorf("the programs disagree: P4 returned %d, C %d", r.P4Verdict, r.CVerdict)
	}
	r.P4NsPerPacket, r.CNsPerPacket = median(p4Times), median(cTimes)
	r.Ratio = r.P4NsPerPacket / r.CNsPerPacket
	return r, nil
}

func median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Nanoseconds())
}

// loadHandC compiles a hand-written program (its prelude.h inlined) and
// loads it.
func loadHandC(ctx context.Context, name string) ([]byte, *ebpf.Collection, error) {
	src, err := benchXDP.ReadFile("benchxdp/" + name)
	if err != nil {
		return nil, nil, err
	}
	prelude, err := benchXDP.ReadFile("benchxdp/prelude.h")
	if err != nil {
		return nil, nil, err
	}
	full := strings.Replace(string(src), `#include "prelude.h"`, string(prelude), 1)
	obj, err := xdp.Compile(ctx, full)
	if err != nil {
		return nil, nil, err
	}
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(obj))
	if err != nil {
		return nil, nil, err
	}
	coll, err := ebpf.NewCollection(spec)
	return obj, coll, err
}

// loIfindex is the loopback interface: both programs' port maps send
// every port there, so a redirect succeeds (a test run does not transmit).
const loIfindex = 1

func fillPorts(mp *ebpf.Map, ports ...uint32) error {
	for _, p := range ports {
		if err := mp.Put(p, uint32(loIfindex)); err != nil {
			return err
		}
	}
	return nil
}

func xdpJobs() []xdpJob {
	return []xdpJob{lpmJob(), firewallJob(), sketchJob()}
}

// lpmJob: 256 /24 routes, 16 /16 and a /8; the packet's destination
// 10.1.7.9 matches 10.0.0.0/8, 10.1.0.0/16 and 10.1.7.0/24 (the longest).
func lpmJob() xdpJob {
	type route struct {
		addr uint32
		plen int
		mac  uint64
		port uint32
	}
	var routes []route
	routes = append(routes, route{0x0a000000, 8, 0x0a0000000008, 3})
	for i := uint32(0); i < 16; i++ {
		routes = append(routes, route{0x0a000000 | i<<16, 16, 0x0b0000000000 | uint64(i), 2})
	}
	for i := uint32(0); i < 256; i++ {
		routes = append(routes, route{0x0a010000 | i<<8, 24, 0x0c0000000000 | uint64(i), 1 + i%4})
	}
	pkt := ipv4Packet(0x0a010709, 17, 1000, 53)
	return xdpJob{name: "lpm", p4: "lpm.p4", c: "lpm.c", packet: pkt,
		p4Entries: func(m *kernel.Machine) error {
			if err := fillPorts(mustMap(m, "p4_tx_ports"), 0, 1, 2, 3, 4); err != nil {
				return err
			}
			for _, r := range routes {
				e := interp.Entry{Keys: []interp.Match{{Kind: interp.MatchLPM, Value: big.NewInt(int64(r.addr)), PrefixLen: r.plen}},
					Action: "ipv4_forward", Data: []*big.Int{new(big.Int).SetUint64(r.mac), big.NewInt(int64(r.port))}}
				if err := m.AddEntry("ipv4_lpm", e); err != nil {
					return err
				}
			}
			return nil
		},
		cFill: func(coll *ebpf.Collection) error {
			if err := fillPorts(coll.Maps["tx"], 0, 1, 2, 3, 4); err != nil {
				return err
			}
			for _, r := range routes {
				key := make([]byte, 8)
				binary.LittleEndian.PutUint32(key, uint32(r.plen))
				binary.BigEndian.PutUint32(key[4:], r.addr)
				val := make([]byte, 12)
				for i := 0; i < 6; i++ {
					val[i] = byte(r.mac >> (8 * (5 - i)))
				}
				binary.LittleEndian.PutUint32(val[8:], r.port)
				if err := coll.Maps["routes"].Put(key, val); err != nil {
					return err
				}
			}
			return nil
		}}
}

// firewallJob: 10,000 allowed flows; the packet is one of them.
func firewallJob() xdpJob {
	const flows = 10000
	flow := func(i uint32) (src, dst uint32, sport, dport uint16) {
		return 0x0a000000 + i, 0xc0a80001, uint16(1024 + i%50000), 443
	}
	s, d, sp, dp := flow(4242)
	pkt := ipv4Packet(d, 6, sp, dp)
	binary.BigEndian.PutUint32(pkt[26:], s)
	return xdpJob{name: "firewall", p4: "firewall.p4", c: "firewall.c", packet: pkt,
		p4Entries: func(m *kernel.Machine) error {
			if err := fillPorts(mustMap(m, "p4_tx_ports"), 1); err != nil {
				return err
			}
			for i := uint32(0); i < flows; i++ {
				s, d, sp, dp := flow(i)
				e := interp.Entry{Action: "allow", Data: []*big.Int{big.NewInt(1)}, Keys: []interp.Match{
					{Kind: interp.MatchExact, Value: big.NewInt(int64(s))}, {Kind: interp.MatchExact, Value: big.NewInt(int64(d))},
					{Kind: interp.MatchExact, Value: big.NewInt(6)}, {Kind: interp.MatchExact, Value: big.NewInt(int64(sp))},
					{Kind: interp.MatchExact, Value: big.NewInt(int64(dp))}}}
				if err := m.AddEntry("flows", e); err != nil {
					return err
				}
			}
			return nil
		},
		cFill: func(coll *ebpf.Collection) error {
			if err := fillPorts(coll.Maps["tx"], 1); err != nil {
				return err
			}
			for i := uint32(0); i < flows; i++ {
				s, d, sp, dp := flow(i)
				key := make([]byte, 16)
				binary.BigEndian.PutUint32(key[0:], s)
				binary.BigEndian.PutUint32(key[4:], d)
				binary.BigEndian.PutUint16(key[8:], sp)
				binary.BigEndian.PutUint16(key[10:], dp)
				key[12] = 6
				if err := coll.Maps["flows"].Put(key, uint32(1)); err != nil {
					return err
				}
			}
			return nil
		}}
}

// sketchJob: the @atomic count-min sketch; no entries.
func sketchJob() xdpJob {
	pkt := make([]byte, 14+8)
	binary.BigEndian.PutUint16(pkt[12:], 0x88b5)
	binary.BigEndian.PutUint32(pkt[14:], 0xdeadbeef)
	return xdpJob{name: "sketch", p4: "sketch.p4", c: "sketch.c", packet: pkt,
		p4Entries: func(m *kernel.Machine) error { return fillPorts(mustMap(m, "p4_tx_ports"), 1) },
		cFill:     func(coll *ebpf.Collection) error { return fillPorts(coll.Maps["tx"], 1) }}
}

func mustMap(m *kernel.Machine, name string) *ebpf.Map {
	mp, err := m.Map(name)
	if err != nil {
		panic(err) // the xdp backend always writes its port maps
	}
	return mp
}

// ipv4Packet is Ethernet/IPv4 (TTL 64, checksum 0)/L4 ports to dst.
func ipv4Packet(dst uint32, proto byte, sport, dport uint16) []byte {
	p := make([]byte, 14+20+8)
	copy(p[0:], []byte{0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 2, 2})
	binary.BigEndian.PutUint16(p[12:], 0x0800)
	p[14], p[22], p[23] = 0x45, 64, proto
	binary.BigEndian.PutUint16(p[16:], 28)
	binary.BigEndian.PutUint32(p[26:], 0x0a000001)
	binary.BigEndian.PutUint32(p[30:], dst)
	binary.BigEndian.PutUint16(p[34:], sport)
	binary.BigEndian.PutUint16(p[36:], dport)
	return p
}
