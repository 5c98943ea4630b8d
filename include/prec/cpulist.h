/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_CPULIST_H
#define PREC_CPULIST_H
/*
 * The one parser of the kernel's CPU list syntax ("0-3,8,10-11", as sysfs
 * prints it and as -C takes it), into a bitmap (base/cpulist.c). Pure; the
 * recorder's cpu_map and sysinfo's topology readers are built on it.
 */
#include <stddef.h>
#include <stdint.h>

/* CPU numbers must be below this: far above any NR_CPUS, small enough to bitmap. */
#define CPULIST_CPU_LIMIT (1u << 20)

/* A set of CPU numbers; bits[] covers CPUs 0 .. nr_bits-1, nr_bits = highest CPU + 1. */
struct cpulist {
	uint64_t *bits;
	uint32_t nr_bits;
};

/*
 * Parses a kernel cpu list from s[0..len) into *cl. Surrounding whitespace
 * is allowed; ranges may come in any order and overlap. Returns 0; -ENODATA
 * when the list is empty (sysfs prints "\n" for e.g. a CPU-less node: callers
 * that accept that test for it); -EINVAL for malformed input ("1-", "3-1",
 * "a", "1,,2", " 1 2"); -ERANGE for a CPU >= CPULIST_CPU_LIMIT; -ENOMEM.
 * *cl is zeroed on failure; release it with cpulist__exit.
 */
int cpulist__parse(const char *s, size_t len, struct cpulist *cl);

/*
 * cpulist__parse with a lower bound on the CPU numbers: -ERANGE as soon as a
 * number at or above limit (at most CPULIST_CPU_LIMIT) is read, before any
 * later syntax error, as a left-to-right parser reports it.
 */
int cpulist__parse_limit(const char *s, size_t len, uint32_t limit, struct cpulist *cl);

/* Frees cl's bitmap and zeroes it; accepts NULL, a zeroed or an already-exited list. */
void cpulist__exit(struct cpulist *cl);

/* Returns the number of distinct CPUs in cl (0 for an empty list). */
uint32_t cpulist__count(const struct cpulist *cl);

/* Returns the highest CPU in cl, or -1 when cl is empty. */
int cpulist__max(const struct cpulist *cl);

/* Returns the lowest CPU in cl that is >= from, or -1 when there is none. */
int cpulist__next(const struct cpulist *cl, uint32_t from);

/* Returns 1 when cpu is in cl, else 0. */
int cpulist__has(const struct cpulist *cl, uint32_t cpu);

#endif
