// SPDX-License-Identifier: GPL-2.0-only
/*
 * NUMA_TOPOLOGY and MEM_TOPOLOGY on hostile trees built under mkdtemp, and
 * their pure parsers (node meminfo, cpulist formatting).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sysinfo_topo_scratch.h"

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

int main(void)
{
#define SCRATCH(t) cmocka_unit_test_setup_teardown(t, scratch__setup, scratch__teardown)
	const struct CMUnitTest tests[] = {
		SCRATCH(test_numa_nodes),
		SCRATCH(test_numa_online),
		cmocka_unit_test(test_node_meminfo_parse),
		cmocka_unit_test(test_cpulist_str),
		SCRATCH(test_mem_nodes),
		SCRATCH(test_mem_no_node_dir),
		SCRATCH(test_mem_too_many_nodes),
	};
#undef SCRATCH

	return cmocka_run_group_tests(tests, NULL, NULL);
}


