/* An exact-match 5-tuple firewall as one writes it by hand. */
#include "prelude.h"
struct flow { u32 saddr, daddr; u16 sport, dport; u8 proto, pad[3]; };
struct { __uint(type, BPF_MAP_TYPE_HASH); __uint(max_entries, 65536); __type(key, struct flow); __type(value, u32); } flows SEC(".maps");

SEC("xdp") int firewall(struct xdp_md *ctx) {
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct eth *e = data;
	if ((void *)(e + 1) > end || e->proto != htons(0x0800)) return XDP_DROP;
	struct iph *ip = (void *)(e + 1);
	if ((void *)(ip + 1) > end) return XDP_DROP;
	if (ip->proto != 6 && ip->proto != 17) return XDP_DROP;
	u16 *ports = (void *)(ip + 1);
	if ((void *)(ports + 2) > end) return XDP_DROP;
	struct flow f = { ip->saddr, ip->daddr, ports[0], ports[1], ip->proto };
	u32 *port = bpf_map_lookup_elem(&flows, &f);
	if (!port) return XDP_DROP;
	return bpf_redirect_map(&tx, *port, XDP_DROP);
}
