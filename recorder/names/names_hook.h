/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_HOOK_H
#define PREC_RECORDER_NAMES_HOOK_H
/*
 * Each drain stream's part of the names layer (names.h), a drain hook: an
 * anonymous executable mapping in the rings (JIT code) gets an MMAP2 that
 * places its process's JIT ELF over it, written after the rings' records of
 * the same pass and before its FINISHED_ROUND, with the kernel record's
 * sample_id (so the same time): perf's ordered events see it before any
 * sample in that memory. A thread's EXIT lets the registry see whether its
 * process is over; a new process's FORK ends an earlier one of that pid.
 * The pass's FORKs and MMAP2s are given to the registry at its end, in
 * time order (the rings are read one after the other). Nothing is allocated per record; the pass's records
 * share one buffer, bounded (what passes it is counted, not written).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct drain;
struct names;

#define NAMES_HOOK_MAX (4u << 20) /* bytes of placing records per pass */
#define NAMES_HOOK_TICK_MS 50 /* the longest a drain sleeps between passes */

/* A FORK of a new process or an anonymous executable MMAP2 of the pass,
 * resolved at its end in time order. */
struct names_hook_event {
	uint32_t pid;
	uint64_t time, seq;
	size_t rec_off; /* the MMAP2 in recs; SIZE_MAX: a FORK */
	size_t size;
};

struct names_hook {
	struct names *n;
	int time_back; /* a record's sample_id TIME sits this far before its end; 0: none */
	uint8_t *buf; /* this pass's records */
	size_t len, cap;
	uint8_t *rec; /* the kernel's record, copied out of the ring */
	struct names_hook_event *ev; /* this pass's events */
	size_t nr_ev, ev_cap;
	uint8_t *recs; /* their MMAP2s */
	size_t recs_len, recs_cap;
	uint64_t placed, dropped;
};

struct prec_mmap2_event;

/* Whether the MMAP2 k of size bytes maps anonymous executable user memory
 * (perf names it by /tmp/perf-PID.map). Pure. */
bool names_hook__is_anon_exec(const struct prec_mmap2_event *k, size_t size);

/* The MMAP2 placing the ELF name over the mapping of k (size bytes) into
 * dst (room bytes): k's range, prot, flags, misc and sample_id (so its
 * time), pgoff = start (the ELF's symbols are absolute), no device or
 * inode. Its size, or 0 when k is not whole or it does not fit. Pure. */
size_t names_hook__place(void *dst, size_t room, const struct prec_mmap2_event *k, size_t size,
			 const char *name);

/* h follows d's records for n; time_back: dso_track_layout's id_time_back
 * of the events (0: records carry no time; then the rings' order). 0,
 * -ENOMEM or -ENOSPC (d's hooks or ticks full). */
int names_hook__attach(struct names_hook *h, struct names *n, struct drain *d, int time_back);

/* Frees h's buffers. Accepts a zeroed h. */
void names_hook__exit(struct names_hook *h);

#endif
