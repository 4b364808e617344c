package interp

import "hash/crc32"

// The hash functions of v1model, computed as BMv2 (its reference
// implementation) defines them, over the serialized bytes of the data.

// crc16 is CRC-16/ARC: polynomial 0x8005, input and output reflected,
// initial value 0, no final XOR. Its check value ("123456789") is 0xBB3D.
func crc16(data []byte) uint16 {
	var crc uint16
	for _, b := range data {
		crc ^= uint16(b)
		for i := 0; i < 8; i++ {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0xA001 // 0x8005 reflected
			} else {
				crc >>= 1
			}
		}
	}
	return crc
}

// crc32IEEE is the CRC-32 of Ethernet (check value 0xCBF43926).
func crc32IEEE(data []byte) uint32 { return crc32.ChecksumIEEE(data) }

// csum16 is the Internet checksum (RFC 1071): the ones' complement of the
// ones' complement sum of big-endian 16-bit words, an odd last byte padded
// with a zero byte.
func csum16(data []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(data); i += 2 {
		sum += uint32(data[i])<<8 | uint32(data[i+1])
	}
	if len(data)%2 == 1 {
		sum += uint32(data[len(data)-1]) << 8
	}
	for sum>>16 != 0 {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

// xor16 XORs big-endian 16-bit words, an odd last byte as a high byte.
func xor16(data []byte) uint16 {
	var x uint16
	for i := 0; i+1 < len(data); i += 2 {
		x ^= uint16(data[i])<<8 | uint16(data[i+1])
	}
	if len(data)%2 == 1 {
		x ^= uint16(data[len(data)-1]) << 8
	}
	return x
}

// identity is the first (up to) 8 bytes of the data, big-endian.
func identity(data []byte) uint64 {
	var v uint64
	for i := 0; i < len(data) && i < 8; i++ {
		v = v<<8 | uint64(data[i])
	}
	return v
}

// hashByName computes v1model's HashAlgorithm member name over data.
func hashByName(algo string, data []byte, rnd func() uint64) (uint64, bool) {
	switch algo {
	case "crc16", "crc16_custom":
		return uint64(crc16(data)), true
	case "crc32", "crc32_custom":
		return uint64(crc32IEEE(data)), true
	case "csum16":
		return uint64(csum16(data)), true
	case "xor16":
		return uint64(xor16(data)), true
	case "identity":
		return identity(data), true
	case "random":
		return rnd(), true
	}
	return 0, false
}

// HashFields computes v1model's hash(result, algo, base, {values}, max)
// over fields of the given widths, as a hash unit does: base + H(data) mod
// max (base when max is 0), cut to width bits. ok is false for an
// algorithm a hash unit cannot compute (random).
func HashFields(algo string, widths []int, values []uint64, base, max uint64, width int) (uint64, bool) {
	if algo == "random" {
		return 0, false
	}
	var p packet
	for i, w := range widths {
		p.writeBits(Value{U: values[i]}, w)
	}
	h, ok := hashByName(algo, p.out, nil)
	if !ok {
		return 0, false
	}
	r := base
	if max != 0 {
		r = h%max + base
	}
	if width < 64 {
		r &= 1<<uint(width) - 1
	}
	return r, true
}
