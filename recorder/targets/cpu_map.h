#ifndef PREC_CPU_MAP_H
#define PREC_CPU_MAP_H
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

/* Frees a map; accepts NULL. */
void cpu_map__delete(struct cpu_map *map);

#endif
