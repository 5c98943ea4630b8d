#ifndef PREC_PERF_FILE_H
#define PREC_PERF_FILE_H
/*
 * The perf.data on-disk format, as stock perf 6.1 reads it (the reader is the
 * judge; ../shared/reference/perf.data-file-format.txt is wrong in places).
 *
 *   offset 0            struct perf_file_header (104 bytes, magic "PERFILE2")
 *   header.size         u64 ids[] of every event, event after event
 *   attrs.offset        struct perf_file_attr[nr_events] (attr + where its ids are)
 *   data.offset         the records, 8-byte aligned, data.size bytes
 *   data.offset+size    struct perf_file_section[nr set feature bits], in bit order
 *   ...                 the feature payloads those sections point at
 *
 * The header is written once with data.size = 0 and rewritten at the end with
 * the final sizes and feature bits, so a crash leaves a file perf can still
 * partly read (it warns about the zero data size).
 */
#include <stdint.h>
#include <linux/perf_event.h>

#define PERF_MAGIC2 0x32454c4946524550ULL /* "PERFILE2" little-endian */

/* The attr size we write: perf 6.1's struct, so older readers accept it. */
#define PREC_ATTR_SIZE PERF_ATTR_SIZE_VER7 /* 128 */

struct perf_file_section {
	uint64_t offset;
	uint64_t size;
};

#define HEADER_FEAT_BITS 256

struct perf_file_header {
	uint64_t magic;
	uint64_t size; /* sizeof(struct perf_file_header) */
	uint64_t attr_size; /* sizeof(struct perf_file_attr) */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types; /* unused since 2013: zero */
	uint64_t adds_features[HEADER_FEAT_BITS / 64];
};

/* The attr as written: exactly PREC_ATTR_SIZE bytes, then the ids section. */
struct perf_file_attr {
	uint8_t attr[PREC_ATTR_SIZE];
	struct perf_file_section ids;
};

_Static_assert(sizeof(struct perf_file_header) == 104, "perf_file_header");
_Static_assert(sizeof(struct perf_file_attr) == 144, "perf_file_attr");

/* Feature bits (the index into adds_features). */
enum {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE, /* 32: the last id perf 6.1 knows, plus one */
};

/* Strings in feature sections: u32 length (with the NUL, padded to this), bytes. */
#define PERF_NAME_ALIGN 64

#endif
