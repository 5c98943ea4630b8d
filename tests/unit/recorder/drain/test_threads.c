// SPDX-License-Identifier: GPL-2.0-only
/*
 * --threads' SPEC (recorder/drain/threads.c), a pure function of a topology: the
 * stream masks of cpu, core, package, numa and user masks on machines we do
 * not have (a 2-socket SMT server, a machine with a CPU offline), and each
 * refusal with its errno.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prec/error.h"
#include "recorder/drain/threads.h"

/* 2 packages x 2 cores x 2 threads: siblings 0+4, 1+5 on package 0. */
static const char *const smp_cores[] = { "0,4", "1,5", "2,6", "3,7" };
static const char *const smp_packages[] = { "0-1,4-5", "2-3,6-7" };
static const char *const smp_nodes[] = { "0-1,4-5", "", "2-3,6-7" }; /* node 1: memory only */
static const struct threads_topo smp = {
	.cores = smp_cores,
	.nr_cores = 4,
	.packages = smp_packages,
	.nr_packages = 2,
	.nodes = smp_nodes,
	.nr_nodes = 3,
	.nr_cpus = 8,
};

/* 4 CPUs present, CPU 2 offline: sysfs lists only the online ones. */
static const char *const off_cores[] = { "0-1", "3" };
static const char *const off_nodes[] = { "0-1,3" };
static const struct threads_topo offline = {
	.cores = off_cores,
	.nr_cores = 2,
	.packages = off_nodes,
	.nr_packages = 1,
	.nodes = off_nodes,
	.nr_nodes = 1,
	.nr_cpus = 4,
};

/* cl as a plain list of CPUs, "0,4". */
static const char *list(const struct cpulist *cl, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = cpulist__next(cl, 0); c >= 0; c = cpulist__next(cl, (uint32_t)c + 1))
		n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", c);
	return buf;
}

/* Parses spec against topo and the recorded CPUs rec, expecting ret; on
 * success each stream's "maps/affinity" joined by spaces must be want. */
static void expect(const struct threads_topo *topo, const char *rec, const char *spec, int ret,
		   const char *want)
{
	struct threads_masks m;
	struct cpulist cpus;
	struct prec_err e = PREC_ERR_INIT;
	char got[512] = "", a[128], b[128];
	size_t n = 0;

	assert_int_equal(cpulist__parse(rec, strlen(rec), &cpus), 0);
	assert_int_equal(threads_masks__parse(spec, topo, &cpus, &m, &e), ret);
	if (ret) {
		/* One line that names the option and a fix, and nothing kept. */
		const char *err = prec_err__msg(&e);

		assert_int_equal(e.code, ret);
		assert_non_null(strstr(err, "--threads: "));
		assert_non_null(strchr(err, '('));
		assert_null(strchr(err, '\n'));
		prec_err__clear(&e);
		assert_int_equal(m.nr, 0);
		assert_null(m.m);
	} else {
		for (uint32_t i = 0; i < m.nr; i++)
			n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s/%s", i ? " " : "",
					      list(&m.m[i].maps, a, sizeof(a)),
					      list(&m.m[i].affinity, b, sizeof(b)));
		assert_string_equal(got, want);
	}
	threads_masks__exit(&m);
	cpulist__exit(&cpus);
}

static void test_per_cpu(void **state)
{
	(void)state;
	expect(&smp, "0-7", "cpu", 0, "0/0 1/1 2/2 3/3 4/4 5/5 6/6 7/7");
	expect(&smp, "0-7", "", 0, "0/0 1/1 2/2 3/3 4/4 5/5 6/6 7/7");
	expect(&smp, "0-7", NULL, 0, "0/0 1/1 2/2 3/3 4/4 5/5 6/6 7/7");
	/* -C 2,5: streams for those only. */
	expect(&smp, "2,5", "cpu", 0, "2/2 5/5");
	expect(&offline, "0-1,3", "cpu", 0, "0/0 1/1 3/3");
}

static void test_topology(void **state)
{
	(void)state;
	expect(&smp, "0-7", "core", 0, "0,4/0,4 1,5/1,5 2,6/2,6 3,7/3,7");
	expect(&smp, "0-7", "package", 0, "0,1,4,5/0,1,4,5 2,3,6,7/2,3,6,7");
	/* The memory-only node has no CPU: no stream. */
	expect(&smp, "0-7", "numa", 0, "0,1,4,5/0,1,4,5 2,3,6,7/2,3,6,7");
	/* -C 0,4: the other cores record nothing and get no stream. */
	expect(&smp, "0,4", "core", 0, "0,4/0,4");
	expect(&smp, "1,6", "package", 0, "1/1 6/6");
	expect(&offline, "0-1,3", "core", 0, "0,1/0,1 3/3");
	expect(&offline, "0-1,3", "numa", 0, "0,1,3/0,1,3");
}

static void test_user_masks(void **state)
{
	(void)state;
	expect(&smp, "0-7", "0-3/0:4-7/4", 0, "0,1,2,3/0 4,5,6,7/4");
	/* The drain thread may run apart from its rings. */
	expect(&smp, "0-7", "1/0", 0, "1/0");
	/* Cut down to the recorded CPUs: the offline CPU 2 drops out. */
	expect(&offline, "0-1,3", "0-3/0-3", 0, "0,1,3/0,1,3");
}

static void test_refused(void **state)
{
	(void)state;
	expect(&smp, "0-7", "foo", -EINVAL, NULL);
	expect(&smp, "0-7", "0/", -EINVAL, NULL);
	expect(&smp, "0-7", "/0", -EINVAL, NULL);
	expect(&smp, "0-7", "0/0:", -EINVAL, NULL);
	expect(&smp, "0-7", "a/b", -EINVAL, NULL);
	/* Two streams on one ring, or on one affinity CPU. */
	expect(&smp, "0-7", "0/0:0/1", -EINVAL, NULL);
	expect(&smp, "0-7", "0/1:1/1", -EINVAL, NULL);
	/* A CPU the machine does not have. */
	expect(&smp, "0-7", "0-9/0", -ENODEV, NULL);
	expect(&offline, "0-1,3", "4/4", -ENODEV, NULL);
	/* Only the offline CPU: nothing left to drain. */
	expect(&offline, "0-1,3", "2/2", -EINVAL, NULL);
	expect(&offline, "0-1,3", "0/2", -EINVAL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_cpu),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_user_masks),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
