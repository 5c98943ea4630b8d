/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel types prec's BPF programs read, declared here with only the
 * fields they use. preserve_access_index makes every access a CO-RE
 * relocation: libbpf finds the field in the running kernel's BTF at load
 * time, so the layout written here is never trusted and no vmlinux.h is
 * needed to build.
 */
#ifndef PREC_BPF_KERNEL_TYPES_H
#define PREC_BPF_KERNEL_TYPES_H

#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdbool.h>

typedef __u8 u8;
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct kernfs_node {
	u64 id;
};

struct cgroup {
	struct kernfs_node *kn;
};

struct css_set {
	struct cgroup *dfl_cgrp;
};

/* The CPU time a task had when it was last picked, and has now. */
struct sched_entity {
	u64 sum_exec_runtime;
	u64 prev_sum_exec_runtime;
};

struct task_struct {
	struct sched_entity se;
	unsigned int flags;
	int pid;
	int tgid;
	struct css_set *cgroups;
};

/* The run state: __state since Linux 5.14, state before (CO-RE picks). */
struct task_struct___new {
	unsigned int __state;
};

struct task_struct___old {
	long state;
};

/*
 * What a perf_event program's sample holds (sample_filter.bpf.c). The unions
 * come from <linux/perf_event.h>: their layout is the UAPI's. sample_flags
 * (Linux 6.1) says which fields the kernel filled for this sample.
 */
struct perf_sample_data {
	u64 sample_flags;
	u64 period;
	union perf_sample_weight weight;
	union perf_mem_data_src data_src;
	u64 txn;
	u64 addr;
	u64 ip;
	struct {
		u32 pid;
		u32 tid;
	} tid_entry;
	u64 time;
	u64 id;
	struct {
		u32 cpu;
		u32 reserved;
	} cpu_entry;
	u64 phys_addr;
	u64 cgroup;
	u64 data_page_size;
	u64 code_page_size;
};

/* The event a sample is of; an inherited event's parent holds the id. */
struct perf_event {
	u64 id;
	struct perf_event *parent;
};

struct bpf_perf_event_data_kern {
	struct perf_sample_data *data;
	struct perf_event *event;
};

#pragma clang attribute pop

#endif
