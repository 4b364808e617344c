/* An IPv4 LPM forwarder as one writes it by hand: the route's next hop
 * MAC and port, TTL decremented with an incremental checksum update. */
#include "prelude.h"
struct key { u32 prefixlen; u32 addr; };
struct route { u8 mac[6]; u16 pad; u32 port; };
struct { __uint(type, BPF_MAP_TYPE_LPM_TRIE); __uint(max_entries, 1024); __type(key, struct key); __type(value, struct route); __uint(map_flags, BPF_F_NO_PREALLOC); } routes SEC(".maps");

SEC("xdp") int lpm(struct xdp_md *ctx) {
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct eth *e = data;
	if ((void *)(e + 1) > end) return XDP_DROP;
	if (e->proto != htons(0x0800)) return bpf_redirect_map(&tx, 0, XDP_DROP);
	struct iph *ip = (void *)(e + 1);
	if ((void *)(ip + 1) > end) return XDP_DROP;
	struct key k = { 32, ip->daddr };
	struct route *r = bpf_map_lookup_elem(&routes, &k);
	if (!r) return XDP_DROP;
	__builtin_memcpy(e->src, e->dst, 6);
	__builtin_memcpy(e->dst, r->mac, 6);
	u32 check = ip->check;
	check += htons(0x0100);
	ip->check = check + (check >= 0xffff);
	ip->ttl--;
	return bpf_redirect_map(&tx, r->port, XDP_DROP);
}
