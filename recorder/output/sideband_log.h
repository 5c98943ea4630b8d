/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_SIDEBAND_LOG_H
#define PREC_RECORDER_SIDEBAND_LOG_H
/*
 * The kernel's side-band records (COMM, MMAP, MMAP2, FORK, EXIT, NAMESPACES,
 * CGROUP, KSYMBOL, BPF_EVENT) kept as they pass through the drain, so a file
 * --switch-output starts can be given the side-band of every process still
 * alive — including one /proc no longer shows because it exited while its
 * samples waited in the rings. Processes whose EXIT was seen are dropped at
 * each replay: their samples cannot come after it.
 */
#include <stddef.h>
#include <stdint.h>

struct ring;
struct synth_out;

struct sideband_log {
	uint8_t *buf;
	size_t len, cap;
	uint64_t nomem; /* records lost to allocation failure */
};

/* Whether records of this type are kept. */
int sideband_log__wants(uint32_t type);

/* Appends the record of size bytes at window position pos of ring r. */
void sideband_log__add_ring(struct sideband_log *l, const struct ring *r, uint64_t pos,
			    uint32_t size);

/* Appends a record from memory (len = its header.size). */
void sideband_log__add(struct sideband_log *l, const void *rec, size_t len);

/* Drops the records of processes that exited, then writes the rest to out
 * in their order. 0 or the writer's -errno. */
int sideband_log__replay(struct sideband_log *l, struct synth_out *out);

/* Frees the log's buffer. */
void sideband_log__exit(struct sideband_log *l);

#endif
