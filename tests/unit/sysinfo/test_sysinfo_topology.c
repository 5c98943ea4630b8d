// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU_TOPOLOGY, NUMA_TOPOLOGY and MEM_TOPOLOGY of every fixture machine (the
 * expectations are what perf 6.1 printed with /sys bind-mounted from the
 * fixture), and the live system, where the libnuma road must give what sysfs
 * gives. Hostile trees: test_sysinfo_topology_trees.c (CPU_TOPOLOGY) and
 * test_sysinfo_numa_mem.c (NUMA and MEM).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sysinfo_topo_scratch.h"

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

	fixture_path(root, sizeof(root), "sysinfo/%s", e->fixture);
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
		cmocka_unit_test(test_live_numa),
		cmocka_unit_test(test_live_topology),
	};
#undef SCRATCH

	return cmocka_run_group_tests(tests, NULL, NULL);
}


