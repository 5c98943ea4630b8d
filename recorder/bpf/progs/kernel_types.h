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

struct task_struct {
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

#pragma clang attribute pop

#endif
