// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -e view of a hybrid machine's core PMUs (prec/pmu.h): which PMUs are
 * hybrid as perf 6.1 decides it (a "cpu_*" name with a cpus file that starts
 * with a CPU number), their CPU lists, and their order, the devices
 * directory's (pmus__next_hybrid), against the hybrid fixtures and scratch
 * trees; and that the features' reader (sysinfo's PMU list) agrees with it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>

#include "prec/pmu.h"
#include "sysinfo_topo_scratch.h"

/* The cpu_* entries of root's devices directory, in readdir order. */
static int dir_order(const char *sysfs, char names[][256], int max)
{
	char path[PATH_MAX + 64];
	struct dirent *d;
	DIR *dp;
	int n = 0;

	snprintf(path, sizeof(path), "%s/" PMU_DEVICES_DIR, sysfs);
	dp = opendir(path);
	assert_non_null(dp);
	while ((d = readdir(dp)) && n < max)
		if (!strncmp(d->d_name, "cpu_", 4))
			snprintf(names[n++], 256, "%s", d->d_name);
	closedir(dp);
	return n;
}

/* A fixture's core PMUs: their CPUs, in directory order, and only them. */
static void check_fixture(const char *name, const char *core_cpus, const char *atom_cpus,
			  uint32_t atom_type)
{
	char sysfs[PATH_MAX], order[4][256];
	struct pmus pmus;
	const struct pmu *p = NULL;
	int n, i = 0;

	fixture_path(sysfs, sizeof(sysfs), "sysinfo/%s/sys", name);
	assert_int_equal(pmus__load(&pmus, sysfs), 0);
	n = dir_order(sysfs, order, 4);
	assert_int_equal(n, 2);
	while ((p = pmus__next_hybrid(&pmus, p))) {
		assert_true(i < n);
		assert_string_equal(p->name, order[i]);
		assert_string_equal(p->cpus, strcmp(p->name, "cpu_core") ? atom_cpus : core_cpus);
		assert_int_equal(p->type, strcmp(p->name, "cpu_core") ? atom_type : 4);
		i++;
	}
	assert_int_equal(i, 2);
	for (int k = 0; k < pmus.nr; k++)
		if (strncmp(pmus.v[k].name, "cpu_", 4))
			assert_null(pmus.v[k].cpus);
	pmus__exit(&pmus);
}

static void test_fixtures(void **state)
{
	(void)state;
	check_fixture("hybrid", "0-7", "8-15", 8);
	check_fixture("hybrid-no-caps", "0", "1", 10);
}

/* Not hybrid: the Intel and AMD PMU trees have none. */
static void test_none(void **state)
{
	char sysfs[PATH_MAX];
	struct pmus pmus;

	(void)state;
	fixture_path(sysfs, sizeof(sysfs), "pmu/sys");
	assert_int_equal(pmus__load(&pmus, sysfs), 0);
	assert_null(pmus__next_hybrid(&pmus, NULL));
	pmus__exit(&pmus);
}

/* perf's test on the cpus file, and the first line only. */
static void test_scratch_rules(void **state)
{
	struct scratch *s = *state;
	static const struct {
		const char *dir, *cpus; /* cpus NULL: no file */
		const char *want; /* NULL: not hybrid */
	} rows[] = {
		{ "cpu_core", "0-3\n", "0-3" },
		{ "cpu_atom", " 4-5,7\nsecond line\n", " 4-5,7" },
		{ "cpu_low", "abc\n", NULL },
		{ "cpu_none", NULL, NULL },
		{ "cpu_empty", "", NULL },
		{ "cpu", "0-7\n", NULL }, /* not cpu_*: arm's per-cluster lists are not hybrid */
		{ "armv8_pmuv3_0", "0-3\n", NULL },
	};
	char sysfs[PATH_MAX];
	struct pmus pmus;
	struct pmu one;
	int nr_hybrid = 0;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		putf(s, "4\n", "sys/" PMU_DEVICES_DIR "/%s/type", rows[i].dir);
		if (rows[i].cpus)
			putf(s, rows[i].cpus, "sys/" PMU_DEVICES_DIR "/%s/cpus", rows[i].dir);
		nr_hybrid += rows[i].want != NULL;
	}
	snprintf(sysfs, sizeof(sysfs), "%.64s/sys", s->root);
	assert_int_equal(pmus__load(&pmus, sysfs), 0);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct pmu *p = pmus__find(&pmus, rows[i].dir);

		assert_non_null(p);
		if (rows[i].want)
			assert_string_equal(p->cpus, rows[i].want);
		else
			assert_null(p->cpus);
		/* One PMU alone reads the same. */
		assert_int_equal(pmu__load(&one, sysfs, rows[i].dir), 0);
		if (rows[i].want)
			assert_string_equal(one.cpus, rows[i].want);
		else
			assert_null(one.cpus);
		pmu__exit(&one);
	}
	for (const struct pmu *p = NULL; (p = pmus__next_hybrid(&pmus, p));)
		nr_hybrid--;
	assert_int_equal(nr_hybrid, 0);
	pmus__exit(&pmus);
}

/* The features' PMU list marks the same PMUs hybrid, with the same CPUs. */
static void test_agrees_with_features(void **state)
{
	char root[PATH_MAX], sysfs[PATH_MAX];
	struct sysinfo si;
	struct pmus pmus;
	int n = 0;

	(void)state;
	fixture_path(root, sizeof(root), "sysinfo/hybrid");
	assert_int_equal(sysinfo__read(&si, root), 0);
	fixture_path(sysfs, sizeof(sysfs), "sysinfo/hybrid/sys");
	assert_int_equal(pmus__load(&pmus, sysfs), 0);
	for (uint32_t i = 0; i < si.nr_pmus; i++) {
		const struct pmu *p = pmus__find(&pmus, si.pmus[i].name);

		assert_non_null(p);
		if (!si.pmus[i].cpus) {
			assert_null(p->cpus);
			continue;
		}
		assert_string_equal(p->cpus, si.pmus[i].cpus);
		n++;
	}
	assert_int_equal(n, 2);
	pmus__exit(&pmus);
	sysinfo__exit(&si);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_none),
		cmocka_unit_test_setup_teardown(test_scratch_rules, scratch__setup, scratch__teardown),
		cmocka_unit_test(test_agrees_with_features),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
