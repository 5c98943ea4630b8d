/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_PROC_MAPS_H
#define PREC_RECORDER_PROC_MAPS_H
/*
 * One line of /proc/PID/maps, parsed without touching the file system:
 *
 *   start-end perms offset maj:min inode [spaces path]
 *   7f16ae7bb000-7f16ae88e000 r-xp 0000a000 00:01 1024   /memfd:x (deleted)
 *
 * The path is everything after the spaces that follow the inode, up to the
 * newline: it may hold spaces, a " (deleted)" suffix (kept, as perf keeps it
 * in MMAP2 filenames), or a pseudo name ([vdso], [stack], [heap], ...); an
 * anonymous map has none.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct proc_map {
	uint64_t start, end; /* end > start is not required; end >= start is */
	uint64_t pgoff;
	uint64_t ino; /* decimal in the file; any u64 */
	uint32_t maj, min;
	uint32_t prot; /* PROT_READ | PROT_WRITE | PROT_EXEC */
	uint32_t flags; /* MAP_PRIVATE ('p') or MAP_SHARED ('s') */
	const char *name; /* points into the line, NOT NUL-terminated */
	size_t name_len; /* 0: anonymous */
	bool deleted; /* the name ends in " (deleted)" */
};

/*
 * Parses the first line of buf (len bytes; parsing stops at '\n', at a NUL
 * or at len). Pure: no allocation, no global state. Returns 0 and *map, or
 * -EINVAL for a malformed line (a field missing, not hex/decimal, a number
 * over its width, bad perms, start after end), *map then undefined.
 */
int proc_maps__parse_line(const char *buf, size_t len, struct proc_map *map);

#endif
