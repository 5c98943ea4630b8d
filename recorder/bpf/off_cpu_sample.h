/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One off-CPU sample as perf 6.1's off_cpu_write lays it out: the fields of
 * the offcpu-time event's sample_type, the user stack as a callchain after
 * PERF_CONTEXT_USER, the first frame as IP. Pure: no BPF, no I/O.
 */
#ifndef PREC_BPF_OFF_CPU_SAMPLE_H
#define PREC_BPF_OFF_CPU_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* What a sample says, from the BPF program's key (or a direct sample). */
struct off_cpu_sample {
	uint32_t pid; /* the thread */
	uint32_t tgid; /* its process */
	uint64_t period; /* nanoseconds blocked */
	uint64_t time; /* TIME */
	uint32_t cpu; /* CPU (perf writes 0 for the summed ones) */
	uint64_t cgroup_id;
	const uint64_t *frames; /* user frames, innermost first */
	int nr_frames;
};

/* perf 6.1 puts the summed samples after every other one: this time and up. */
#define OFF_CPU_TOTALS_TIME (~0ULL << 32)

/* The largest record off_cpu_sample__encode writes for nr_frames frames. */
#define OFF_CPU_SAMPLE_MAX_BYTES(nr_frames) ((size_t)(12 + (nr_frames)) * 8)

/*
 * Writes the PERF_RECORD_SAMPLE for s into buf (cap bytes, 8-aligned) for an
 * event of sample_type with event id id. Returns its size, or 0 when
 * sample_type has a bit outside OFF_CPU_SAMPLE_TYPES or cap is too small.
 */
size_t off_cpu_sample__encode(void *buf, size_t cap, uint64_t sample_type, uint64_t id,
			      const struct off_cpu_sample *s);

/* The largest record off_cpu_sample__lost writes. */
#define OFF_CPU_LOST_MAX_BYTES 64

/*
 * Writes a PERF_RECORD_LOST_SAMPLES of lost samples for the offcpu-time event
 * (sample_type, id) into buf: the id trailer holds the id alone, as prec's
 * --filter drops. Its size, or 0 for a sample_type outside
 * OFF_CPU_SAMPLE_TYPES or cap under OFF_CPU_LOST_MAX_BYTES.
 */
size_t off_cpu_sample__lost(void *buf, size_t cap, uint64_t sample_type, uint64_t id,
			    uint64_t lost);

#endif
