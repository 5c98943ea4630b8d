/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_TEST_SYSINFO_TOPO_SCRATCH_H
#define PREC_TEST_SYSINFO_TOPO_SCRATCH_H
/*
 * Shared by the topology tests (test_sysinfo_topology*.c, test_sysinfo_numa_mem.c):
 * reading a fixture root, releasing and checking what was read, and scratch
 * trees under mkdtemp written through a root fd. Include after <cmocka.h>.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include <prec/sysinfo.h>
#include "sysinfo/fsread.h"
#include "sysinfo/sysinfo_int.h"
#include "sysinfo/topology.h"
#include "tests/unit/fixture_path.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_LISTS 16
#define MAX_CPUS 16
#define MAX_NODES 4
/* ---- helpers ---------------------------------------------------------------- */

/* What sysinfo__read will do once wired: uts and cpu first, then our three parts. */
static inline void read_root(const char *root, struct sysinfo *si)
{
	int fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	memset(si, 0, sizeof(*si));
	assert_int_equal(sysinfo__read_uts(si, fd, false), 0);
	assert_int_equal(sysinfo__read_cpu(si, fd), 0);
	assert_int_equal(sysinfo__read_topology(si, fd), 0);
	assert_int_equal(sysinfo__read_numa(si, fd, false), 0);
	assert_int_equal(sysinfo__read_mem_topology(si, fd), 0);
	close(fd);
}

static inline void release(struct sysinfo *si)
{
	sysinfo__free_topology(si);
	assert_null(si->topo.cpu);
	assert_null(si->topo.package_cpus);
	assert_int_equal(si->topo.nr_cpu, 0);
	assert_null(si->numa);
	assert_int_equal(si->nr_numa, 0);
	assert_null(si->mem.nodes);
	assert_int_equal(si->mem.nr_nodes, 0);
	assert_true(si->mem.block_size == 0);
	sysinfo__free_topology(si); /* twice is fine */
	sysinfo__exit(si);
}

static inline void check_strs(char **got, uint32_t nr, const char *const *want)
{
	uint32_t n = 0;

	while (n < MAX_LISTS && want[n])
		n++;
	assert_int_equal(nr, n);
	if (!n)
		assert_null(got);
	for (uint32_t i = 0; i < n; i++)
		assert_string_equal(got[i], want[i]);
}

/* A mem node's bitmap as a list string, so expectations read like perf's output. */
static inline void check_bitmap(const struct sysinfo_mem_node *n, uint64_t nr_bits, const char *list)
{
	char *s;

	assert_true(n->nr_bits == nr_bits);
	assert_non_null(n->bits);
	assert_int_equal(bitmap__cpulist_str(n->bits, n->nr_bits, &s), 0);
	assert_string_equal(s, list);
	free(s);
}

/* ---- scratch trees -------------------------------------------------------- */

static inline int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

struct scratch {
	char root[64];
	int fd;
};

static inline int scratch__setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));

	if (!s)
		return -1;
	strcpy(s->root, "/tmp/prec-test-topology-XXXXXX");
	if (!mkdtemp(s->root)) {
		free(s);
		return -1;
	}
	s->fd = open(s->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	*state = s;
	return s->fd < 0 ? -1 : 0;
}

static inline int scratch__teardown(void **state)
{
	struct scratch *s = *state;

	if (s->fd >= 0)
		close(s->fd);
	nftw(s->root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(s);
	return 0;
}

/* mkdir -p of every parent of rel under the scratch root. */
static inline void scratch__parents(struct scratch *s, const char *rel)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", rel);
	for (char *p = strchr(buf, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdirat(s->fd, buf, 0755) < 0)
			assert_int_equal(errno, EEXIST);
		*p = '/';
	}
}

static inline void scratch__write(struct scratch *s, const char *rel, const void *data, size_t len)
{
	int fd;

	scratch__parents(s, rel);
	fd = openat(s->fd, rel, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

#define PUT(s, rel, lit) scratch__write(s, rel, lit, sizeof(lit) - 1)

static inline void putf(struct scratch *s, const char *text, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	scratch__write(s, rel, text, strlen(text));
}

static inline void mkdirf(struct scratch *s, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	scratch__parents(s, rel);
	if (mkdirat(s->fd, rel, 0755) < 0)
		assert_int_equal(errno, EEXIST);
}

static inline void linkf(struct scratch *s, const char *target, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	scratch__parents(s, rel);
	assert_int_equal(symlinkat(target, s->fd, rel), 0);
}

#define TOPO "sys/devices/system/cpu/cpu%d/topology/%s"

/* One CPU with the modern file names. */
static inline void put_cpu(struct scratch *s, int cpu, const char *package, const char *die,
		    const char *core, int core_id, int socket_id, int die_id)
{
	char v[16];

	if (package)
		putf(s, package, TOPO, cpu, "package_cpus_list");
	if (die)
		putf(s, die, TOPO, cpu, "die_cpus_list");
	if (core)
		putf(s, core, TOPO, cpu, "core_cpus_list");
	snprintf(v, sizeof(v), "%d\n", core_id);
	putf(s, v, TOPO, cpu, "core_id");
	snprintf(v, sizeof(v), "%d\n", socket_id);
	putf(s, v, TOPO, cpu, "physical_package_id");
	snprintf(v, sizeof(v), "%d\n", die_id);
	putf(s, v, TOPO, cpu, "die_id");
}

static inline void topo_read(struct scratch *s, struct sysinfo *si, uint32_t avail, const char *arch)
{
	memset(si, 0, sizeof(*si));
	si->nr_cpus_avail = avail;
	snprintf(si->arch, sizeof(si->arch), "%s", arch);
	assert_int_equal(sysinfo__read_topology(si, s->fd), 0);
}

#endif
