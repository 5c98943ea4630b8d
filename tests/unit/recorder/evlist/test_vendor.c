// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine-dependent rules of perf 6.1's record path (recorder/evlist/vendor.h),
 * with the facts of machines these tests do not run on: cpuid strings of
 * Intel, AMD, Hygon, arm64 and nothing; sysinfo fixture trees of an AMD and
 * a Hygon host (tests/fixtures/vendor), a hybrid laptop, an arm64 board and
 * a VM (tests/fixtures/sysinfo); the build arches perf has rules for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/events/parse_events.h"
#include "prec/sysinfo.h"
#include "recorder/evlist/vendor.h"
#include "tests/unit/fixture_path.h"
#include "recorder/record_prepare.h"

static void test_cpuid_is_amd(void **state)
{
	static const struct {
		const char *cpuid;
		bool amd;
	} rows[] = {
		{ "AuthenticAMD,25,17,1", true },
		{ "AuthenticAMD,23,49,0", true },
		{ "AuthenticAMD", true },
		/* Hygon's Dhyana is a Zen, but perf 6.1 tests the string only. */
		{ "HygonGenuine,24,0,1", false },
		{ "GenuineIntel,6,167,1", false },
		{ "GenuineIntel,6,154,3", false },
		{ "0x00000000410fd0c0", false }, /* arm64 MIDR */
		{ "authenticamd,25,17,1", false },
		{ "AuthenticAM", false },
		{ "", false },
		{ NULL, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_int_equal(vendor__cpuid_is_amd(rows[i].cpuid), rows[i].amd);
}

/* A fixture tree read as the recorder reads the machine. */
static void read_tree(struct sysinfo *si, const char *dir, const char *name)
{
	char root[4096];

	fixture_path(root, sizeof(root), "%s/%s", dir, name);
	assert_int_equal(sysinfo__read(si, root), 0);
}

static void test_machine_from_fixtures(void **state)
{
	static const struct {
		const char *dir, *name;
		bool amd;
		uint32_t fetch, op;
		int nr_hybrid;
	} rows[] = {
		{ "vendor", "amd", true, 8, 9, 0 },	 { "vendor", "hygon", false, 8, 9, 0 },
		{ "sysinfo", "hybrid", false, 0, 0, 2 }, { "sysinfo", "numa2s", false, 0, 0, 0 },
		{ "sysinfo", "arm64", false, 0, 0, 0 },	 { "sysinfo", "vm", false, 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct default_event_pmu hy[4];
		struct event_machine m;
		struct sysinfo si;

		read_tree(&si, rows[i].dir, rows[i].name);
		vendor__machine(&m, &si, true);
		if (m.amd != rows[i].amd)
			print_error("%s: cpuid '%s'\n", rows[i].name,
				    si.cpuid ? si.cpuid : "(null)");
		assert_int_equal(m.amd, rows[i].amd);
		assert_true(m.can_profile_kernel);
		/* The ibs types are kept whatever the vendor; the rules ask amd. */
		assert_int_equal(m.ibs_fetch_type, rows[i].fetch);
		assert_int_equal(m.ibs_op_type, rows[i].op);
		assert_int_equal(vendor__hybrid_pmus(&si, hy, 4), rows[i].nr_hybrid);
		sysinfo__exit(&si);
	}
	{
		struct event_machine m;

		vendor__machine(&m, NULL, false);
		assert_false(m.amd);
		assert_false(m.can_profile_kernel);
	}
}

/* The hybrid laptop's tree: cpu_atom (type 8, CPUs 8-15) and cpu_core (type 4,
 * CPUs 0-7), in sysfs order, each with its CPU list. */
static void test_hybrid_pmus(void **state)
{
	struct default_event_pmu hy[4];
	struct event_specs specs = { 0 };
	struct default_event_env env = { .can_profile_kernel = true, .hybrid = hy };
	struct sysinfo si;
	int n;

	(void)state;
	read_tree(&si, "sysinfo", "hybrid");
	n = vendor__hybrid_pmus(&si, hy, 4);
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++) {
		assert_true(!strcmp(hy[i].name, "cpu_core") || !strcmp(hy[i].name, "cpu_atom"));
		assert_true(!strcmp(hy[i].cpus, strcmp(hy[i].name, "cpu_core") ? "8-15" : "0-7"));
		assert_int_equal(hy[i].type, strcmp(hy[i].name, "cpu_core") ? 8 : 4);
	}
	assert_int_equal(vendor__hybrid_pmus(&si, hy, 1), 1);
	/* The default events this machine gets. */
	env.amd = vendor__cpuid_is_amd(si.cpuid);
	env.nr_hybrid = n;
	assert_int_equal(parse_events__add_default(&specs, &env), 0);
	assert_int_equal(specs.nr, 2);
	for (int i = 0; i < n; i++) {
		assert_string_equal(specs.v[i].pmu_name, hy[i].name);
		assert_true(specs.v[i].attr.config >> 32 == hy[i].type);
		assert_int_equal(specs.v[i].attr.exclude_guest, 1);
	}
	event_specs__exit(&specs);
	sysinfo__exit(&si);
}

/* arch_evsel__set_sample_weight and arch__add_leaf_frame_record_opts. */
static void test_build_arch_rules(void **state)
{
	static const struct {
		const char *arch;
		uint64_t weight, leaf;
	} rows[] = {
		{ "x86_64", PERF_SAMPLE_WEIGHT_STRUCT, 0 },
		{ "i686", PERF_SAMPLE_WEIGHT_STRUCT, 0 },
		{ "i386", PERF_SAMPLE_WEIGHT_STRUCT, 0 },
		{ "aarch64", PERF_SAMPLE_WEIGHT, 1ULL << 30 },
		{ "arm64", PERF_SAMPLE_WEIGHT, 1ULL << 30 },
		{ "armv7l", PERF_SAMPLE_WEIGHT, 0 },
		{ "ppc64le", PERF_SAMPLE_WEIGHT, 0 },
		{ "s390x", PERF_SAMPLE_WEIGHT, 0 },
		{ "riscv64", PERF_SAMPLE_WEIGHT, 0 },
		{ "unknown", PERF_SAMPLE_WEIGHT, 0 },
		{ "", PERF_SAMPLE_WEIGHT, 0 },
		{ NULL, PERF_SAMPLE_WEIGHT, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_true(vendor__weight_bit(rows[i].arch) == rows[i].weight);
		assert_true(vendor__fp_leaf_regs(rows[i].arch) == rows[i].leaf);
	}
	assert_non_null(vendor__build_arch());
#if defined(__x86_64__)
	assert_string_equal(vendor__build_arch(), "x86_64");
#elif defined(__aarch64__)
	assert_string_equal(vendor__build_arch(), "aarch64");
#endif
}

/* perf 6.1's EINVAL advice for AMD IBS, in its order, and none elsewhere. */
static void test_einval_hint(void **state)
{
	const struct event_machine amd = { .amd = true, .ibs_fetch_type = 8, .ibs_op_type = 9 };
	const struct event_machine intel = { 0 };
	const struct event_machine hygon = { .ibs_fetch_type = 8, .ibs_op_type = 9 };
	struct perf_event_attr precise = { .type = PERF_TYPE_HARDWARE, .precise_ip = 2 };
	struct perf_event_attr plain = { .type = PERF_TYPE_HARDWARE };
	struct perf_event_attr op = { .type = 9 };
	struct perf_event_attr op_u = { .type = 9, .exclude_kernel = 1 };
	const char *h;

	(void)state;
	/* Per-thread mode first. */
	h = vendor__einval_hint(&amd, &precise, NULL, false);
	assert_non_null(h);
	assert_non_null(strstr(h, "per-thread mode"));
	h = vendor__einval_hint(&amd, &op_u, NULL, false);
	assert_non_null(strstr(h, "per-thread mode"));
	/* Then the kernel filter, by type or by PMU name. */
	assert_non_null(strstr(vendor__einval_hint(&amd, &op_u, NULL, true),
			       "AMD IBS can't exclude kernel events"));
	assert_non_null(strstr(
		vendor__einval_hint(&amd,
				    &(struct perf_event_attr){ .type = 30, .exclude_kernel = 1 },
				    "ibs_fetch", true),
		"AMD IBS can't exclude kernel events"));
	/* Then system-wide. */
	assert_non_null(
		strstr(vendor__einval_hint(&amd, &op, NULL, true), "system-wide/per-cpu mode"));
	assert_non_null(strstr(vendor__einval_hint(&amd, &precise, NULL, true),
			       "system-wide/per-cpu mode"));
	/* Not IBS, or not AMD: no vendor advice. */
	assert_null(vendor__einval_hint(&amd, &plain, NULL, true));
	assert_null(vendor__einval_hint(&amd, &plain, NULL, false));
	assert_null(vendor__einval_hint(&intel, &precise, NULL, false));
	assert_null(vendor__einval_hint(&hygon, &op, NULL, true));
	assert_true(vendor__is_amd_ibs(&amd, &plain, "ibs_op"));
	assert_false(vendor__is_amd_ibs(&intel, &op, "ibs_op"));
}

/* arch__post_evsel_config's L3 miss filter warning. */
static void test_ibs_l3miss(void **state)
{
	const struct event_machine amd = { .amd = true, .ibs_fetch_type = 8, .ibs_op_type = 9 };
	const struct event_machine hygon = { .ibs_fetch_type = 8, .ibs_op_type = 9 };
	static const struct {
		uint32_t type;
		const char *pmu;
		uint64_t config;
		bool warn;
	} rows[] = {
		{ 9, NULL, 1ULL << 16, true },
		{ 9, "ibs_op", (1ULL << 16) | (1ULL << 19), true },
		{ 9, NULL, 1ULL << 19, false },
		{ 9, NULL, 1ULL << 59, false }, /* fetch's bit on op */
		{ 8, NULL, 1ULL << 59, true },
		{ 8, "ibs_fetch", 1ULL << 59, true },
		{ 8, NULL, 1ULL << 16, false }, /* op's bit on fetch */
		{ PERF_TYPE_RAW, NULL, 1ULL << 16, false },
		{ PERF_TYPE_HARDWARE, NULL, 1ULL << 59, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct perf_event_attr a = { .type = rows[i].type, .config = rows[i].config };

		assert_int_equal(vendor__ibs_l3miss(&amd, &a, rows[i].pmu), rows[i].warn);
		assert_false(vendor__ibs_l3miss(&hygon, &a, rows[i].pmu));
	}
}

/* event_specs__for_machine on fixture trees: the default event per vendor. */
static void test_for_machine(void **state)
{
	static const struct {
		const char *dir, *name;
		int nr;
		unsigned exclude_guest;
	} rows[] = {
		{ "vendor", "amd", 1, 0 },     { "vendor", "hygon", 1, 1 },
		{ "sysinfo", "numa2s", 1, 1 }, { "sysinfo", "hybrid", 2, 1 },
		{ "sysinfo", "arm64", 1, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct event_specs specs = { 0 };
		struct sysinfo si;
		struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

		read_tree(&si, rows[i].dir, rows[i].name);
		assert_int_equal(event_specs__for_machine(&specs, &si), 0);
		assert_int_equal(specs.nr, rows[i].nr);
		for (int k = 0; k < specs.nr; k++)
			assert_int_equal(specs.v[k].attr.exclude_guest, rows[i].exclude_guest);
		event_specs__exit(&specs);
		/* With -e events there is no default; the machine is still known. */
		assert_int_equal(parse_events(&specs, "cpu-clock", &e), 0);
		assert_int_equal(event_specs__for_machine(&specs, &si), 0);
		assert_int_equal(specs.nr, 1);
		assert_int_equal(specs.machine.amd, !rows[i].exclude_guest);
		event_specs__exit(&specs);
		sysinfo__exit(&si);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpuid_is_amd), cmocka_unit_test(test_machine_from_fixtures),
		cmocka_unit_test(test_hybrid_pmus),  cmocka_unit_test(test_build_arch_rules),
		cmocka_unit_test(test_einval_hint),  cmocka_unit_test(test_ibs_l3miss),
		cmocka_unit_test(test_for_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
