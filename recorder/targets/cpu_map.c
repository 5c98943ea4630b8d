// SPDX-License-Identifier: GPL-2.0-only
/* The CPUs events open on: a sorted array over base's CPU-list parser, the
 * online CPUs (read by sysinfo, sysinfo__cpus_online), and an event's own
 * (its cpu= term's). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "targets/cpu_map.h"

#include "prec/cpulist.h"
#include "prec/number.h"
#include "prec/sysinfo.h"

/* perf's MAX_NR_CPUS is far lower; a map of every possible CPU stays small. */
#define CPU_MAX 65536

int cpu_map__parse(struct cpu_map **out, const char *list)
{
	size_t len = strcspn(list, "\n");
	struct cpulist cl;
	struct cpu_map *map;
	int ret;

	/* -C and sysfs lists: the first line exactly, no blanks around it. */
	if (!len || text__is_blank(list[0]) || text__is_blank(list[len - 1]))
		return -EINVAL;
	/* perf reads "0," as "0": one trailing comma ends the list. */
	if (len > 1 && list[len - 1] == ',' && list[len - 2] != ',')
		len--;
	ret = cpulist__parse_limit(list, len, CPU_MAX, &cl);
	if (ret)
		return ret == -ENODATA ? -EINVAL : ret;
	map = malloc(sizeof(*map) + cpulist__count(&cl) * sizeof(int));
	if (!map) {
		cpulist__exit(&cl);
		return -ENOMEM;
	}
	map->nr = 0;
	for (int c = cpulist__next(&cl, 0); c >= 0; c = cpulist__next(&cl, (uint32_t)c + 1))
		map->cpu[map->nr++] = c;
	cpulist__exit(&cl);
	*out = map;
	return 0;
}

int cpu_map__online(struct cpu_map **out)
{
	char *text;
	int ret = sysinfo__cpus_online(&text);

	if (ret)
		return ret == -ENODATA ? -EINVAL : ret;
	ret = cpu_map__parse(out, text);
	free(text);
	return ret;
}

int cpu_map__merge(struct cpu_map **out, const struct cpu_map *a, const struct cpu_map *b)
{
	int na = a ? a->nr : 0, nb = b ? b->nr : 0, i = 0, j = 0;
	struct cpu_map *m = malloc(sizeof(*m) + ((size_t)na + (size_t)nb) * sizeof(int));

	if (!m)
		return -ENOMEM;
	m->nr = 0;
	/* Both ascending: one merge pass; -1 ("any CPU") is no CPU here. */
	while (i < na || j < nb) {
		int x = j >= nb || (i < na && a->cpu[i] <= b->cpu[j]) ? a->cpu[i] : b->cpu[j];

		i += i < na && a->cpu[i] == x;
		j += j < nb && b->cpu[j] == x;
		if (x >= 0)
			m->cpu[m->nr++] = x;
	}
	*out = m;
	return 0;
}

bool cpu_map__has(const struct cpu_map *m, int cpu)
{
	for (int i = 0; i < m->nr; i++)
		if (m->cpu[i] == cpu)
			return true;
	return false;
}

int cpu_map__for_term(struct cpu_map **out, const char *list, const struct cpu_map *online,
		      const struct cpu_map *recorded, int *bad)
{
	struct cpu_map *m;
	int ret = cpu_map__parse(&m, list), n = 0;
	bool any = !recorded || (recorded->nr == 1 && recorded->cpu[0] == -1);

	if (ret)
		return ret;
	for (int i = 0; i < m->nr; i++) {
		if (!cpu_map__has(online, m->cpu[i])) {
			*bad = m->cpu[i];
			cpu_map__delete(m);
			return -ENODEV;
		}
		/* Newest perf intersects the term's CPUs with -C's. */
		if (any || cpu_map__has(recorded, m->cpu[i]))
			m->cpu[n++] = m->cpu[i];
	}
	m->nr = n;
	if (!n) {
		cpu_map__delete(m);
		return -ENOENT;
	}
	*out = m;
	return 0;
}

void cpu_map__delete(struct cpu_map *map)
{
	free(map);
}
