package xdp

import (
	"math/rand"
	"testing"
)

// TestFolds checks that folds brings every sum up to its bound to 16 bits
// without changing it modulo 0xffff (and a non-zero sum stays non-zero:
// the ones' complement sum of data that is not all zeros is never 0).
func TestFolds(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, bound := range []uint64{0, 0xffff, 0x10000, 0x1fffe, 0x1ffff, 0x20000, 10 * 0xffff, 4 * 0xffffffff, 1 << 47} {
		n := len(folds(bound))
		xs := []uint64{0, 1, bound, bound / 2, 0x1ffff, 0xffff, 0x10000}
		for i := 0; i < 1000; i++ {
			xs = append(xs, uint64(rng.Int63n(int64(bound)+1)))
		}
		for _, x := range xs {
			if x > bound {
				continue
			}
			y := x
			for i := 0; i < n; i++ {
				y = y&0xffff + y>>16
			}
			if y > 0xffff || y%0xffff != x%0xffff || (x != 0) != (y != 0) {
				t.Errorf("bound %#x: %d folds take %#x to %#x", bound, n, x, y)
			}
		}
	}
}
