// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU_TOPOLOGY on hostile trees built under mkdtemp (perf's way of leaving a
 * feature out or partial, never a crash), and its pure parsers.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sysinfo_topo_scratch.h"

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

int main(void)
{
#define SCRATCH(t) cmocka_unit_test_setup_teardown(t, scratch__setup, scratch__teardown)
	const struct CMUnitTest tests[] = {
		SCRATCH(test_topo_lists),
		SCRATCH(test_topo_old_names),
		SCRATCH(test_topo_dropped),
		SCRATCH(test_topo_ids),
		cmocka_unit_test(test_topo_atoi),
		cmocka_unit_test(test_block_size_parse),
		SCRATCH(test_topo_many_cpus),
		SCRATCH(test_topo_distinct_many),
	};
#undef SCRATCH

	return cmocka_run_group_tests(tests, NULL, NULL);
}


