package interp

import (
	"math/big"
	"testing"
)

// BenchmarkFiveTables runs the five-table switch on a routed packet that
// goes through every table (the throughput target: 200,000 packets/s).
func BenchmarkFiveTables(b *testing.B) {
	_, sw := load(b, "five_tables.p4")
	mustAdd := func(table string, e Entry) {
		if err := sw.AddEntry(table, e); err != nil {
			b.Fatal(err)
		}
	}
	n := big.NewInt
	mustAdd("port_map", Entry{Keys: []Match{{Kind: MatchExact, Value: n(1)}}, Action: "set_vrf", Data: []*big.Int{n(5)}})
	mustAdd("my_mac", Entry{Keys: []Match{{Kind: MatchExact, Value: n(0x00aabbccddee)}}, Action: "terminate"})
	for i := int64(0); i < 64; i++ {
		mustAdd("routes", Entry{Keys: []Match{{Kind: MatchExact, Value: n(5)}, {Kind: MatchLPM, Value: n(0x0a000000 + i<<16), PrefixLen: 16}},
			Action: "set_nexthop", Data: []*big.Int{n(7)}})
	}
	mustAdd("nexthops", Entry{Keys: []Match{{Kind: MatchExact, Value: n(7)}}, Action: "rewrite",
		Data: []*big.Int{n(0x001111111111), n(0x002222222222), n(3)}})
	pkt := unhex(b, "00aabbccddee 000000000009 0800 4500 0018 0000 0000 4006 0000 c0a80001 0a010101")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out, err := sw.Process(1, pkt); err != nil || out.Port != 3 {
			b.Fatalf("%v %+v", err, out)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "packets/s")
}

// BenchmarkBlue runs the BLUE transaction: two registers read and written
// per packet.
func BenchmarkBlue(b *testing.B) {
	_, sw := load(b, "blue_increase.p4")
	pkt := unhex(b, "000000000001 000000000002 0800 4500 0030 0000 0000 4011 0000 0a000001 0a000002 1234 15b3 0010 0000 00000064 00000000")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := sw.Process(0, pkt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "packets/s")
}
