/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --off-cpu: perf's off-CPU profile, from a BPF program on sched_switch
 * (progs/off_cpu.bpf.c). The life of one:
 *   off_cpu__open      load and attach it for the target (not counting yet)
 *   off_cpu__set_event the offcpu-time event's layout and id, once opened
 *   off_cpu__enable    count from now (right before the command runs)
 *   off_cpu__drain     each pass of the main stream: the direct samples
 *   off_cpu__disable   stop counting (with the events)
 *   off_cpu__write_totals  the summed samples, last in the file
 *   off_cpu__delete
 */
#ifndef PREC_BPF_OFF_CPU_H
#define PREC_BPF_OFF_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct off_cpu;
struct prec_err;
struct writer;

/* Which blocks count, and how they are written. */
struct off_cpu_params {
	const int *cpus; /* -C: only blocks that begin on these; NULL: any CPU */
	int nr_cpus;
	const int *tasks; /* NULL: any task */
	int nr_tasks;
	bool by_tgid; /* tasks are processes (their threads and the children they fork count) */
	uint64_t cgroup_id; /* -G: only this cgroup's tasks; 0 any */
	bool needs_cgroup; /* --all-cgroups: each sample says its cgroup */
	uint64_t thresh_ns; /* a block this long is a direct sample */
	bool use_clockid; /* -k: the direct samples' clock */
	int clockid;
	size_t ring_bytes; /* each CPU's ring for the direct samples */
	bool verbose; /* libbpf's messages on stderr too */
};

/*
 * Loads and attaches the program, opens the direct samples' event on every
 * CPU. 0, or -errno with one line in e naming the fix; nothing is left open.
 */
int off_cpu__open(struct off_cpu **out, const struct off_cpu_params *p, struct prec_err *e);

struct evlist;
struct target_config;

/* --off-cpu's part of the command line: filled once from the final options
 * (off_cpu_config__init, recorder/record_prepare.c). */
struct off_cpu_config {
	uint64_t thresh_ns; /* --off-cpu-thresh: a block this long is a direct sample */
	bool needs_cgroup; /* --all-cgroups: each sample says its cgroup */
	bool use_clockid; /* -k: the direct samples' clock */
	int clockid;
};

/*
 * off_cpu__open for a recording: its target (the command workload and its
 * children, -p, -t, -u, -a, -C, -G) as perf's off_cpu_prepare, the events
 * opened (the offcpu-time event's layout and id). 0, or -errno with one line
 * in e.
 */
int off_cpu__open_for(struct off_cpu **oc, const struct off_cpu_config *cfg,
		      const struct target_config *target, const struct evlist *evlist,
		      pid_t workload, int cgroup_fd, struct prec_err *e);

/* The offcpu-time event's sample_type (its file attr) and one of its ids. */
void off_cpu__set_event(struct off_cpu *oc, uint64_t sample_type, uint64_t id);

void off_cpu__enable(struct off_cpu *oc);
void off_cpu__disable(struct off_cpu *oc);

/*
 * Writes the direct samples waiting in the rings to w (as ring data: -z
 * compresses them). 0 or the writer's -errno. Runs on one thread at a time.
 */
int off_cpu__drain(struct off_cpu *oc, struct writer *w);

/*
 * Writes a LOST_SAMPLES record of the blocks that made no sample (when any),
 * then one sample per (thread, stack, state, cgroup) summed, with perf 6.1's
 * times after every other sample, through emit(arg, rec, len). emit returns
 * 0, -errno (returned), or 1: the size limit is reached, the rest are
 * counted (off_cpu_losses.cut), not written. 0 or emit's -errno.
 */
int off_cpu__write_totals(struct off_cpu *oc, int (*emit)(void *arg, const void *rec, size_t len),
			  void *arg);

/* Samples written (summed, direct), and direct ones the kernel could not
 * hand over (a full ring). */
void off_cpu__counts(const struct off_cpu *oc, uint64_t *totals, uint64_t *direct, uint64_t *lost);

/* What --off-cpu could not keep, for the summary. */
struct off_cpu_losses {
	uint64_t blocks; /* no sample: a full map, or an end not found */
	uint64_t stacks; /* a sample without its callchain: the stack map's
			  * bucket taken by another stack, or the map full */
	uint64_t children; /* forked, not followed: the task filter full */
	uint64_t late; /* blocks whose end was found at the next switch out */
	uint64_t cut; /* summed samples past --max-size, not written */
};

void off_cpu__losses(const struct off_cpu *oc, struct off_cpu_losses *l);

void off_cpu__delete(struct off_cpu *oc);

#endif
