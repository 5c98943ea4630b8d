#ifndef PREC_CPU_MAP_H
#define PREC_CPU_MAP_H
#include <stdbool.h>
/* A sorted list of CPU numbers: the CPUs events are opened on. */

struct cpu_map {
	int nr;
	int cpu[]; /* ascending, no duplicates */
};

/*
 * Parses a kernel cpu list ("0-3,8,10-11") into a new map. Pure. Returns 0 and
 * *out, or -EINVAL for a malformed list, -ERANGE for a CPU >= 65536, -ENOMEM.
 * The caller owns *out (free with cpu_map__delete).
 */
int cpu_map__parse(struct cpu_map **out, const char *list);

/* The online CPUs (/sys/devices/system/cpu/online). 0 and *out, or -errno. */
int cpu_map__online(struct cpu_map **out);

/*
 * The union of a and b (either may be NULL), ascending, without the -1 of
 * "any CPU". Pure. 0 and *out (the caller's), or -ENOMEM.
 */
int cpu_map__merge(struct cpu_map **out, const struct cpu_map *a, const struct cpu_map *b);

/* Whether cpu is in m. */
bool cpu_map__has(const struct cpu_map *m, int cpu);

/*
 * The CPUs an event with a cpu= term (perf 6.16) opens on: those of its
 * list (cpu_map__parse syntax) that the recording's CPUs hold (recorded
 * NULL or "any CPU": all of them). Pure. 0 and *out (the caller's);
 * -ENODEV with *bad the first CPU of the list that online lacks; -ENOENT
 * when the recording holds none of them; -EINVAL (a malformed list), -ENOMEM.
 */
int cpu_map__for_term(struct cpu_map **out, const char *list, const struct cpu_map *online,
		      const struct cpu_map *recorded, int *bad);

/* Frees a map; accepts NULL. */
void cpu_map__delete(struct cpu_map *map);

#endif
