// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU_TOPOLOGY, NUMA_TOPOLOGY and MEM_TOPOLOGY readers: every field of every
 * fixture machine (the expectations are what perf 6.1 printed with /sys
 * bind-mounted from the fixture), hostile trees built under mkdtemp (perf's
 * way of leaving a feature out or partial, never a crash), the pure parsers,
 * and the live system, where the libnuma road must give what sysfs gives.
 */
#define _GNU_SOURCE
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

#include <cmocka.h>

#include <prec/sysinfo.h>
#include "sysinfo/fsread.h"
#include "sysinfo/sysinfo_int.h"
#include "sysinfo/topology.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_LISTS 16
#define MAX_CPUS 16
#define MAX_NODES 4

/* ---- helpers ---------------------------------------------------------------- */

/* Fills path with $PREC_FIXTURES/sysinfo/name, or fails when unset. */
static void fixture_path(char *path, size_t size, const char *name)
{
	const char *base = getenv("PREC_FIXTURES");

	if (!base || !*base) {
		/* A test that quietly skips cannot fail: ctest always sets it. */
		fail_msg("PREC_FIXTURES is unset (run the tests through ctest)");
	}
	snprintf(path, size, "%s/sysinfo/%s", base, name);
}

/* What sysinfo__read will do once wired: uts and cpu first, then our three parts. */
static void read_root(const char *root, struct sysinfo *si)
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

static void release(struct sysinfo *si)
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

static void check_strs(char **got, uint32_t nr, const char *const *want)
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
static void check_bitmap(const struct sysinfo_mem_node *n, uint64_t nr_bits, const char *list)
{
	char *s;

	assert_true(n->nr_bits == nr_bits);
	assert_non_null(n->bits);
	assert_int_equal(bitmap__cpulist_str(n->bits, n->nr_bits, &s), 0);
	assert_string_equal(s, list);
	free(s);
}

/* ---- fixtures ----------------------------------------------------------------- */

struct numa_expect {
	uint32_t node;
	uint64_t total, free;
	const char *cpus;
};

struct mem_expect {
	uint64_t node, nr_bits;
	const char *list;
};

struct topo_expect {
	const char *fixture;
	const char *package[MAX_LISTS], *die[MAX_LISTS], *core[MAX_LISTS];
	uint32_t nr_cpu;
	int32_t core_id[MAX_CPUS], socket_id[MAX_CPUS], die_id[MAX_CPUS];
	uint32_t nr_numa;
	struct numa_expect numa[MAX_NODES];
	uint64_t block_size;
	uint32_t nr_mem;
	struct mem_expect mem[MAX_NODES];
};

static void check_fixture(const struct topo_expect *e)
{
	struct sysinfo si;
	char root[PATH_MAX];

	fixture_path(root, sizeof(root), e->fixture);
	read_root(root, &si);

	assert_int_equal(si.topo.nr_cpu, e->nr_cpu);
	assert_int_equal(si.topo.nr_cpu, e->nr_cpu ? si.nr_cpus_avail : 0);
	check_strs(si.topo.package_cpus, si.topo.nr_package, e->package);
	check_strs(si.topo.die_cpus, si.topo.nr_die, e->die);
	check_strs(si.topo.core_cpus, si.topo.nr_core, e->core);
	for (uint32_t c = 0; c < e->nr_cpu; c++) {
		assert_int_equal(si.topo.cpu[c].core_id, e->core_id[c]);
		assert_int_equal(si.topo.cpu[c].socket_id, e->socket_id[c]);
		assert_int_equal(si.topo.cpu[c].die_id, e->die_id[c]);
	}

	assert_int_equal(si.nr_numa, e->nr_numa);
	for (uint32_t i = 0; i < e->nr_numa; i++) {
		assert_int_equal(si.numa[i].node, e->numa[i].node);
		assert_true(si.numa[i].mem_total_kb == e->numa[i].total);
		assert_true(si.numa[i].mem_free_kb == e->numa[i].free);
		assert_non_null(si.numa[i].cpus);
		assert_string_equal(si.numa[i].cpus, e->numa[i].cpus);
	}

	assert_true(si.mem.block_size == e->block_size);
	assert_int_equal(si.mem.nr_nodes, e->nr_mem);
	for (uint32_t i = 0; i < e->nr_mem; i++) {
		assert_true(si.mem.nodes[i].node == e->mem[i].node);
		check_bitmap(&si.mem.nodes[i], e->mem[i].nr_bits, e->mem[i].list);
	}
	release(&si);
}

static void test_fixture_vm(void **state)
{
	/* perf 6.1 on the VM itself: the lines quoted in the issue. */
	static const struct topo_expect e = {
		.fixture = "vm",
		.package = { "0-1" },
		.die = { "0-1" },
		.core = { "0", "1" },
		.nr_cpu = 2,
		.core_id = { 0, 1 },
		.socket_id = { 0, 0 },
		.die_id = { 0, 0 },
		.nr_numa = 1,
		.numa = { { 0, 4417740, 3931616, "0-1" } },
		.block_size = 0x8000000,
		.nr_mem = 1,
		.mem = { { 0, 200, "0-23,32-199" } },
	};
	check_fixture(&e);
}

static void test_fixture_arm64(void **state)
{
	/* No die_cpus_list on arm64 (and perf would not look): no die lists, die ids -1. */
	static const struct topo_expect e = {
		.fixture = "arm64",
		.package = { "0-7" },
		.core = { "0", "1", "2", "3", "4", "5", "6", "7" },
		.nr_cpu = 8,
		.core_id = { 0, 1, 2, 3, 0, 1, 0, 1 },
		.socket_id = { 0, 0, 0, 0, 0, 0, 0, 0 },
		.die_id = { -1, -1, -1, -1, -1, -1, -1, -1 },
		.nr_numa = 1,
		.numa = { { 0, 7924708, 6811236, "0-7" } },
		.block_size = 0x8000000,
		.nr_mem = 1,
		.mem = { { 0, 64, "0-29,32-63" } },
	};
	check_fixture(&e);
}

static void test_fixture_numa2s(void **state)
{
	/*
	 * CPUs 6 and 7 are offline: no lists from them, the siblings' lists
	 * leave them out, and their ids are -1 (perf prints "Core ID -1").
	 */
	static const struct topo_expect e = {
		.fixture = "numa2s",
		.package = { "0-3,8-11", "4-5,12-15" },
		.die = { "0-3,8-11", "4-5,12-15" },
		.core = { "0,8", "1,9", "2,10", "3,11", "4,12", "5,13", "14", "15" },
		.nr_cpu = 16,
		.core_id = { 0, 1, 2, 3, 0, 1, -1, -1, 0, 1, 2, 3, 0, 1, 2, 3 },
		.socket_id = { 0, 0, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, 1, 1, 1 },
		.die_id = { 0, 0, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0 },
		.nr_numa = 2,
		.numa = { { 0, 65837124, 61523408, "0-3,8-11" },
			  { 1, 66039420, 63970316, "4-5,12-15" } },
		.block_size = 0x80000000,
		.nr_mem = 2,
		.mem = { { 0, 33, "0-32" }, { 1, 65, "33-64" } },
	};
	check_fixture(&e);
}

static void test_fixture_multidie(void **state)
{
	/* Two dies in one package, core ids repeating per die, a CPU-less node2 (""). */
	static const struct topo_expect e = {
		.fixture = "multidie",
		.package = { "0-7" },
		.die = { "0-3", "4-7" },
		.core = { "0-1", "2-3", "4-5", "6-7" },
		.nr_cpu = 8,
		.core_id = { 0, 0, 1, 1, 0, 0, 1, 1 },
		.socket_id = { 0, 0, 0, 0, 0, 0, 0, 0 },
		.die_id = { 0, 0, 0, 0, 1, 1, 1, 1 },
		.nr_numa = 3,
		.numa = { { 0, 3984460, 3512884, "0-3" },
			  { 1, 4127136, 4019552, "4-7" },
			  { 2, 2064384, 2060008, "" } },
		.block_size = 0x8000000,
		.nr_mem = 3,
		.mem = { { 0, 48, "0-15,32-47" }, { 1, 80, "48-79" }, { 2, 96, "80-95" } },
	};
	check_fixture(&e);
}

static void test_fixture_hybrid(void **state)
{
	/* Alder Lake: SMT pairs for the P-cores, one list per E-core. */
	static const struct topo_expect e = {
		.fixture = "hybrid",
		.package = { "0-15" },
		.die = { "0-15" },
		.core = { "0-1", "2-3", "4-5", "6-7", "8", "9", "10", "11", "12", "13", "14",
			  "15" },
		.nr_cpu = 16,
		.core_id = { 0, 0, 4, 4, 8, 8, 12, 12, 16, 17, 18, 19, 20, 21, 22, 23 },
		.socket_id = { 0 },
		.die_id = { 0 },
		.nr_numa = 1,
		.numa = { { 0, 15692340, 9876512, "0-15" } },
		.block_size = 0x8000000,
		.nr_mem = 1,
		.mem = { { 0, 136, "0-23,32-135" } },
	};
	check_fixture(&e);
}

static void test_fixture_broken(void **state)
{
	/* No usable present list, no node/ or memory/ directories: all three parts empty. */
	static const char *const names[] = { "broken", "broken-arm64" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct topo_expect e = { .fixture = names[i] };

		check_fixture(&e);
	}
}

/* ---- scratch trees -------------------------------------------------------- */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

struct scratch {
	char root[64];
	int fd;
};

static int scratch__setup(void **state)
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

static int scratch__teardown(void **state)
{
	struct scratch *s = *state;

	if (s->fd >= 0)
		close(s->fd);
	nftw(s->root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(s);
	return 0;
}

/* mkdir -p of every parent of rel under the scratch root. */
static void scratch__parents(struct scratch *s, const char *rel)
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

static void scratch__write(struct scratch *s, const char *rel, const void *data, size_t len)
{
	int fd;

	scratch__parents(s, rel);
	fd = openat(s->fd, rel, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

#define PUT(s, rel, lit) scratch__write(s, rel, lit, sizeof(lit) - 1)

static void putf(struct scratch *s, const char *text, const char *fmt, ...)
{
	char rel[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	scratch__write(s, rel, text, strlen(text));
}

static void mkdirf(struct scratch *s, const char *fmt, ...)
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

static void linkf(struct scratch *s, const char *target, const char *fmt, ...)
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
static void put_cpu(struct scratch *s, int cpu, const char *package, const char *die,
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

static void topo_read(struct scratch *s, struct sysinfo *si, uint32_t avail, const char *arch)
{
	memset(si, 0, sizeof(*si));
	si->nr_cpus_avail = avail;
	snprintf(si->arch, sizeof(si->arch), "%s", arch);
	assert_int_equal(sysinfo__read_topology(si, s->fd), 0);
}

/* ---- CPU_TOPOLOGY on hostile trees ----------------------------------------- */

static void test_topo_lists(void **state)
{
	static const char *const pkg[] = { "0-3", NULL }, *die[] = { "0-1", "2-3", NULL },
				 *core[] = { "0,2", "1,3", "", NULL };
	struct scratch *s = *state;
	struct sysinfo si;

	PUT(s, "sys/devices/system/cpu/online", "0-4\n");
	/* First-seen order and de-duplication; a "\n" list is an empty string, kept. */
	put_cpu(s, 0, "0-3\n", "0-1\n", "0,2\n", 0, 0, 0);
	put_cpu(s, 1, "0-3\n", "0-1\n", "1,3\n", 1, 0, 0);
	put_cpu(s, 2, "0-3\n", "2-3\n", "0,2\n", 0, 0, 1);
	/* Only the first line counts, and a NUL ends it as it ends perf's C string. */
	put_cpu(s, 3, "0-3\nsecond line\n", "2-3", "1,3", 1, 0, 1);
	scratch__write(s, "sys/devices/system/cpu/cpu3/topology/core_cpus_list", "1,3\0junk\n", 9);
	/* cpu4 offers a package list, an empty die file (skipped) and "\n" for its core. */
	put_cpu(s, 4, "0-3", "", "\n", 7, 0, 1);
	topo_read(s, &si, 5, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 5);
	check_strs(si.topo.package_cpus, si.topo.nr_package, pkg);
	check_strs(si.topo.die_cpus, si.topo.nr_die, die);
	check_strs(si.topo.core_cpus, si.topo.nr_core, core);
	assert_int_equal(si.topo.cpu[3].core_id, 1);
	assert_int_equal(si.topo.cpu[4].core_id, 7);
	assert_int_equal(si.topo.cpu[4].die_id, 1);
	sysinfo__free_topology(&si);

	/* The same tree seen as arm64, and as s390x: perf looks for dies on x86_64 and s390x only. */
	topo_read(s, &si, 5, "aarch64");
	assert_int_equal(si.topo.nr_die, 0);
	assert_null(si.topo.die_cpus);
	assert_int_equal(si.topo.cpu[2].die_id, 1); /* ids are read regardless */
	sysinfo__free_topology(&si);
	topo_read(s, &si, 5, "s390x");
	assert_int_equal(si.topo.nr_die, 2);
	sysinfo__free_topology(&si);
	topo_read(s, &si, 5, "");
	assert_int_equal(si.topo.nr_die, 0);
	assert_int_equal(si.topo.nr_cpu, 5);
	sysinfo__free_topology(&si);

	/* cpu0 decides: without its die list there are no die lists at all. */
	assert_int_equal(unlinkat(s->fd, "sys/devices/system/cpu/cpu0/topology/die_cpus_list", 0),
			 0);
	topo_read(s, &si, 5, "x86_64");
	assert_int_equal(si.topo.nr_die, 0);
	assert_int_equal(si.topo.nr_package, 1);
	sysinfo__free_topology(&si);
}

static void test_topo_old_names(void **state)
{
	static const char *const pkg[] = { "0-1", NULL }, *core[] = { "0", "1", NULL };
	struct scratch *s = *state;
	struct sysinfo si;

	/* A pre-5.x kernel: core_siblings_list / thread_siblings_list, no die files. */
	PUT(s, "sys/devices/system/cpu/online", "0-1\n");
	for (int c = 0; c < 2; c++) {
		putf(s, "0-1\n", TOPO, c, "core_siblings_list");
		putf(s, c ? "1\n" : "0\n", TOPO, c, "thread_siblings_list");
		putf(s, c ? "1\n" : "0\n", TOPO, c, "core_id");
		putf(s, "0\n", TOPO, c, "physical_package_id");
	}
	topo_read(s, &si, 2, "x86_64");
	check_strs(si.topo.package_cpus, si.topo.nr_package, pkg);
	check_strs(si.topo.core_cpus, si.topo.nr_core, core);
	assert_int_equal(si.topo.nr_die, 0);
	assert_int_equal(si.topo.cpu[1].core_id, 1);
	assert_int_equal(si.topo.cpu[1].socket_id, 0);
	assert_int_equal(si.topo.cpu[1].die_id, -1);
	sysinfo__free_topology(&si);

	/* A new name that exists but is empty is not replaced by the old one. */
	PUT(s, "sys/devices/system/cpu/cpu1/topology/core_siblings_list", "0-1,9\n");
	PUT(s, "sys/devices/system/cpu/cpu1/topology/package_cpus_list", "");
	topo_read(s, &si, 2, "x86_64");
	assert_int_equal(si.topo.nr_package, 1);
	sysinfo__free_topology(&si);
}

static void test_topo_dropped(void **state)
{
	struct scratch *s = *state;
	struct sysinfo si;

	/* Nothing known about CPUs. */
	topo_read(s, &si, 0, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 0);
	/* No online/present list, no topology. */
	topo_read(s, &si, 2, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 0);
	assert_null(si.topo.cpu);

	/* An online CPU without a single list makes perf drop the whole feature. */
	PUT(s, "sys/devices/system/cpu/online", "0-1\n");
	put_cpu(s, 0, "0-1\n", NULL, "0\n", 0, 0, 0);
	mkdirf(s, "sys/devices/system/cpu/cpu1/topology");
	PUT(s, "sys/devices/system/cpu/cpu1/topology/core_id", "1\n");
	topo_read(s, &si, 2, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 0);
	assert_null(si.topo.package_cpus);
	assert_null(si.topo.core_cpus);
	assert_int_equal(si.topo.nr_package, 0);

	/* Offline, it no longer counts; its id still comes from its file. */
	PUT(s, "sys/devices/system/cpu/online", "0\n");
	topo_read(s, &si, 2, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 2);
	assert_int_equal(si.topo.cpu[1].core_id, 1);
	assert_int_equal(si.topo.cpu[1].socket_id, -1);
	sysinfo__free_topology(&si);

	/* An unreadable online list: the present list stands in. */
	PUT(s, "sys/devices/system/cpu/online", "garbage\n");
	PUT(s, "sys/devices/system/cpu/present", "0\n");
	topo_read(s, &si, 2, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 2);
	assert_int_equal(si.topo.nr_package, 1);
	sysinfo__free_topology(&si);

	/* Only empty list files: nothing read, feature dropped. */
	PUT(s, "sys/devices/system/cpu/online", "0\n");
	PUT(s, "sys/devices/system/cpu/cpu0/topology/package_cpus_list", "");
	PUT(s, "sys/devices/system/cpu/cpu0/topology/core_cpus_list", "");
	topo_read(s, &si, 1, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 0);
}

static void test_topo_ids(void **state)
{
	/* perf's sysfs__read_int: atoi of what is there; -1 only when nothing can be read. */
	static const struct {
		const char *text;
		int32_t id;
	} cases[] = {
		{ "3\n", 3 },
		{ "abc\n", 0 },
		{ "-7\n", -7 },
		{ " 12x\n", 12 },
		{ "+5", 5 },
		{ "4294967296\n", 0 },
		{ "2147483648\n", INT32_MIN },
		{ "99999999999999999999999\n", -1 },
		{ "-99999999999999999999999\n", 0 },
		{ "\n", 0 },
	};
	struct scratch *s = *state;
	uint32_t n = ARRAY_SIZE(cases) + 2;
	struct sysinfo si;
	char list[16];

	snprintf(list, sizeof(list), "0-%u\n", n - 1);
	putf(s, list, "sys/devices/system/cpu/online");
	for (uint32_t c = 0; c < n; c++)
		putf(s, "0\n", TOPO, c, "core_cpus_list");
	for (uint32_t c = 0; c < ARRAY_SIZE(cases); c++) {
		putf(s, cases[c].text, TOPO, c, "core_id");
		putf(s, cases[c].text, TOPO, c, "physical_package_id");
		putf(s, cases[c].text, TOPO, c, "die_id");
	}
	/* An empty file and a directory read as nothing. */
	putf(s, "", TOPO, n - 2, "core_id");
	mkdirf(s, TOPO, n - 1, "core_id");
	topo_read(s, &si, n, "x86_64");
	assert_int_equal(si.topo.nr_cpu, n);
	for (uint32_t c = 0; c < ARRAY_SIZE(cases); c++) {
		assert_int_equal(si.topo.cpu[c].core_id, cases[c].id);
		assert_int_equal(si.topo.cpu[c].socket_id, cases[c].id);
		assert_int_equal(si.topo.cpu[c].die_id, cases[c].id);
	}
	assert_int_equal(si.topo.cpu[n - 2].core_id, -1);
	assert_int_equal(si.topo.cpu[n - 1].core_id, -1);
	assert_int_equal(si.topo.cpu[n - 1].socket_id, -1);
	sysinfo__free_topology(&si);
}

static void test_topo_atoi(void **state)
{
	char big[100];

	assert_int_equal(topo__atoi("42", 2), 42);
	assert_int_equal(topo__atoi("42", 1), 4);
	assert_int_equal(topo__atoi("", 0), 0);
	assert_int_equal(topo__atoi("\t\v\f\r 8", 6), 8);
	assert_int_equal(topo__atoi("- 8", 3), 0);
	assert_int_equal(topo__atoi("--8", 3), 0);
	assert_int_equal(topo__atoi("9223372036854775807", 19), -1);
	assert_int_equal(topo__atoi("-9223372036854775808", 20), 0);
	assert_int_equal(topo__atoi("-2147483649", 11), INT32_MAX);
	/* Only 64 bytes are looked at: a 66-digit number is cut to its first 64. */
	memset(big, '0', sizeof(big));
	big[63] = '5';
	big[64] = '7';
	assert_int_equal(topo__atoi(big, 66), 5);
}

/* block_size_bytes through perf's strtoull(line, NULL, 16) of 64 bytes. */
static void test_block_size_parse(void **state)
{
	static const char nul_inside[] = { '1', '0', '\0', '9', '9' };
	char big[100];
	uint64_t v = 7;

	(void)state;
	assert_int_equal(block_size__parse("", 0, &v), -ENODATA);
	assert_true(v == 7);
	assert_int_equal(block_size__parse("8000000\n", 8, &v), 0);
	assert_true(v == 0x8000000);
	assert_int_equal(block_size__parse(" 0x80000000", 11, &v), 0);
	assert_true(v == 0x80000000);
	assert_int_equal(block_size__parse("0X1f", 4, &v), 0);
	assert_true(v == 0x1f);
	/* "0x" without a hex digit after it: the 0 alone. */
	assert_int_equal(block_size__parse("0xg", 3, &v), 0);
	assert_true(v == 0);
	assert_int_equal(block_size__parse("lots\n", 5, &v), 0);
	assert_true(v == 0);
	assert_int_equal(block_size__parse("\n", 1, &v), 0);
	assert_true(v == 0);
	assert_int_equal(block_size__parse("-1", 2, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(block_size__parse("+10", 3, &v), 0);
	assert_true(v == 16);
	assert_int_equal(block_size__parse("1ffffffffffffffff", 17, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(block_size__parse(nul_inside, sizeof(nul_inside), &v), 0);
	assert_true(v == 16);
	/* Only 64 bytes are read. */
	memset(big, '0', sizeof(big));
	big[63] = '1';
	big[64] = 'f';
	assert_int_equal(block_size__parse(big, sizeof(big), &v), 0);
	assert_true(v == 1);
}

static void test_topo_many_cpus(void **state)
{
	struct scratch *s = *state;
	struct sysinfo si;

	/* A 4096-CPU present list with four topology directories, the rest offline. */
	PUT(s, "sys/devices/system/cpu/present", "0-4095\n");
	PUT(s, "sys/devices/system/cpu/online", "0-3\n");
	for (int c = 0; c < 4; c++)
		put_cpu(s, c, "0-3\n", "0-3\n", c < 2 ? "0-1\n" : "2-3\n", c / 2, 0, 0);
	topo_read(s, &si, 4096, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 4096);
	assert_int_equal(si.topo.nr_package, 1);
	assert_int_equal(si.topo.nr_die, 1);
	assert_int_equal(si.topo.nr_core, 2);
	assert_int_equal(si.topo.cpu[3].core_id, 1);
	for (int c = 4; c < 4096; c++) {
		assert_int_equal(si.topo.cpu[c].core_id, -1);
		assert_int_equal(si.topo.cpu[c].socket_id, -1);
		assert_int_equal(si.topo.cpu[c].die_id, -1);
	}
	sysinfo__free_topology(&si);

	/* All 4096 online: CPU 4 has no lists, perf drops the feature. */
	PUT(s, "sys/devices/system/cpu/online", "0-4095\n");
	topo_read(s, &si, 4096, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 0);

	/* Online CPUs beyond nr_cpus_avail are never looked at. */
	topo_read(s, &si, 4, "x86_64");
	assert_int_equal(si.topo.nr_cpu, 4);
	sysinfo__free_topology(&si);
}

static void test_topo_distinct_many(void **state)
{
	struct scratch *s = *state;
	struct sysinfo si;
	char v[32];

	/* 300 CPUs with a list each: the de-duplication index grows, order is kept. */
	PUT(s, "sys/devices/system/cpu/online", "0-299\n");
	for (int c = 0; c < 300; c++) {
		snprintf(v, sizeof(v), "%d\n", c);
		putf(s, v, TOPO, c, "core_cpus_list");
		putf(s, c < 150 ? "0-149\n" : "150-299\n", TOPO, c, "package_cpus_list");
	}
	topo_read(s, &si, 300, "x86_64");
	assert_int_equal(si.topo.nr_core, 300);
	assert_int_equal(si.topo.nr_package, 2);
	assert_string_equal(si.topo.package_cpus[1], "150-299");
	for (int c = 0; c < 300; c++) {
		snprintf(v, sizeof(v), "%d", c);
		assert_string_equal(si.topo.core_cpus[c], v);
	}
	sysinfo__free_topology(&si);
}

/* ---- NUMA_TOPOLOGY ------------------------------------------------------------ */

#define NODE_MEMINFO(n, total, free)                                                    \
	"Node " #n " MemTotal:       " #total " kB\nNode " #n " MemFree:        " #free \
	" kB\nNode " #n " MemUsed:         1000 kB\nNode " #n " HugePages_Total:     0\n"

static void numa_read(struct scratch *s, struct sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	assert_int_equal(sysinfo__read_numa(si, s->fd, false), 0);
}

static void test_numa_nodes(void **state)
{
	struct scratch *s = *state;
	struct sysinfo si;

	PUT(s, "sys/devices/system/node/online", "0,2\n");
	PUT(s, "sys/devices/system/node/node0/meminfo", NODE_MEMINFO(0, 8000, 6000));
	PUT(s, "sys/devices/system/node/node0/cpulist", "0-3\n");
	/* A CPU-less node prints "\n": perf keeps the empty string. */
	PUT(s, "sys/devices/system/node/node2/meminfo", NODE_MEMINFO(2, 4000, 3999));
	PUT(s, "sys/devices/system/node/node2/cpulist", "\n");
	/* Not online: never read. */
	PUT(s, "sys/devices/system/node/node1/meminfo", "garbage: x\n");
	numa_read(s, &si);
	assert_int_equal(si.nr_numa, 2);
	assert_int_equal(si.numa[0].node, 0);
	assert_true(si.numa[0].mem_total_kb == 8000);
	assert_true(si.numa[0].mem_free_kb == 6000);
	assert_string_equal(si.numa[0].cpus, "0-3");
	assert_int_equal(si.numa[1].node, 2);
	assert_true(si.numa[1].mem_total_kb == 4000);
	assert_string_equal(si.numa[1].cpus, "");
	sysinfo__free_topology(&si);

	/* The cpulist string is kept as sysfs prints it (first line, no trimming). */
	PUT(s, "sys/devices/system/node/node0/cpulist", " 0-3 \nmore\n");
	numa_read(s, &si);
	assert_string_equal(si.numa[0].cpus, " 0-3 ");
	sysinfo__free_topology(&si);

	/* Any online node without its cpulist (or with an empty file) drops the feature. */
	PUT(s, "sys/devices/system/node/node2/cpulist", "");
	numa_read(s, &si);
	assert_int_equal(si.nr_numa, 0);
	assert_null(si.numa);
	assert_int_equal(unlinkat(s->fd, "sys/devices/system/node/node2/cpulist", 0), 0);
	numa_read(s, &si);
	assert_int_equal(si.nr_numa, 0);
	PUT(s, "sys/devices/system/node/node2/cpulist", "\n");

	/* ... and so does a missing or garbled meminfo. */
	PUT(s, "sys/devices/system/node/node2/meminfo", "Node 2 MemTotal: lots\n");
	numa_read(s, &si);
	assert_int_equal(si.nr_numa, 0);
	assert_int_equal(unlinkat(s->fd, "sys/devices/system/node/node2/meminfo", 0), 0);
	numa_read(s, &si);
	assert_int_equal(si.nr_numa, 0);

	/* An empty meminfo is fine: both values stay 0. */
	PUT(s, "sys/devices/system/node/node2/meminfo", "");
	numa_read(s, &si);
	assert_int_equal(si.nr_numa, 2);
	assert_true(si.numa[1].mem_total_kb == 0 && si.numa[1].mem_free_kb == 0);
	sysinfo__free_topology(&si);
}

static void test_numa_online(void **state)
{
	static const char *const bad[] = { "",	    "\n",     "abc\n",	      "0-\n",
					   "2-1\n", "0,,1\n", "99999999999\n" };
	struct scratch *s = *state;
	struct sysinfo si;

	/* No node/ at all. */
	numa_read(s, &si);
	assert_int_equal(si.nr_numa, 0);
	assert_null(si.numa);

	PUT(s, "sys/devices/system/node/node0/meminfo", NODE_MEMINFO(0, 8000, 6000));
	PUT(s, "sys/devices/system/node/node0/cpulist", "0\n");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		putf(s, bad[i], "sys/devices/system/node/online");
		numa_read(s, &si);
		assert_int_equal(si.nr_numa, 0);
	}
	/* Only the first line counts. */
	PUT(s, "sys/devices/system/node/online", "0\n1-7\n");
	numa_read(s, &si);
	assert_int_equal(si.nr_numa, 1);
	sysinfo__free_topology(&si);

	/* A huge online list with one real node: dropped at node 1, quickly. */
	PUT(s, "sys/devices/system/node/online", "0-1048575\n");
	numa_read(s, &si);
	assert_int_equal(si.nr_numa, 0);
}

static void test_node_meminfo_parse(void **state)
{
	/* T(): the text and its length, NULs inside included. */
#define T(lit) lit, sizeof(lit) - 1
	static const struct {
		const char *text;
		size_t len;
		int err;
		uint64_t total, free;
	} cases[] = {
		{ T("Node 0 MemTotal: 5 kB\nNode 0 MemFree: 3 kB\n"), 0, 5, 3 },
		/* Lines without ':' are skipped, whatever they hold. */
		{ T("junk\n\nNode 0 MemFree: 3 kB\nNode 0 MemTotal: 5 kB"), 0, 5, 3 },
		/* Once both are non-zero, the rest is never looked at. */
		{ T("Node 0 MemTotal: 5 kB\nNode 0 MemFree: 3 kB\nbad: line\n"), 0, 5, 3 },
		/* Before that, a line with ':' that does not scan refuses the node. */
		{ T("Node 0 MemTotal: 5 kB\nbad: line\nNode 0 MemFree: 3 kB\n"), -EINVAL, 0, 0 },
		{ T("MemTotal: 5 kB\n"), -EINVAL, 0, 0 },
		{ T("Node x MemTotal: 5 kB\n"), -EINVAL, 0, 0 },
		{ T("Node 0 MemTotal:\n"), -EINVAL, 0, 0 },
		{ T(":\n"), -EINVAL, 0, 0 },
		/* A zero MemFree keeps the scan going through every line. */
		{ T("Node 0 MemTotal: 5 kB\nNode 0 MemFree: 0 kB\nNode 0 HugePages_Total: 0\n"), 0,
		  5, 0 },
		{ T("Node 0 MemTotal: 5 kB\nNode 0 MemFree: 0 kB\nNode 0 oops:\n"), -EINVAL, 0, 0 },
		/* The unit is not read; keys are compared whole, colon included. */
		{ T("Node 0 MemTotal: 5 MB\nNode 0 MemFree: 3\n"), 0, 5, 3 },
		{ T("Node 0 MemTotalX: 5 kB\nNode 0 MemFree: 3 kB\n"), 0, 0, 3 },
		{ T("Node 0 MemTotal 5 kB\nNode 0 MemFree: 3 kB\n"), 0, 0, 3 },
		/* The last key wins; signs and overflow as strtoull. */
		{ T("Node 0 MemTotal: 5 kB\nNode 0 MemTotal: 6 kB\n"), 0, 6, 0 },
		{ T("Node -1 MemTotal: -5 kB\nNode 0 MemFree: +3 kB\n"), 0, UINT64_MAX - 4, 3 },
		{ T("Node 0 MemTotal: 99999999999999999999999 kB\n"), 0, UINT64_MAX, 0 },
		{ T("Node 0 MemTotal: -99999999999999999999999 kB\n"), 0, UINT64_MAX, 0 },
		{ T("Node 0 MemTotal: 18446744073709551615 kB\n"), 0, UINT64_MAX, 0 },
		/* The key is read 31 bytes at most; the rest must then be the number. */
		{ T("Node 0 MemTotalMemTotalMemTotalMemTotal: 5 kB\n"), -EINVAL, 0, 0 },
		{ T("Node 0 "
		    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		    "1: 5 kB\n"),
		  0, 0, 0 },
		/* A NUL ends the line as it ends perf's C string. */
		{ T("Node 0 MemTotal: 5\0 kB\nNode 0 MemFree: 3 kB\n"), 0, 5, 3 },
		{ T("Node 0 MemTotal: 5 kB\nNode 0\0 MemFree: 3 kB\n"), 0, 5, 0 },
	};

#undef T

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t total = 1, freekb = 1;
		int err;

		err = node_meminfo__parse(cases[i].text, cases[i].len, &total, &freekb);
		if (err != cases[i].err ||
		    (!err && (total != cases[i].total || freekb != cases[i].free)))
			fail_msg("case %zu: err %d total %" PRIu64 " free %" PRIu64, i, err, total,
				 freekb);
	}
}

static void test_cpulist_str(void **state)
{
	static const struct {
		uint64_t bits[3];
		uint64_t nr_bits;
		const char *want;
	} cases[] = {
		{ { 0 }, 0, "" },
		{ { 0 }, 64, "" },
		{ { 0x1 }, 1, "0" },
		{ { 0x3 }, 2, "0-1" },
		{ { 0x5 }, 3, "0,2" },
		{ { 0x0f0f }, 16, "0-3,8-11" },
		{ { 0xf030 }, 16, "4-5,12-15" },
		{ { 0xffffffffffffffffULL, 0x1 }, 65, "0-64" },
		{ { 0x8000000000000000ULL, 0x1 }, 65, "63-64" },
		{ { 0, 0, 0x8000000000000000ULL }, 192, "191" },
		/* Bits past nr_bits are not looked at. */
		{ { 0xff }, 4, "0-3" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *s;

		assert_int_equal(bitmap__cpulist_str(cases[i].bits, cases[i].nr_bits, &s), 0);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

/* ---- MEM_TOPOLOGY ---------------------------------------------------------------- */

static void mem_read(struct scratch *s, struct sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	assert_int_equal(sysinfo__read_mem_topology(si, s->fd), 0);
}

static void test_mem_nodes(void **state)
{
	struct scratch *s = *state;
	struct sysinfo si;

	/* No block size: no feature, whatever the nodes say. */
	linkf(s, "../../memory/memory3", "sys/devices/system/node/node0/memory3");
	mem_read(s, &si);
	assert_true(si.mem.block_size == 0);
	assert_null(si.mem.nodes);
	assert_false(si.mem.known);
	/* An empty block_size_bytes: perf's read() gets nothing, no feature. */
	PUT(s, "sys/devices/system/memory/block_size_bytes", "");
	mem_read(s, &si);
	assert_false(si.mem.known);

	PUT(s, "sys/devices/system/memory/block_size_bytes", "8000000\n");
	/* Dangling links count by name; other memory-ish names do not. */
	linkf(s, "../../memory/memory0", "sys/devices/system/node/node0/memory0");
	linkf(s, "../../memory/memory64", "sys/devices/system/node/node0/memory64");
	PUT(s, "sys/devices/system/node/node0/memory_side_cache", "");
	PUT(s, "sys/devices/system/node/node0/memory", "");
	PUT(s, "sys/devices/system/node/node0/memoryX", "");
	PUT(s, "sys/devices/system/node/node0/memory5x", "");
	PUT(s, "sys/devices/system/node/node0/meminfo", "");
	/* node10 sorts after node2; a node without blocks has a 1-bit empty map. */
	linkf(s, "../../memory/memory70", "sys/devices/system/node/node10/memory70");
	mkdirf(s, "sys/devices/system/node/node2");
	/* Names that are not nodeN are ignored. */
	PUT(s, "sys/devices/system/node/online", "0,2,10\n");
	PUT(s, "sys/devices/system/node/nodes", "");
	PUT(s, "sys/devices/system/node/node", "");
	PUT(s, "sys/devices/system/node/node1x", "");
	PUT(s, "sys/devices/system/node/node99999999999", "");
	mem_read(s, &si);
	assert_true(si.mem.known);
	assert_true(si.mem.block_size == 0x8000000);
	assert_int_equal(si.mem.nr_nodes, 3);
	assert_true(si.mem.nodes[0].node == 0);
	check_bitmap(&si.mem.nodes[0], 65, "0,3,64");
	assert_true(si.mem.nodes[1].node == 2);
	check_bitmap(&si.mem.nodes[1], 1, "");
	assert_true(si.mem.nodes[1].bits[0] == 0);
	assert_true(si.mem.nodes[2].node == 10);
	check_bitmap(&si.mem.nodes[2], 71, "70");
	sysinfo__free_topology(&si);

	/* "0x" is fine for a hex size; perf's strtoull reads garbage as 0 and
	 * still writes the feature. */
	PUT(s, "sys/devices/system/memory/block_size_bytes", "0x80000000\n");
	mem_read(s, &si);
	assert_true(si.mem.block_size == 0x80000000);
	sysinfo__free_topology(&si);
	PUT(s, "sys/devices/system/memory/block_size_bytes", "lots\n");
	mem_read(s, &si);
	assert_true(si.mem.known);
	assert_true(si.mem.block_size == 0);
	assert_int_equal(si.mem.nr_nodes, 3);
	sysinfo__free_topology(&si);
	PUT(s, "sys/devices/system/memory/block_size_bytes", "8000000\n");

	/* A nodeN that is not a directory: perf cannot open it and drops the feature. */
	PUT(s, "sys/devices/system/node/node7", "");
	mem_read(s, &si);
	assert_false(si.mem.known);
	assert_true(si.mem.block_size == 0);
	assert_null(si.mem.nodes);
	assert_int_equal(unlinkat(s->fd, "sys/devices/system/node/node7", 0), 0);

	/* A block index beyond belief drops it too (no 2^40-bit bitmaps). */
	linkf(s, "x", "sys/devices/system/node/node2/memory1099511627776");
	mem_read(s, &si);
	assert_true(si.mem.block_size == 0);
	assert_int_equal(si.mem.nr_nodes, 0);
	assert_int_equal(unlinkat(s->fd, "sys/devices/system/node/node2/memory1099511627776", 0),
			 0);
	linkf(s, "x", "sys/devices/system/node/node2/memory99999999999999999999999");
	mem_read(s, &si);
	assert_true(si.mem.block_size == 0);
	assert_int_equal(unlinkat(s->fd,
				  "sys/devices/system/node/node2/memory99999999999999999999999", 0),
			 0);

	/* The largest index we accept. */
	linkf(s, "x", "sys/devices/system/node/node2/memory16777215");
	mem_read(s, &si);
	assert_int_equal(si.mem.nr_nodes, 3);
	check_bitmap(&si.mem.nodes[1], MEMTOPO_BLOCK_LIMIT, "16777215");
	sysinfo__free_topology(&si);
}

static void test_mem_no_node_dir(void **state)
{
	struct scratch *s = *state;
	struct sysinfo si;

	PUT(s, "sys/devices/system/memory/block_size_bytes", "8000000\n");
	mem_read(s, &si);
	assert_false(si.mem.known);
	assert_true(si.mem.block_size == 0);
	/* node/ as a file. */
	PUT(s, "sys/devices/system/node", "");
	mem_read(s, &si);
	assert_false(si.mem.known);
	assert_true(si.mem.block_size == 0);
	assert_int_equal(unlinkat(s->fd, "sys/devices/system/node", 0), 0);
	/* An empty node/ directory: the feature with no nodes, as perf writes it. */
	mkdirf(s, "sys/devices/system/node");
	mem_read(s, &si);
	assert_true(si.mem.known);
	assert_true(si.mem.block_size == 0x8000000);
	assert_int_equal(si.mem.nr_nodes, 0);
	assert_null(si.mem.nodes);
	sysinfo__free_topology(&si);
}

static void test_mem_too_many_nodes(void **state)
{
	struct scratch *s = *state;
	struct sysinfo si;

	PUT(s, "sys/devices/system/memory/block_size_bytes", "8000000\n");
	for (int n = 0; n < MEMTOPO_MAX_NODES; n++)
		mkdirf(s, "sys/devices/system/node/node%d", n);
	mem_read(s, &si);
	assert_int_equal(si.mem.nr_nodes, MEMTOPO_MAX_NODES);
	for (uint32_t i = 0; i < si.mem.nr_nodes; i++)
		assert_true(si.mem.nodes[i].node == i);
	sysinfo__free_topology(&si);
	/* One more than perf 6.1's static table holds: it writes no MEM_TOPOLOGY. */
	mkdirf(s, "sys/devices/system/node/node%d", MEMTOPO_MAX_NODES);
	mem_read(s, &si);
	assert_false(si.mem.known);
	assert_true(si.mem.block_size == 0);
	assert_int_equal(si.mem.nr_nodes, 0);
}

/* ---- live system --------------------------------------------------------------- */

static void test_live_numa(void **state)
{
	struct sysinfo_numa_node *lib = NULL, *fs = NULL;
	uint32_t nr_lib = 0, nr_fs = 0;
	struct sysinfo si;
	int rootfd, err;

	rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(rootfd >= 0);
	err = numa__read_libnuma(&lib, &nr_lib);
	if (err == -ENOENT) {
		close(rootfd);
		print_message("libnuma unavailable here; skipping the libnuma comparison\n");
		skip();
	}
	assert_int_equal(err, 0);
	assert_int_equal(numa__read_sysfs(rootfd, &fs, &nr_fs), 0);
	assert_true(nr_fs >= 1);
	assert_int_equal(nr_lib, nr_fs);
	for (uint32_t i = 0; i < nr_fs; i++) {
		uint64_t a = lib[i].mem_free_kb, b = fs[i].mem_free_kb;

		assert_int_equal(lib[i].node, fs[i].node);
		assert_true(lib[i].mem_total_kb == fs[i].mem_total_kb);
		assert_string_equal(lib[i].cpus, fs[i].cpus);
		/* MemFree moves between two reads; the unit and scale must not. */
		assert_true((a > b ? a - b : b - a) <= fs[i].mem_total_kb / 20 + 1024);
	}
	numa__free_nodes(lib, nr_lib);
	numa__free_nodes(fs, nr_fs);

	/* The entry point takes the libnuma road on the live root. */
	memset(&si, 0, sizeof(si));
	assert_int_equal(sysinfo__read_numa(&si, rootfd, true), 0);
	assert_int_equal(si.nr_numa, nr_fs);
	sysinfo__free_topology(&si);
	close(rootfd);
}

static void test_live_topology(void **state)
{
	struct sysinfo si;

	read_root("/", &si);
	assert_true(si.nr_cpus_avail >= 1);
	assert_int_equal(si.topo.nr_cpu, si.nr_cpus_avail);
	assert_true(si.topo.nr_package >= 1);
	assert_true(si.topo.nr_core >= 1);
	assert_true(si.topo.cpu[0].core_id >= 0);
	assert_true(si.topo.cpu[0].socket_id >= 0);
	assert_true(si.nr_numa >= 1);
	if (!access("/sys/devices/system/memory/block_size_bytes", F_OK)) {
		assert_true(si.mem.block_size > 0);
		assert_true(si.mem.nr_nodes >= 1);
	}
	release(&si);
	sysinfo__free_topology(NULL);
}

int main(void)
{
#define SCRATCH(t) cmocka_unit_test_setup_teardown(t, scratch__setup, scratch__teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_vm),
		cmocka_unit_test(test_fixture_arm64),
		cmocka_unit_test(test_fixture_numa2s),
		cmocka_unit_test(test_fixture_multidie),
		cmocka_unit_test(test_fixture_hybrid),
		cmocka_unit_test(test_fixture_broken),
		SCRATCH(test_topo_lists),
		SCRATCH(test_topo_old_names),
		SCRATCH(test_topo_dropped),
		SCRATCH(test_topo_ids),
		cmocka_unit_test(test_topo_atoi),
		cmocka_unit_test(test_block_size_parse),
		SCRATCH(test_topo_many_cpus),
		SCRATCH(test_topo_distinct_many),
		SCRATCH(test_numa_nodes),
		SCRATCH(test_numa_online),
		cmocka_unit_test(test_node_meminfo_parse),
		cmocka_unit_test(test_cpulist_str),
		SCRATCH(test_mem_nodes),
		SCRATCH(test_mem_no_node_dir),
		SCRATCH(test_mem_too_many_nodes),
		cmocka_unit_test(test_live_numa),
		cmocka_unit_test(test_live_topology),
	};
#undef SCRATCH

	return cmocka_run_group_tests(tests, NULL, NULL);
}
