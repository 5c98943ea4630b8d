/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_TEST_SYSINFO_TREE_H
#define PREC_TEST_SYSINFO_TREE_H
/*
 * Shared by the cache and PMU tests (test_sysinfo_cache_pmu*.c,
 * test_sysinfo_pmu_parsers.c): fixture paths, reading a tree's caches and
 * PMUs, and scratch trees under mkdtemp written by path. Include after
 * <cmocka.h>.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


#include <prec/sysinfo.h>
#include "sysinfo/cache_pmu.h"
#include "sysinfo/fsread.h"
#include "sysinfo/sysinfo_int.h"
#include "tests/unit/fixture_path.h"

#define PERF_BIN "/usr/bin/perf"

/* ---- helpers ------------------------------------------------------------ */

/* snprintf that fails the test instead of truncating a path. */
__attribute__((format(printf, 3, 4))) static inline void fmt(char *dst, size_t size, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(dst, size, f, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < size);
}

static inline int open_root(const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

/* Reads caches and PMUs of the tree at root, as sysinfo__read would. */
static inline void read_tree(struct sysinfo *si, const char *root, uint32_t nr_cpus_avail)
{
	int fd = open_root(root);

	memset(si, 0, sizeof(*si));
	si->nr_cpus_avail = nr_cpus_avail;
	assert_int_equal(sysinfo__read_caches(si, fd), 0);
	assert_int_equal(sysinfo__read_pmus(si, fd), 0);
	close(fd);
}

static inline void mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	fmt(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	mkdir(buf, 0755);
}

/* Writes root/rel (creating parent directories) with the given content. */
static inline void put(const char *root, const char *rel, const char *content)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	fmt(path, sizeof(path), "%s/%s", root, rel);
	fmt(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	mkdir_p(dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static inline void put_dir(const char *root, const char *rel)
{
	char path[PATH_MAX];

	fmt(path, sizeof(path), "%s/%s", root, rel);
	mkdir_p(path);
}

static inline void put_fifo(const char *root, const char *rel)
{
	char path[PATH_MAX];

	fmt(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkfifo(path, 0644), 0);
}

static inline void drop(const char *root, const char *rel)
{
	char path[PATH_MAX];

	fmt(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(unlink(path), 0);
}

static inline int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static inline void rm_rf(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static inline void rm_at(const char *root, const char *rel)
{
	char path[PATH_MAX];

	fmt(path, sizeof(path), "%s/%s", root, rel);
	rm_rf(path);
}

static inline int scratch__setup(void **state)
{
	char *dir = strdup("/tmp/prec-cache-pmu.XXXXXX");

	if (!dir || !mkdtemp(dir)) {
		free(dir);
		return -1;
	}
	*state = dir;
	return 0;
}

static inline int scratch__teardown(void **state)
{
	rm_rf(*state);
	free(*state);
	return 0;
}

/* One complete cache index, as sysfs shows it. */
static inline void put_index(const char *root, unsigned int cpu, unsigned int idx, unsigned int level,
		      const char *type, const char *size, unsigned int sets, unsigned int ways,
		      const char *map)
{
	char rel[256], val[64];

#define F(name, ...)                                                                           \
	do {                                                                                   \
		fmt(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index%u/" name, cpu, \
		    idx);                                                                      \
		fmt(val, sizeof(val), __VA_ARGS__);                                            \
		put(root, rel, val);                                                           \
	} while (0)
	F("level", "%u\n", level);
	F("type", "%s\n", type);
	F("size", "%s\n", size);
	F("number_of_sets", "%u\n", sets);
	F("ways_of_associativity", "%u\n", ways);
	F("coherency_line_size", "64\n");
	F("shared_cpu_list", "%s\n", map);
#undef F
}

/* The vm machine's layout: two CPUs, L1d/L1i/L2 private, L3 shared. */
static inline void put_vm_caches(const char *root)
{
	put(root, "sys/devices/system/cpu/possible", "0-1\n");
	for (unsigned int c = 0; c < 2; c++) {
		char map[8];

		fmt(map, sizeof(map), "%u", c);
		put_index(root, c, 0, 1, "Data", "48K", 64, 12, map);
		put_index(root, c, 1, 1, "Instruction", "64K", 64, 16, map);
		put_index(root, c, 2, 2, "Unified", "2048K", 2048, 16, map);
		put_index(root, c, 3, 3, "Unified", "491520K", 491520, 16, "0-1");
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- expectations shared by the fixture and hostile-tree tests ---- */


struct exp_cache {
	uint32_t level, line, sets, ways;
	const char *type, *size, *map;
};

/* clang-format off */
#define D(l, sets, ways, size, map) { l, 64, sets, ways, "Data", size, map }
#define I(l, sets, ways, size, map) { l, 64, sets, ways, "Instruction", size, map }
#define U(l, sets, ways, size, map) { l, 64, sets, ways, "Unified", size, map }

static const struct exp_cache vm_caches[] = {
	D(1, 64, 12, "48K", "0"),            I(1, 64, 16, "64K", "0"),
	D(1, 64, 12, "48K", "1"),            I(1, 64, 16, "64K", "1"),
	U(2, 2048, 16, "2048K", "0"),        U(2, 2048, 16, "2048K", "1"),
	U(3, 491520, 16, "491520K", "0-1"),
};


static inline void check_caches(const struct sysinfo *si, const struct exp_cache *e, size_t n)
{
	assert_int_equal(si->nr_caches, n);
	for (size_t i = 0; i < n; i++) {
		const struct sysinfo_cache *c = &si->caches[i];

		if (c->level != e[i].level || c->line_size != e[i].line || c->sets != e[i].sets ||
		    c->ways != e[i].ways || strcmp(c->type, e[i].type) ||
		    strcmp(c->size, e[i].size) || strcmp(c->map, e[i].map))
			fail_msg(
				"cache %zu: got L%u %u/%u/%u %s %s [%s], want L%u %u/%u/%u %s %s [%s]",
				i, c->level, c->line_size, c->sets, c->ways, c->type, c->size,
				c->map, e[i].level, e[i].line, e[i].sets, e[i].ways, e[i].type,
				e[i].size, e[i].map);
	}
}

/* ---- fixtures: PMUs ----------------------------------------------------- */


/* The entries of root/rel in readdir order, "." and ".." left out; NULL-terminated. */
static inline char **readdir_names(const char *root, const char *rel, size_t *n)
{
	char path[PATH_MAX];
	char **names = NULL;
	struct dirent *de;
	DIR *d;

	*n = 0;
	fmt(path, sizeof(path), "%s/%s", root, rel);
	d = opendir(path);
	if (!d)
		return calloc(1, sizeof(char *));
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		names = realloc(names, (*n + 2) * sizeof(*names));
		assert_non_null(names);
		names[(*n)++] = strdup(de->d_name);
		names[*n] = NULL;
	}
	closedir(d);
	return names ? names : calloc(1, sizeof(char *));
}

static inline void free_names(char **names)
{
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

static inline const char *cap_of(const struct sysinfo_pmu *p, const char *name)
{
	for (uint32_t i = 0; i < p->nr_caps; i++)
		if (!strcmp(p->caps[i].name, name))
			return p->caps[i].value;
	return NULL;
}

/* PMUs: the expected set, in the tree's readdir order; caps in caps/'s readdir order. */

#endif
