package menshen

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

// Control frames and the files that carry a configuration to the board:
// the text form (§A.15) and a pcap file of the control frames.

// word is the header's 24 bits, the inverse of headerOf.
func (h Header) word() uint32 {
	return uint32(h.Stage&31)<<19 | uint32(h.Module&7)<<16 | uint32(h.Sub&15)<<12 | uint32(h.Resv&15)<<8 | uint32(h.Index&0xFF)
}

// Bits returns a header as the 24 characters of the text form.
func (h Header) Bits() string { return fmt.Sprintf("%024b", h.word()) }

// ConfigLine is one line of the text form: Kind, the headers, the bits.
func ConfigLine(kind string, headers []Header, bits string) string {
	parts := []string{kind}
	for _, h := range headers {
		parts = append(parts, h.Bits())
	}
	return strings.Join(append(parts, bits), " ")
}

// ControlFrame packetizes one entry as CaT's generator does (§A.15):
// Ethernet / 802.1Q (TCI 0x000F) / IPv4 111.111.111.111 -> 222.222.222.222
// / UDP 1234 -> 0xF1F2, whose payload is the 3 header bytes, 15 zero
// bytes, then the bits (8 to a byte, the first bit the top of the first
// byte). bits must be a whole number of bytes.
func ControlFrame(h Header, bits string) ([]byte, error) {
	if len(bits)%8 != 0 || strings.Trim(bits, "01") != "" {
		return nil, fmt.Errorf("entry bits: %d characters, want whole bytes of 0 and 1", len(bits))
	}
	head := h.word()
	payload := make([]byte, 18, 18+len(bits)/8)
	payload[0], payload[1], payload[2] = byte(head>>16), byte(head>>8), byte(head)
	for i := 0; i < len(bits); i += 8 {
		payload = append(payload, byte(bitString(bits).uint(i, 8)))
	}
	src, dst := []byte{111, 111, 111, 111}, []byte{222, 222, 222, 222}
	udp := make([]byte, 8, 8+len(payload))
	binary.BigEndian.PutUint16(udp[0:], 1234)
	binary.BigEndian.PutUint16(udp[2:], 0xF1F2)
	binary.BigEndian.PutUint16(udp[4:], uint16(8+len(payload)))
	udp = append(udp, payload...)
	binary.BigEndian.PutUint16(udp[6:], udpChecksum(src, dst, udp))
	ip := []byte{0x45, 0, 0, 0, 0, 1, 0, 0, 64, 17, 0, 0}
	binary.BigEndian.PutUint16(ip[2:], uint16(20+len(udp)))
	ip = append(append(ip, src...), dst...)
	binary.BigEndian.PutUint16(ip[10:], ^sum16(0, ip))
	frame := []byte{6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 0x81, 0x00, 0x00, 0x0F, 0x08, 0x00}
	return append(append(frame, ip...), udp...), nil
}

// LineFrames packetizes lines of the text form (one line per entry:
// Kind, headers, bits), a frame per header, in order.
func LineFrames(lines []string) ([][]byte, error) {
	var out [][]byte
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("line %d: want Kind, headers and bits", i+1)
		}
		for _, hs := range f[1 : len(f)-1] {
			h, err := ParseHeader(hs)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			frame, err := ControlFrame(h, f[len(f)-1])
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			out = append(out, frame)
		}
	}
	return out, nil
}

// sum16 adds b to the ones'-complement sum s, 16 bits at a time.
func sum16(s uint32, b []byte) uint16 {
	for i := 0; i+1 < len(b); i += 2 {
		s += uint32(b[i])<<8 | uint32(b[i+1])
	}
	if len(b)%2 == 1 {
		s += uint32(b[len(b)-1]) << 8
	}
	for s > 0xFFFF {
		s = s>>16 + s&0xFFFF
	}
	return uint16(s)
}

// udpChecksum is RFC 768's checksum over the IPv4 pseudo-header and the
// datagram (whose checksum field is 0); 0 is sent as 0xFFFF.
func udpChecksum(src, dst, udp []byte) uint16 {
	pseudo := append(append(append([]byte{}, src...), dst...), 0, 17, byte(len(udp)>>8), byte(len(udp)))
	c := ^sum16(uint32(sum16(0, pseudo)), udp)
	if c == 0 {
		return 0xFFFF
	}
	return c
}

// WritePcap writes frames as a pcap file (Ethernet link type), one
// microsecond apart.
func WritePcap(w io.Writer, frames [][]byte) error {
	head := make([]byte, 24)
	binary.LittleEndian.PutUint32(head[0:], 0xA1B2C3D4)
	binary.LittleEndian.PutUint16(head[4:], 2)
	binary.LittleEndian.PutUint16(head[6:], 4)
	binary.LittleEndian.PutUint32(head[16:], 65535)
	binary.LittleEndian.PutUint32(head[20:], 1)
	if _, err := w.Write(head); err != nil {
		return err
	}
	for i, f := range frames {
		rec := make([]byte, 16)
		binary.LittleEndian.PutUint32(rec[4:], uint32(i))
		binary.LittleEndian.PutUint32(rec[8:], uint32(len(f)))
		binary.LittleEndian.PutUint32(rec[12:], uint32(len(f)))
		if _, err := w.Write(append(rec, f...)); err != nil {
			return err
		}
	}
	return nil
}

// ReadPcap reads the frames of a pcap file written by WritePcap (or any
// little-endian, microsecond pcap file).
func ReadPcap(r io.Reader) ([][]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(data) < 24 || binary.LittleEndian.Uint32(data) != 0xA1B2C3D4 {
		return nil, fmt.Errorf("not a little-endian pcap file")
	}
	var frames [][]byte
	for off := 24; off < len(data); {
		if off+16 > len(data) {
			return nil, fmt.Errorf("a record header is cut at byte %d", off)
		}
		n := int(binary.LittleEndian.Uint32(data[off+8:]))
		if off+16+n > len(data) {
			return nil, fmt.Errorf("a record is cut at byte %d", off)
		}
		frames = append(frames, data[off+16:off+16+n])
		off += 16 + n
	}
	return frames, nil
}
