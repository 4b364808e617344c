package synth_test

import (
	"context"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/tofino"
)

// BenchmarkTofinoRows synthesizes the @atomic action of each CaT Table 4
// row with a Tofino row, on Tofino's ALUs, with no cache (as a first
// compile does): the work `p4hls bench synth` times, without the other
// phases. Profile it with
//
//	go test ./synth -run '^$' -bench TofinoRows -benchtime 1x -cpuprofile cpu.out
//	go tool pprof -top synth.test cpu.out
func BenchmarkTofinoRows(b *testing.B) {
	rows := []string{"blue_increase", "blue_decrease", "flowlet", "marple_new_flow", "marple_tcp_nmo",
		"sampling", "rcp", "snap_heavy_hitter", "dns_ttl_change", "conga"}
	tg := tofino.Target()
	stateful, _ := tg.Grammar("stateful")
	stateless, _ := tg.Grammar("stateless")
	for _, row := range rows {
		tx, err := synth.Preprocess(corpus.AtomicAction(b, corpus.Load(b, row+".p4")))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(row, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
