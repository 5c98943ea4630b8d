// SPDX-License-Identifier: GPL-2.0-only
/*
 * CACHE as perf 6.1 builds it (build_caches/write_cache in util/header.c):
 * every CPU below cpu__max_cpu() (the highest *possible* CPU + 1), its
 * cache/index0..3 until the first missing one, duplicates dropped (all seven
 * fields equal), then sorted by level. perf sorts with glibc's qsort, which is
 * a merge sort and so stable; we sort stably on purpose, which keeps the
 * discovery order inside a level: L1d/L1i of cpu0, then of cpu1, and so on.
 * A CPU without cache/index0 (no cache directory, an offline CPU whose
 * directory the kernel removed) adds nothing; a machine where no CPU has one
 * still gets CACHE, with no entries. Only an index that exists but cannot be
 * read makes perf drop the feature.
 */
#define _GNU_SOURCE /* strndup */
#include "cache_pmu.h"
#include "fsread.h"

#include <prec/grow.h>
#include <prec/sysinfo.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sysfs_value__u32(const char *s, size_t len, uint32_t *val)
{
	return u32__parse(s, len, 10, val);
}

int sysfs_value__str(const char *s, size_t len, char **out)
{
	const char *nul = memchr(s, '\0', len);

	if (nul)
		len = (size_t)(nul - s);
	text__trim(&s, &len);
	*out = strndup(s, len);
	return *out ? 0 : -ENOMEM;
}

static void cache__clear(struct sysinfo_cache *c)
{
	free(c->type);
	free(c->size);
	free(c->map);
	memset(c, 0, sizeof(*c));
}

/* 0, -ENOENT/-EINVAL/... (unreadable or garbled: perf fails CACHE), or -ENOMEM. */
static int read_u32(int dirfd, const char *name, uint32_t *val)
{
	int err = fsread__u32(dirfd, name, val);

	return err == -ENOMEM ? err : err ? -EINVAL : 0;
}

static int read_str(int dirfd, const char *name, char **val)
{
	size_t len;
	char *buf;
	int err = fsread__file(dirfd, name, &buf, &len);

	if (err)
		return err == -ENOMEM ? err : -EINVAL;
	err = sysfs_value__str(buf, len, val);
	free(buf);
	return err;
}

/*
 * Reads cpu/cache/index<idx>. Returns 0 with *c filled, 1 when the index does
 * not exist (the end of this CPU's list), -EINVAL when it exists but a field
 * cannot be read, or -ENOMEM.
 */
static int cache__read_index(int rootfd, uint32_t cpu, uint32_t idx, struct sysinfo_cache *c)
{
	char path[80];
	struct stat st;
	int dirfd, err;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%u/cache/index%u", cpu, idx);
	/* perf's test is stat(): anything by that name counts as present. */
	if (fstatat(rootfd, path, &st, 0) < 0)
		return 1;
	dirfd = openat(rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -EINVAL;
	err = read_u32(dirfd, "level", &c->level);
	if (!err)
		err = read_u32(dirfd, "coherency_line_size", &c->line_size);
	if (!err)
		err = read_u32(dirfd, "number_of_sets", &c->sets);
	if (!err)
		err = read_u32(dirfd, "ways_of_associativity", &c->ways);
	if (!err)
		err = read_str(dirfd, "type", &c->type);
	if (!err)
		err = read_str(dirfd, "size", &c->size);
	if (!err)
		err = read_str(dirfd, "shared_cpu_list", &c->map);
	close(dirfd);
	if (err)
		cache__clear(c);
	return err;
}

static bool cache__equal(const struct sysinfo_cache *a, const struct sysinfo_cache *b)
{
	return a->level == b->level && a->line_size == b->line_size && a->sets == b->sets &&
	       a->ways == b->ways && !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

/*
 * The number of CPUs perf walks: highest possible CPU + 1, or perf's
 * default of 4096 (set_max_cpu_num) when cpu/possible cannot be read.
 */
static uint32_t cache__nr_cpus(int rootfd)
{
	struct cpulist cl;
	uint32_t nr;

	if (fsread__cpulist(rootfd, "sys/devices/system/cpu/possible", &cl))
		return SYSINFO_DEFAULT_MAX_CPUS;
	nr = cl.nr_bits;
	cpulist__exit(&cl);
	return nr;
}

struct cache_order {
	uint32_t level;
	uint32_t pos;
};

static int cache_order__cmp(const void *a, const void *b)
{
	const struct cache_order *x = a, *y = b;

	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Stable sort by level: qsort on (level, discovery position). */
static int caches__sort(struct sysinfo_cache *caches, uint32_t nr)
{
	struct cache_order *ord;
	struct sysinfo_cache *tmp;

	if (nr < 2)
		return 0;
	ord = malloc(nr * sizeof(*ord));
	tmp = malloc(nr * sizeof(*tmp));
	if (!ord || !tmp) {
		free(ord);
		free(tmp);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < nr; i++)
		ord[i] = (struct cache_order){ .level = caches[i].level, .pos = i };
	qsort(ord, nr, sizeof(*ord), cache_order__cmp);
	for (uint32_t i = 0; i < nr; i++)
		tmp[i] = caches[ord[i].pos];
	memcpy(caches, tmp, nr * sizeof(*tmp));
	free(ord);
	free(tmp);
	return 0;
}

static void caches__free(struct sysinfo_cache *caches, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		cache__clear(&caches[i]);
	free(caches);
}

int sysinfo__read_caches(struct sysinfo *si, int rootfd)
{
	struct sysinfo_cache *caches = NULL;
	uint32_t nr = 0, nr_cpus;
	size_t alloc = 0;
	int err = 0;

	si->caches = NULL;
	si->nr_caches = 0;
	si->caches_known = false;
	nr_cpus = cache__nr_cpus(rootfd);

	for (uint32_t cpu = 0; cpu < nr_cpus; cpu++) {
		for (uint32_t idx = 0; idx < SYSINFO_MAX_CACHE_IDX; idx++) {
			struct sysinfo_cache c;
			uint32_t i;

			err = cache__read_index(rootfd, cpu, idx, &c);
			if (err == 1)
				break;
			if (err)
				goto out;
			for (i = 0; i < nr; i++)
				if (cache__equal(&c, &caches[i]))
					break;
			if (i < nr) {
				cache__clear(&c);
				continue;
			}
			/* Distinct caches: at most one per CPU and index. */
			err = grow__array(&caches, &alloc, (size_t)nr + 1, sizeof(*caches), 16,
					  (size_t)nr_cpus * SYSINFO_MAX_CACHE_IDX);
			if (err) {
				cache__clear(&c);
				goto out;
			}
			caches[nr++] = c;
		}
	}
	err = caches__sort(caches, nr);
out:
	if (err) {
		/* An index perf cannot read makes it write no CACHE at all. */
		caches__free(caches, nr);
		return err == -ENOMEM ? err : 0;
	}
	/* No index anywhere is still a CACHE section: perf writes cnt 0. */
	si->caches = caches;
	si->nr_caches = nr;
	si->caches_known = true;
	return 0;
}

void sysinfo__free_caches(struct sysinfo *si)
{
	caches__free(si->caches, si->nr_caches);
	si->caches = NULL;
	si->nr_caches = 0;
	si->caches_known = false;
}
