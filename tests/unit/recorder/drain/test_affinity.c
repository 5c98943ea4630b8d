// SPDX-License-Identifier: GPL-2.0-only
/*
 * --affinity (recorder/drain/affinity.c): which CPUs a ring's mask holds, from the
 * NUMA facts of fixture machines we do not have (numa2s: two nodes, CPUs 6
 * and 7 offline; absent-node: no node/ directory), and the drain step that
 * applies it on this machine, one syscall per change.
 */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "recorder/drain/ring.h"
#include "recorder/options/options.h"
#include "prec/sysinfo.h"
#include "recorder/drain/affinity.h"
#include "recorder/drain/drain.h"
#include "tests/unit/fixture_path.h"

static void read_fixture(struct sysinfo *si, const char *name)
{
	char root[4096];

	fixture_path(root, sizeof(root), "sysinfo/%s", name);
	assert_int_equal(sysinfo__read(si, root), 0);
}

/* The CPUs of a key's mask, as a bit per CPU (the fixtures have 16). */
static uint64_t mask_bits(const struct affinity *a, int key, int *count)
{
	cpu_set_t *set = CPU_ALLOC(a->nr_cpus);
	size_t size = CPU_ALLOC_SIZE(a->nr_cpus);
	uint64_t bits = 0;

	assert_non_null(set);
	*count = affinity__mask(a, key, set, size);
	for (uint32_t c = 0; c < a->nr_cpus && c < 64; c++)
		if (CPU_ISSET_S(c, size, set))
			bits |= 1ull << c;
	CPU_FREE(set);
	return bits;
}

static void test_node_mode_two_nodes(void **state)
{
	struct sysinfo si;
	struct affinity a;
	int n;

	(void)state;
	read_fixture(&si, "numa2s");
	assert_int_equal(affinity__init(&a, RECORD_AFFINITY_NODE, &si), 0);
	assert_int_equal(a.nr_cpus, 16);
	/* node0: 0-3,8-11; node1: 4-5,12-15; 6 and 7 are offline (no node). */
	assert_int_equal(affinity__key(&a, 0), 0);
	assert_int_equal(affinity__key(&a, 9), 0);
	assert_int_equal(affinity__key(&a, 4), 1);
	assert_int_equal(affinity__key(&a, 15), 1);
	assert_int_equal(affinity__key(&a, 6), -1);
	assert_int_equal(affinity__key(&a, -1), -1); /* a per-thread ring */
	assert_int_equal(affinity__key(&a, 16), -1);
	assert_int_equal(mask_bits(&a, 0, &n), 0x0f0full);
	assert_int_equal(n, 8);
	assert_int_equal(mask_bits(&a, 1, &n), 0xf030ull);
	assert_int_equal(n, 6);
	assert_int_equal(mask_bits(&a, 2, &n), 0);
	assert_int_equal(n, 0);
	affinity__exit(&a);
	affinity__exit(&a); /* twice is harmless */
	sysinfo__exit(&si);
}

static void test_cpu_and_sys_modes(void **state)
{
	struct sysinfo si;
	struct affinity a;
	int n;

	(void)state;
	read_fixture(&si, "numa2s");
	assert_int_equal(affinity__init(&a, RECORD_AFFINITY_CPU, &si), 0);
	assert_int_equal(affinity__key(&a, 5), 5);
	assert_int_equal(affinity__key(&a, 12), 12);
	assert_int_equal(mask_bits(&a, 12, &n), 1ull << 12);
	assert_int_equal(n, 1);
	assert_int_equal(mask_bits(&a, 99, &n), 0);
	affinity__exit(&a);
	assert_int_equal(affinity__init(&a, RECORD_AFFINITY_SYS, &si), 0);
	assert_int_equal(affinity__key(&a, 5), -1);
	affinity__exit(&a);
	sysinfo__exit(&si);
}

/* Without NUMA facts every CPU is on node 0: node mode is a no-op move. */
static void test_no_numa_one_node(void **state)
{
	struct sysinfo si;
	struct affinity a;
	int n;

	(void)state;
	read_fixture(&si, "absent-node");
	assert_int_equal(si.nr_numa, 0);
	assert_int_equal(affinity__init(&a, RECORD_AFFINITY_NODE, &si), 0);
	assert_true(a.nr_cpus > 0);
	assert_int_equal(affinity__key(&a, 0), 0);
	mask_bits(&a, 0, &n);
	assert_int_equal((uint32_t)n, a.nr_cpus);
	affinity__exit(&a);
	sysinfo__exit(&si);
}

/* This machine: the step moves the thread onto the ring's CPU once, and
 * not again while the rings' key stays the same. */
static void test_before_ring_live(void **state)
{
	struct sysinfo_numa_node node = { .node = 0, .cpus = (char *)"0" };
	struct sysinfo si = { .nr_cpus_avail = 1, .numa = &node, .nr_numa = 1 };
	struct affinity a;
	struct drain_config d;
	struct ring r = { .cpu = 0 };
	cpu_set_t orig, now;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(orig), &orig), 0);
	memset(&d, 0, sizeof(d));
	assert_int_equal(affinity__attach(&a, &d, RECORD_AFFINITY_CPU, &si), 0);
	assert_ptr_equal(d.ring_arg, &a);
	d.before_ring(d.ring_arg, &r);
	d.before_ring(d.ring_arg, &r);
	assert_int_equal(a.moves, 1);
	assert_int_equal(a.failed, 0);
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	assert_int_equal(CPU_COUNT(&now), 1);
	assert_true(CPU_ISSET(0, &now));
	r.cpu = -1; /* a per-thread ring: no move */
	d.before_ring(d.ring_arg, &r);
	assert_int_equal(a.moves, 1);
	affinity__exit(&a);
	assert_int_equal(sched_setaffinity(0, sizeof(orig), &orig), 0);

	/* sys mode attaches nothing. */
	memset(&d, 0, sizeof(d));
	assert_int_equal(affinity__attach(&a, &d, RECORD_AFFINITY_SYS, &si), 0);
	assert_null(d.before_ring);
	affinity__exit(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_mode_two_nodes),
		cmocka_unit_test(test_cpu_and_sys_modes),
		cmocka_unit_test(test_no_numa_one_node),
		cmocka_unit_test(test_before_ring_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
