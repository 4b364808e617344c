/* What the hand-written programs use of the kernel's BPF interface, as
 * p4hls's generated C declares it: no header files, only clang. */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
struct xdp_md { u32 data, data_end, data_meta, ingress_ifindex, rx_queue_index, egress_ifindex; };
struct bpf_spin_lock { u32 val; };
static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
static long (*bpf_redirect_map)(void *map, u64 key, u64 flags) = (void *)51;
static long (*bpf_spin_lock)(struct bpf_spin_lock *lock) = (void *)93;
static long (*bpf_spin_unlock)(struct bpf_spin_lock *lock) = (void *)94;
enum { XDP_ABORTED, XDP_DROP, XDP_PASS, XDP_TX, XDP_REDIRECT };
#define BPF_MAP_TYPE_HASH 1
#define BPF_MAP_TYPE_ARRAY 2
#define BPF_MAP_TYPE_LPM_TRIE 11
#define BPF_MAP_TYPE_DEVMAP 14
#define BPF_F_NO_PREALLOC 1
#define htons(x) __builtin_bswap16(x)
struct eth { u8 dst[6]; u8 src[6]; u16 proto; };
struct iph { u8 vihl, tos; u16 len, id, frag; u8 ttl, proto; u16 check; u32 saddr, daddr; };
struct { __uint(type, BPF_MAP_TYPE_DEVMAP); __uint(max_entries, 512); __type(key, u32); __type(value, u32); } tx SEC(".maps");
char _license[] SEC("license") = "GPL";
