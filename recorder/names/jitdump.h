/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_JITDUMP_H
#define PREC_RECORDER_NAMES_JITDUMP_H
/*
 * The reader of jit-PID.dump, the record file JITs write for perf inject
 * --jit (perf's tools/perf/util/jitdump.h and jitdump-specification.txt):
 * a file header, then records, each a prefix {u32 id, u32 total_size, u64
 * timestamp} and a body. Every number is in the writer's byte order; a dump
 * whose magic reads byte-swapped came from an opposite-endian host and is
 * decoded by swapping. Pure functions over buffers: every length in the file
 * is checked against the bytes it claims, in 64 bits.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define JITDUMP_MAGIC 0x4A695444u /* "JiTD" as the writer's u32 */
#define JITDUMP_MAGIC_SWAPPED 0x4454694Au
#define JITDUMP_VERSION 1 /* the newest perf reads; a newer dump is refused, as perf does */
#define JITDUMP_FLAGS_ARCH_TIMESTAMP (1ULL << 0) /* timestamps are the arch's counter */
#define JITDUMP_HEADER_SIZE 40 /* the header as version 1 knows it */
#define JITDUMP_PREFIX_SIZE 16

/*
 * The largest record read, and the largest header. A JIT function of more
 * than 16 MiB of code is not a real one; a bigger total_size is a broken or
 * hostile dump, and no caller has to buffer more than this.
 */
#define JITDUMP_RECORD_MAX (16u << 20)

enum jitdump_record_id {
	JITDUMP_CODE_LOAD = 0,
	JITDUMP_CODE_MOVE = 1,
	JITDUMP_CODE_DEBUG_INFO = 2,
	JITDUMP_CODE_CLOSE = 3,
	JITDUMP_CODE_UNWINDING_INFO = 4,
};

struct jitdump_header {
	uint32_t version, elf_mach, pid;
	uint64_t timestamp, flags;
	uint32_t header_size; /* records start here, in [JITDUMP_HEADER_SIZE, JITDUMP_RECORD_MAX] */
	bool swapped; /* written on an opposite-endian host */
};

/*
 * Reads the header at buf[0..len). Returns 0 and *h; -EAGAIN when len is
 * under JITDUMP_HEADER_SIZE and the bytes so far could still be a jitdump
 * (read more); -EINVAL when it is not one (magic), or one perf would refuse
 * (a version above JITDUMP_VERSION, a reserved flag set), or its header size
 * is below JITDUMP_HEADER_SIZE or above JITDUMP_RECORD_MAX.
 */
int jitdump__parse_header(const void *buf, size_t len, struct jitdump_header *h);

struct jitdump_load {
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_size, code_index;
	const char *name; /* NUL-terminated inside the record */
	size_t name_len; /* without the NUL; may be 0 */
	const void *code; /* code_size bytes; NULL when the record is too short for them */
};

struct jitdump_move {
	uint32_t pid, tid;
	uint64_t vma, old_code_addr, new_code_addr, code_size, code_index;
};

struct jitdump_debug_info {
	uint64_t code_addr, nr_entry; /* nr_entry whole entries lie in entries[0..entries_len) */
	const void *entries; /* raw, in the writer's byte order: read with jitdump__debug_entry */
	size_t entries_len;
	bool swapped;
};

struct jitdump_unwinding {
	uint64_t unwinding_size, eh_frame_hdr_size, mapped_size;
	const void *data; /* unwinding_size bytes, the .eh_frame_hdr last */
};

struct jitdump_record {
	uint32_t id;
	uint32_t total_size;
	uint64_t timestamp;
	union {
		struct jitdump_load load;
		struct jitdump_move move;
		struct jitdump_debug_info debug_info;
		struct jitdump_unwinding unwinding;
	};
	/* JITDUMP_CODE_CLOSE and ids this reader does not know have no body here. */
};

struct jitdump_stats {
	uint64_t records; /* delivered, unknown ids included */
	uint64_t unknown; /* ids above JITDUMP_CODE_UNWINDING_INFO, delivered bare */
	uint64_t malformed; /* well framed but the body lies: skipped, not delivered */
};

/* Returns 0 to go on, or a negative value that stops the parse. */
typedef int (*jitdump_cb)(const struct jitdump_record *r, void *arg);

/*
 * Parses the whole records of buf[0..len) (records only: the caller skips
 * header_size bytes first), calling cb for each in file order. Returns the
 * bytes consumed (a cut last record stays for the next call; it is never
 * more than JITDUMP_RECORD_MAX bytes); cb's negative value; or -EINVAL when
 * a record's total_size is under the prefix or over JITDUMP_RECORD_MAX:
 * the framing is lost, so the caller stops reading that dump (the records
 * before it were delivered). A record whose body does not fit its
 * total_size (fixed fields, a name without its NUL, debug entries or
 * unwinding data past the end) is skipped and counted malformed. stats may
 * be NULL.
 */
ssize_t jitdump__parse_records(const void *buf, size_t len, bool swapped,
			       struct jitdump_stats *stats, jitdump_cb cb, void *arg);

struct jitdump_debug_entry {
	uint64_t addr;
	int32_t lineno, discrim;
	const char *name; /* NUL-terminated; "\xff" alone: the previous entry's file */
	size_t name_len;
};

/*
 * The debug entry at *off of d's entries (start with *off = 0); advances
 * *off. Returns 0, or -ENOENT past the last one. Bounded by entries_len
 * even for a struct the caller filled by hand (-EINVAL).
 */
int jitdump__debug_entry(const struct jitdump_debug_info *d, size_t *off,
			 struct jitdump_debug_entry *e);

#endif
