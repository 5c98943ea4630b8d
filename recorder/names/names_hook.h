/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_HOOK_H
#define PREC_RECORDER_NAMES_HOOK_H
/*
 * Each drain stream's part of the names layer (names.h), a drain hook: an
 * anonymous executable mapping in the rings (JIT code) gets an MMAP2 that
 * places its process's JIT ELF over it, written after the rings' records of
 * the same pass and before its FINISHED_ROUND, with the kernel record's
 * sample_id (so the same time): perf's ordered events see it before any
 * sample in that memory. A process's EXIT tells the registry to read its
 * sources a last time. Nothing is allocated per record; the pass's records
 * share one buffer, bounded (what passes it is counted, not written).
 */
#include <stddef.h>
#include <stdint.h>

struct drain;
struct names;

#define NAMES_HOOK_MAX (4u << 20) /* bytes of placing records per pass */

struct names_hook {
	struct names *n;
	uint8_t *buf; /* this pass's records */
	size_t len, cap;
	uint8_t *rec; /* the kernel's record, copied out of the ring */
	uint64_t placed, dropped;
};

/* h follows d's records for n. 0, -ENOMEM or -ENOSPC (d's hooks full). */
int names_hook__attach(struct names_hook *h, struct names *n, struct drain *d);

/* Frees h's buffers. Accepts a zeroed h. */
void names_hook__exit(struct names_hook *h);

#endif
