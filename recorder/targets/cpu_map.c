// SPDX-License-Identifier: GPL-2.0-only
/* The CPUs events open on: a sorted array over base's CPU-list parser, and the online CPUs. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "targets/cpu_map.h"

#include "prec/cpulist.h"
#include "prec/number.h"

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
	char buf[4096];
	ssize_t n;
	int fd = open("/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
	return cpu_map__parse(out, buf);
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

void cpu_map__delete(struct cpu_map *map)
{
	free(map);
}
