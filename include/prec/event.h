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

struct prec_cpu_map_event { /* PERF_RECORD_CPU_MAP, the list form (type 0) */
	struct perf_event_header header;
	uint16_t type; /* 0: u16 cpu list */
	uint16_t nr;
	uint16_t cpu[];
};

struct prec_lost_event { /* PERF_RECORD_LOST as the kernel writes it */
	struct perf_event_header header;
	uint64_t id;
	uint64_t lost;
};

#endif
