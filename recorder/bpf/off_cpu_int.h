/* SPDX-License-Identifier: GPL-2.0-only */
/* What off_cpu.c and off_cpu_direct.c share: the state of one --off-cpu. */
#ifndef PREC_BPF_OFF_CPU_INT_H
#define PREC_BPF_OFF_CPU_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "bpf/off_cpu.h"
#include "progs/off_cpu_shared.h"

#ifdef PREC_HAVE_BPF
#include "bpf/off_cpu.skel.h"
#endif

/* The processes a command's filter holds, its children included. */
#define OFF_CPU_MAX_TASKS 65536

struct ring;

struct off_cpu {
	struct off_cpu_bpf *skel;
	int nr_possible; /* possible CPUs: the direct map's slots */
	int stack_fd; /* the stacks map */
	uint64_t sample_type; /* the offcpu-time event's, as written */
	uint64_t id;
	/* The direct samples: one BPF-output event and ring per online CPU. */
	struct ring *rings;
	int nr_rings;
	uint64_t *buf; /* the converted samples of one drain (DIRECT_BUF_BYTES) */
	uint64_t totals_written;
	uint64_t totals_cut; /* summed samples past --max-size */
	uint64_t direct_written; /* atomic: the draining stream adds, the summary reads */
	uint64_t direct_lost; /* PERF_RECORD_LOST of those rings */
};

/* off_cpu_direct.c: the events and rings, into the program's direct map. 0 or -errno. */
int off_cpu_direct__open(struct off_cpu *oc, bool use_clockid, int clockid);
void off_cpu_direct__close(struct off_cpu *oc);

/* off_cpu_stack.c: the frames of a stack the program kept (innermost
 * first): their count, 0 when it kept none. */
int off_cpu__stack(const struct off_cpu *oc, uint32_t stack_id, uint64_t *frames);

#endif
