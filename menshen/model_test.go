package menshen

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
)

// vectorsDir is testdata/menshen/vectors: the golden vectors of
// ../shared/targets/menshen, copied into the repository (they are data).
func vectorsDir() string { return filepath.Join(corpus.Dir(), "..", "menshen", "vectors") }

// quirks are the vectors that depend on the control path's ordering
// rules (FORMAT.md §A.16), which applying entries directly does not
// reproduce.
var quirks = map[string]bool{"ctrl_order_lost": true, "ctrl_parser_commit": true}

// TestVectors: for every vector, applying config.txt directly (except to
// the vectors that depend on the control path's order) and running in.hex
// gives exactly out.hex with the ports of out_meta.txt. A vector added to
// the directory is tested without code changes.
func TestVectors(t *testing.T) { testVectors(t, false) }

// TestVectorsThroughControlPath: the same with the control frames of
// ctrl.hex sent through the pipeline as the RTL got them, for every
// vector (the order-dependent ones included).
func TestVectorsThroughControlPath(t *testing.T) { testVectors(t, true) }

func testVectors(t *testing.T, frames bool) {
	dirs, _ := filepath.Glob(filepath.Join(vectorsDir(), "*", "config.txt"))
	if len(dirs) < 60 {
		t.Fatalf("%d vectors found in %s", len(dirs), vectorsDir())
	}
	for _, cfg := range dirs {
		dir := filepath.Dir(cfg)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			m := NewModel()
			if frames {
				for k, f := range hexLines(t, filepath.Join(dir, "ctrl.hex")) {
					if out, err := m.Process(f); err != nil || out != nil {
						t.Fatalf("control frame %d: %v, %v", k, out, err)
					}
				}
			} else {
				if quirks[name] {
					t.Skip("depends on the control path's ordering (FORMAT.md §A.16): see TestVectorsThroughControlPath")
				}
				if err := applyConfig(m, cfg); err != nil {
					t.Fatal(err)
				}
			}
			in := hexLines(t, filepath.Join(dir, "in.hex"))
			want := hexLines(t, filepath.Join(dir, "out.hex"))
			ports := metaPorts(t, filepath.Join(dir, "out_meta.txt"))
			var got [][]byte
			var gotPorts []string
			for k, f := range in {
				out, err := m.Process(f)
				if err != nil {
					t.Fatalf("frame %d: %v", k, err)
				}
				if out != nil {
					got = append(got, out.Frame)
					gotPorts = append(gotPorts, fmt.Sprintf("%02x", out.Port))
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%d frames out, want %d", len(got), len(want))
			}
			for k := range want {
				if hex.EncodeToString(got[k]) != hex.EncodeToString(want[k]) {
					t.Errorf("frame %d:\n got %x\nwant %x", k, got[k], want[k])
				}
				if gotPorts[k] != ports[k] {
					t.Errorf("frame %d: port %s, want %s", k, gotPorts[k], ports[k])
				}
			}
		})
	}
}

func applyConfig(m *Model, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	return m.ApplyConfig(f)
}

// TestConfigErrors: a configuration that is not one is refused, naming
// the line.
func TestConfigErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"Parser 0101", "line 1: want"},
		{"CAMConf 000000100000000000000000 0101", "line 1: module 2 entry: 4 bits, want 269"},
		{"RAMConf 000000100000111100000000\n", "line 1: an entry without its bits"},
		{"KeyExtractConf 000000010000000000000001 " + strings.Repeat("2", 72), "line 1: entry bits hold characters other than 0 and 1"},
	}
	for _, c := range cases {
		err := NewModel().ApplyConfig(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	// CaT's two-line form is read too.
	two := "KeyExtractConf 000000010000000000000001\n" + strings.Repeat("0", 72) + "\n"
	if err := NewModel().ApplyConfig(strings.NewReader(two)); err != nil {
		t.Errorf("two-line form: %v", err)
	}
}

func hexLines(t *testing.T, file string) [][]byte {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			b, err := hex.DecodeString(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

// metaPorts reads tuser[31:24] of each output frame.
func metaPorts(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && !strings.HasPrefix(line, "#") {
			out = append(out, f[2][len(f[2])-8:len(f[2])-6])
		}
	}
	return out
}

// TestControlFrames: packetizing every line of every vector's config.txt
// gives exactly the frames of its ctrl.hex, the bytes the RTL was sent
// (checksums included); a pcap file of them reads back the same.
func TestControlFrames(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(vectorsDir(), "*", "config.txt"))
	for _, cfg := range dirs {
		dir := filepath.Dir(cfg)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, err := os.ReadFile(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var frames [][]byte
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				f := strings.Fields(line)
				var headers []Header
				for _, hs := range f[1 : len(f)-1] {
					h, err := ParseHeader(hs)
					if err != nil {
						t.Fatal(err)
					}
					headers = append(headers, h)
					frame, err := ControlFrame(h, f[len(f)-1])
					if err != nil {
						t.Fatal(err)
					}
					frames = append(frames, frame)
				}
				if got := ConfigLine(f[0], headers, f[len(f)-1]); got != strings.TrimSpace(line) {
					t.Errorf("ConfigLine gives\n%.120s\nfor\n%.120s", got, line)
				}
			}
			want := hexLines(t, filepath.Join(dir, "ctrl.hex"))
			if len(frames) != len(want) {
				t.Fatalf("%d frames, ctrl.hex has %d", len(frames), len(want))
			}
			for k := range want {
				if hex.EncodeToString(frames[k]) != hex.EncodeToString(want[k]) {
					t.Errorf("frame %d:\n got %x\nwant %x", k, frames[k], want[k])
				}
			}
			var buf bytes.Buffer
			if err := WritePcap(&buf, frames); err != nil {
				t.Fatal(err)
			}
			back, err := ReadPcap(&buf)
			if err != nil || len(back) != len(frames) || !bytes.Equal(back[len(back)-1], frames[len(frames)-1]) {
				t.Errorf("the pcap file reads back %d frames, %v", len(back), err)
			}
		})
	}
}
