/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_SIDEBAND_LOG_H
#define PREC_RECORDER_SIDEBAND_LOG_H
/*
 * The kernel's side-band records (COMM, MMAP, MMAP2, FORK, EXIT, NAMESPACES,
 * CGROUP, KSYMBOL, BPF_EVENT) kept as they pass through the drain, so a file
 * --switch-output starts can be given the side-band of every process still
 * alive — including one /proc no longer shows because it exited while its
 * samples waited in the rings. A process whose EXIT was seen is dropped
 * only once a whole pass (one no size cut ended early) began after its
 * EXIT was logged: a pass reads each ring's window in turn, so a sample of
 * it that another CPU's ring took after its window was read, or that a
 * cut left in a ring (several files' worth when the drain lags), reaches
 * the files after it, and needs its maps there. That pass drained every
 * such sample: all came before the EXIT.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ring;
struct synth_out;

struct sideband_log {
	uint8_t *buf;
	size_t len, cap;
	uint64_t nomem; /* records lost to allocation failure */
	/* The log's length when the pass under way began, and how much of it
	 * a whole pass has drained past: an EXIT before safe_end may drop its
	 * process at the next replay, one after it waits (it stays in the log,
	 * unwritten). */
	size_t pass_start, safe_end;
};

/* Whether records of this type are kept. */
int sideband_log__wants(uint32_t type);

/* Appends the record of size bytes at window position pos of ring r. */
void sideband_log__add_ring(struct sideband_log *l, const struct ring *r, uint64_t pos,
			    uint32_t size);

/* Appends a record from memory (len = its header.size). */
void sideband_log__add(struct sideband_log *l, const void *rec, size_t len);

/* A pass ended; whole: no size cut stopped it early (every ring was read
 * to where it stood when the pass read it). */
void sideband_log__pass(struct sideband_log *l, bool whole);

/* Drops the records of processes whose EXIT a whole pass has drained past,
 * then writes the rest (no EXIT) to out in their order. 0 or the writer's
 * -errno. */
int sideband_log__replay(struct sideband_log *l, struct synth_out *out);

/* Frees the log's buffer. */
void sideband_log__exit(struct sideband_log *l);

#endif
