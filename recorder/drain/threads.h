#ifndef PREC_RECORDER_THREADS_H
#define PREC_RECORDER_THREADS_H
/*
 * --threads[=SPEC]: which rings each drain stream owns and where its
 * thread may run, read from perf record's syntax against a topology. Pure:
 * the topology comes in as cpu-list strings (sysinfo's sibling lists), so
 * the parser is tested on machines we do not have.
 *
 *   cpu (or no value)  one stream per recorded CPU
 *   core | package     one per core / package (the sibling lists)
 *   numa               one per NUMA node
 *   M/A[:M/A...]       user masks: the rings of the CPUs in cpu list M,
 *                      drained by a thread bound to the CPUs in list A
 *
 * Every mask is cut down to the recorded CPUs; a mask left empty, a CPU
 * that does not exist, or two streams sharing a ring or an affinity CPU are
 * refused, with perf's words.
 */
#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "prec/cpulist.h"

struct cpu_map;
struct prec_err;
struct sysinfo;

/* The machine's facts the spec is read against; every string a cpu list. */
struct threads_topo {
	const char *const *cores; /* core siblings lists (core_cpus_list) */
	uint32_t nr_cores;
	const char *const *packages; /* package siblings lists */
	uint32_t nr_packages;
	const char *const *nodes; /* each online NUMA node's CPUs ("" for none) */
	uint32_t nr_nodes;
	uint32_t nr_cpus; /* CPUs that exist (highest possible + 1): a mask naming
			   * one at or above it is refused */
};

/* One stream: the rings of the CPUs in maps, a thread bound to affinity. */
struct threads_mask {
	struct cpulist maps;
	struct cpulist affinity;
};

struct threads_masks {
	struct threads_mask *m;
	uint32_t nr;
	/* Each stream runs on a thread of its own and writes its own file
	 * (--threads); false: threads_masks__one's single stream. */
	bool threaded;
};

/* A recording without --threads: one stream over every ring, run by the
 * caller's thread. 0 or -ENOMEM. */
int threads_masks__one(struct threads_masks *out);

/*
 * Reads spec ("" or NULL: cpu) against topo and the recorded CPUs cpus into
 * *out, one mask per stream in the order perf makes them. 0, or -EINVAL /
 * -ENODEV / -ENOMEM with one line in e (perf's message and the fix);
 * *out is empty then. Release with threads_masks__exit.
 */
int threads_masks__parse(const char *spec, const struct threads_topo *topo,
			 const struct cpulist *cpus, struct threads_masks *out, struct prec_err *e);

/*
 * threads_masks__parse against this machine: the topology as sysinfo read
 * it, the CPUs the recording opens on (cpus; a map of "any CPU" is every
 * CPU). Same results, -ENOMEM with its line in e too.
 */
int threads_masks__for_machine(const char *spec, const struct sysinfo *si,
			       const struct cpu_map *cpus, struct threads_masks *out,
			       struct prec_err *e);

/* Frees what *m holds and zeroes it; accepts a zeroed one. */
void threads_masks__exit(struct threads_masks *m);

#endif
