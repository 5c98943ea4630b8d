// SPDX-License-Identifier: GPL-2.0-only
/* CPU lists: the kernel's "0-3,8" syntax, and the online CPUs. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/cpu_map.h"

#define CPU_MAX 65536

static int parse_num(const char **p, int *out)
{
	long v = 0;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	while (**p >= '0' && **p <= '9') {
		v = v * 10 + (**p - '0');
		if (v >= CPU_MAX)
			return -ERANGE;
		(*p)++;
	}
	*out = (int)v;
	return 0;
}

int cpu_map__parse(struct cpu_map **out, const char *list)
{
	unsigned char *seen = NULL;
	struct cpu_map *map = NULL;
	const char *p = list;
	int nr = 0, ret = -EINVAL;

	seen = calloc(CPU_MAX, 1);
	if (!seen)
		return -ENOMEM;
	while (*p && *p != '\n') {
		int a, b;

		ret = parse_num(&p, &a);
		if (ret)
			goto out;
		b = a;
		if (*p == '-') {
			p++;
			ret = parse_num(&p, &b);
			if (ret)
				goto out;
			if (b < a) {
				ret = -EINVAL;
				goto out;
			}
		}
		for (int c = a; c <= b; c++) {
			if (!seen[c])
				nr++;
			seen[c] = 1;
		}
		if (*p == ',') {
			p++;
			if (*p == '\0' || *p == '\n') {
				ret = -EINVAL;
				goto out;
			}
		} else if (*p && *p != '\n') {
			ret = -EINVAL;
			goto out;
		}
	}
	if (nr == 0) {
		ret = -EINVAL;
		goto out;
	}
	map = malloc(sizeof(*map) + nr * sizeof(int));
	if (!map) {
		ret = -ENOMEM;
		goto out;
	}
	map->nr = 0;
	for (int c = 0; c < CPU_MAX; c++)
		if (seen[c])
			map->cpu[map->nr++] = c;
	*out = map;
	ret = 0;
out:
	free(seen);
	return ret;
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

void cpu_map__delete(struct cpu_map *map)
{
	free(map);
}
