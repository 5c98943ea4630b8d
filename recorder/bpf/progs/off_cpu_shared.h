/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What off_cpu.bpf.c and prec agree on: the key of a total, the payload of
 * a direct sample, and the sizes of the maps.
 */
#ifndef PREC_BPF_OFF_CPU_SHARED_H
#define PREC_BPF_OFF_CPU_SHARED_H

#include <linux/types.h>

/* User frames kept per stack (deeper stacks keep their innermost frames). */
#define OFF_CPU_MAX_STACK 64
/* Distinct stacks and distinct keys the maps hold. The stack map is
 * preallocated: 102,400 stacks (perf 6.1's count) of 64 frames take about
 * 54 MB of kernel memory; its 131,072 hash buckets make two distinct stacks
 * share one (the second is kept without its callchain, and counted) rarely:
 * about 1 in 90 of 3,000 stacks. */
#define OFF_CPU_MAX_STACKS 102400
#define OFF_CPU_MAX_KEYS 65536
/* Threads asleep at once that the program follows (about 5 MB of kernel
 * memory, preallocated). */
#define OFF_CPU_MAX_BLOCKED 65536

struct off_cpu_key {
	__u32 pid;
	__u32 tgid;
	__u32 stack_id; /* into the stacks map; negative: no stack */
	__u32 state;
	__u64 cgroup_id; /* --all-cgroups only, else 0 */
};

/* The RAW payload of a direct sample. */
struct off_cpu_direct {
	struct off_cpu_key key;
	__u64 period; /* nanoseconds blocked */
};

#endif
