#ifndef PREC_EVENT_H
#define PREC_EVENT_H
/*
 * Records on the wire. Kernel records (PERF_RECORD_SAMPLE, COMM, MMAP2, ...)
 * are copied from the ring untouched; these structs describe the ones prec
 * synthesizes and the user-space types perf defines above the kernel's.
 * Every record is 8-byte aligned and header.size is its exact length.
 */
#include <stdint.h>
#include <linux/perf_event.h>

/* perf's user-space record types (tools/lib/perf/include/perf/event.h). */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
};

/*
 * LOST_SAMPLES' misc bit for samples a BPF --filter dropped (perf 6.4's
 * uapi; perf 6.1 counts them as any lost samples).
 */
#ifndef PERF_RECORD_MISC_LOST_SAMPLES_BPF
#define PERF_RECORD_MISC_LOST_SAMPLES_BPF (1 << 15)
#endif

/* EVENT_UPDATE's types (perf's enum perf_event_update_type). */
enum {
	PERF_EVENT_UPDATE__UNIT = 0,
	PERF_EVENT_UPDATE__SCALE = 1,
	PERF_EVENT_UPDATE__NAME = 2,
	PERF_EVENT_UPDATE__CPUS = 3,
};

/* The largest record the kernel's u16 size field allows. */
#define PERF_RECORD_MAX_SIZE 0xffffu

struct prec_mmap_event { /* PERF_RECORD_MMAP; filename NUL-padded to 8 */
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	char filename[];
};

struct prec_comm_event { /* PERF_RECORD_COMM; comm NUL-padded to 8 */
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[];
};

struct prec_id_index_entry {
	uint64_t id, idx, cpu, tid;
};

struct prec_id_index_event { /* PERF_RECORD_ID_INDEX */
	struct perf_event_header header;
	uint64_t nr;
	struct prec_id_index_entry entries[];
};

struct prec_thread_map_entry {
	uint64_t pid;
	char comm[16];
};

struct prec_thread_map_event { /* PERF_RECORD_THREAD_MAP */
	struct perf_event_header header;
	uint64_t nr;
	struct prec_thread_map_entry entries[];
};

/* PERF_RECORD_CPU_MAP encodings (the u16 after the header). */
enum prec_cpu_map_type {
	PREC_CPU_MAP_CPUS = 0, /* u16 list; every perf reads it */
	PREC_CPU_MAP_MASK = 1, /* bitmap of long_size 8 (every perf) or 4 (perf >= 6.1) */
	PREC_CPU_MAP_RANGE = 2, /* start..end (perf >= 6.1; older ones misread it) */
};

struct prec_cpu_map_event { /* PERF_RECORD_CPU_MAP, the list form (type 0) */
	struct perf_event_header header;
	uint16_t type; /* 0: u16 cpu list */
	uint16_t nr;
	uint16_t cpu[]; /* 0xffff: "any CPU" (-1) */
};

/* The mask forms start their bitmap off alignment: perf's struct is packed. */
struct prec_cpu_map_mask64_event { /* type 1, long_size 8: mask at byte 18 */
	struct perf_event_header header;
	uint16_t type;
	uint16_t nr; /* u64 words */
	uint16_t long_size; /* 8 */
	uint8_t pad[4];
	uint64_t mask[];
} __attribute__((packed));

struct prec_cpu_map_mask32_event { /* type 1, long_size 4: mask at byte 14 */
	struct perf_event_header header;
	uint16_t type;
	uint16_t nr; /* u32 words */
	uint16_t long_size; /* 4 */
	uint32_t mask[];
} __attribute__((packed));

struct prec_cpu_map_range_event { /* type 2 */
	struct perf_event_header header;
	uint16_t type;
	uint8_t any_cpu; /* 1: -1 comes first */
	uint8_t pad;
	uint16_t start_cpu, end_cpu; /* inclusive */
};

/* PERF_RECORD_FORK and PERF_RECORD_EXIT; then the sample_id trailer. */
struct prec_fork_event {
	struct perf_event_header header;
	uint32_t pid, ppid;
	uint32_t tid, ptid;
	uint64_t time;
};

/* PERF_RECORD_MMAP2 without a build id; filename NUL-padded to 8, then the
 * sample_id trailer. */
struct prec_mmap2_event {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[];
};

struct prec_ns_link_info {
	uint64_t dev, ino;
};

/* PERF_RECORD_NAMESPACES: NR_NAMESPACES entries in the kernel's index order
 * (net, uts, ipc, pid, user, mnt, cgroup), then the trailer. */
struct prec_namespaces_event {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	struct prec_ns_link_info link_info[];
};

/* PERF_RECORD_CGROUP: path from the cgroup mount ("/" for the root),
 * NUL-padded to 8, then the trailer. */
struct prec_cgroup_event {
	struct perf_event_header header;
	uint64_t id;
	char path[];
};

/* PERF_RECORD_KSYMBOL; name NUL-padded to 8, then the trailer. */
struct prec_ksymbol_event {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type; /* PERF_RECORD_KSYMBOL_TYPE_BPF, ... */
	uint16_t flags;
	char name[];
};

/* PERF_RECORD_BPF_EVENT, then the trailer. */
struct prec_bpf_event {
	struct perf_event_header header;
	uint16_t type; /* PERF_BPF_EVENT_PROG_LOAD, ... */
	uint16_t flags;
	uint32_t id;
	uint8_t tag[8];
};

/* PERF_RECORD_TIME_CONV as perf >= 5.11 writes it (older readers take the
 * first three fields only). */
struct prec_time_conv_event {
	struct perf_event_header header;
	uint64_t time_shift;
	uint64_t time_mult;
	uint64_t time_zero;
	uint64_t time_cycles;
	uint64_t time_mask;
	uint8_t cap_user_time_zero;
	uint8_t cap_user_time_short;
	uint8_t reserved[6];
};

struct prec_lost_event { /* PERF_RECORD_LOST as the kernel writes it */
	struct perf_event_header header;
	uint64_t id;
	uint64_t lost;
};

#endif
