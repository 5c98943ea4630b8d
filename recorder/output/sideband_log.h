/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_SIDEBAND_LOG_H
#define PREC_RECORDER_SIDEBAND_LOG_H
/*
 * The kernel's side-band records (COMM, MMAP, MMAP2, FORK, EXIT, NAMESPACES,
 * CGROUP, KSYMBOL, BPF_EVENT) kept as they pass through the drain, so a file
 * --switch-output starts can be given the side-band of every process still
 * alive — including one /proc no longer shows because it exited while its
 * samples waited in the rings. A process whose EXIT was seen is dropped at
 * the replay after the next one: a pass reads each ring's window in turn,
 * so a sample of it that another CPU's ring took after its window was read
 * (or that a cut left in a ring) still reaches the file the next replay
 * begins, and needs its maps there. No sample of it can come later.
 */
#include <stddef.h>
#include <stdint.h>

struct ring;
struct synth_out;

struct sideband_log {
	uint8_t *buf;
	size_t len, cap;
	uint64_t nomem; /* records lost to allocation failure */
	/* Processes whose EXIT the last replay saw: dropped at the next one. */
	uint32_t *dying;
	size_t nr_dying, dying_cap;
};

/* Whether records of this type are kept. */
int sideband_log__wants(uint32_t type);

/* Appends the record of size bytes at window position pos of ring r. */
void sideband_log__add_ring(struct sideband_log *l, const struct ring *r, uint64_t pos,
			    uint32_t size);

/* Appends a record from memory (len = its header.size). */
void sideband_log__add(struct sideband_log *l, const void *rec, size_t len);

/* Drops the records of processes that exited before the last replay, then
 * writes the rest (no EXIT) to out in their order. 0 or the writer's
 * -errno. */
int sideband_log__replay(struct sideband_log *l, struct synth_out *out);

/* Frees the log's buffer. */
void sideband_log__exit(struct sideband_log *l);

#endif
