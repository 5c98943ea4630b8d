/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_AFFINITY_H
#define PREC_RECORDER_AFFINITY_H
/*
 * Where and how a drain thread runs. --affinity=cpu|node moves the thread,
 * while it reads a ring, onto that ring's CPU or onto the CPUs of the ring's
 * NUMA node, so the copy out of the ring touches local memory (the kernel
 * allocates each CPU's ring on that CPU's node). -r gives the drain
 * SCHED_FIFO. One struct affinity per drain loop: several loops (--threads)
 * each carry their own, with no shared state.
 */
#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "prec/cpulist.h"

struct prec_err;
struct drain_config;
struct sysinfo;

struct affinity {
	int mode; /* enum record_affinity */
	uint32_t nr_cpus; /* entries of node_of; the CPUs a mask can name */
	int *node_of; /* CPU -> NUMA node id, -1 when unknown */
	uint32_t nr_nodes; /* entries of node_cpus: node ids 0 .. nr_nodes-1 */
	struct cpulist *node_cpus; /* each node's CPUs (empty for a gap in the ids) */
	cpu_set_t *set; /* scratch for sched_setaffinity, CPU_ALLOC(nr_cpus) */
	size_t setsize;
	int cur; /* the key (a CPU or a node) of the mask in force; -1 none yet */
	uint64_t moves; /* sched_setaffinity calls made */
	uint64_t failed; /* of which failed (an offline CPU, a cpuset): left as it was */
};

/*
 * Prepares a's tables from the machine's NUMA facts (si->numa; a machine
 * without them has every CPU on node 0). mode is an enum record_affinity.
 * 0 or -ENOMEM; release with affinity__exit (also after a failure).
 */
int affinity__init(struct affinity *a, int mode, const struct sysinfo *si);

/* Frees a's tables; accepts a zeroed or already-exited struct. */
void affinity__exit(struct affinity *a);

/* The key of the mask a ring on cpu asks for: the CPU itself (cpu mode),
 * its node (node mode), or -1: no move (sys mode, cpu < 0 for a per-thread
 * ring, a CPU no node lists). Pure. */
int affinity__key(const struct affinity *a, int cpu);

/* Fills set (setsize bytes, CPU_ALLOC_SIZE) with the CPUs of key (as
 * affinity__key gives it). Returns how many CPUs it holds; 0 for a bad key. */
int affinity__mask(const struct affinity *a, int key, cpu_set_t *set, size_t setsize);

/* affinity__init, then the before_ring step of the drains c configures
 * (none in sys mode). 0 or -ENOMEM. */
int affinity__attach(struct affinity *a, struct drain_config *c, int mode,
		     const struct sysinfo *si);

/*
 * -r: SCHED_FIFO at prio for the calling thread, and so for the threads it
 * starts after (they inherit it). 0, or -errno with why (one line) in e.
 */
int affinity__set_realtime(int prio, struct prec_err *e);

/* The drain's nice without -r: above the workload's, so a busy command
 * does not keep the drain off the CPU while its rings fill. */
#define AFFINITY_DRAIN_NICE (-10)

/*
 * Without -r: the calling thread, and so the threads it starts after, at
 * nice AFFINITY_DRAIN_NICE, when prec runs at nice 0 (a nice the user set
 * is kept) and may raise itself (root, CAP_SYS_NICE, ulimit -e); printed under
 * -v either way. 0 or -errno (nothing changed).
 */
int affinity__raise_drain(void);

/* Binds the calling thread to the CPUs of cpus (a --threads stream's
 * affinity mask). 0, -ENOMEM, or sched_setaffinity's -errno. */
int affinity__bind(const struct cpulist *cpus);

#endif
