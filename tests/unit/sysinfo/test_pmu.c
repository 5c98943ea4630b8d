// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs PMU lookup against the fixture PMUs (tests/fixtures/pmu/sys): format
 * bit ranges as perf 6.1's pmu.y reads them, value spreading over
 * non-contiguous bits, events/ aliases with their side files, counting-only
 * detection, the PMU-name shorthand; and the live msr PMU where there is one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prec/pmu.h"
#include "tests/unit/fixture_path.h"

static char sysfs[4096];

static int setup(void **state)
{
	(void)state;
	fixture_path(sysfs, sizeof(sysfs), "pmu/sys");
	return 0;
}

struct format_row {
	const char *text;
	int ret;
	enum pmu_config_field field;
	uint64_t bits;
};

/* clang-format off */
static const struct format_row format_rows[] = {
	{ "config:0-7",             0, PMU_CONFIG,  0xffULL },
	{ "config:8-15\n",          0, PMU_CONFIG,  0xff00ULL },
	{ "  config:21 ",           0, PMU_CONFIG,  1ULL << 21 },
	{ "config:0-63",            0, PMU_CONFIG,  ~0ULL },
	{ "config1:0-15",           0, PMU_CONFIG1, 0xffffULL },
	{ "config2:5",              0, PMU_CONFIG2, 0x20ULL },
	{ "config:8-15,32-55",      0, PMU_CONFIG,  0x00ffffff0000ff00ULL },
	{ "config:0,2,4-5",         0, PMU_CONFIG,  0x35ULL },
	{ "config:63",              0, PMU_CONFIG,  1ULL << 63 },
	{ "config:7-7",             0, PMU_CONFIG,  0x80ULL },
	{ "",                       -EINVAL, PMU_CONFIG, 0 },
	{ "config",                 -EINVAL, PMU_CONFIG, 0 },
	{ "config:",                -EINVAL, PMU_CONFIG, 0 },
	{ "config3:0-7",            -EINVAL, PMU_CONFIG, 0 },
	{ "Config:0-7",             -EINVAL, PMU_CONFIG, 0 },
	{ "config:64",              -EINVAL, PMU_CONFIG, 0 },
	{ "config:0-64",            -EINVAL, PMU_CONFIG, 0 },
	{ "config:7-0",             -EINVAL, PMU_CONFIG, 0 },
	{ "config:0-",              -EINVAL, PMU_CONFIG, 0 },
	{ "config:-7",              -EINVAL, PMU_CONFIG, 0 },
	{ "config:0-7,",            -EINVAL, PMU_CONFIG, 0 },
	{ "config:0-7 x",           -EINVAL, PMU_CONFIG, 0 },
	{ "config:0x3",             -EINVAL, PMU_CONFIG, 0 },
	{ "config:99999999999999999999", -EINVAL, PMU_CONFIG, 0 },
	{ "config1:",               -EINVAL, PMU_CONFIG, 0 },
};
/* clang-format on */

static void test_format_parse(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(format_rows) / sizeof(format_rows[0]); i++) {
		const struct format_row *r = &format_rows[i];
		enum pmu_config_field field = PMU_CONFIG2;
		uint64_t bits = 0x1234;
		int ret = pmu_format__parse(r->text, &field, &bits);

		if (ret != r->ret || (!ret && (field != r->field || bits != r->bits))) {
			print_error("'%s': ret %d field %d bits %#llx\n", r->text, ret, field,
				    (unsigned long long)bits);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

static void test_format_values(void **state)
{
	uint64_t cfg;

	(void)state;
	assert_int_equal(pmu_format__max(0), 0);
	assert_int_equal(pmu_format__max(1ULL << 21), 1);
	assert_int_equal(pmu_format__max(0xff00), 255);
	assert_int_equal(pmu_format__max(0x00ffffff0000ff00ULL), 0xffffffffULL);
	assert_true(pmu_format__max(~0ULL) == UINT64_MAX);

	/* low value bits into the lowest format bits, across the gap */
	cfg = 0;
	pmu_format__apply(0x00ffffff0000ff00ULL, 0x1ff, &cfg);
	assert_true(cfg == 0x000000010000ff00ULL);
	cfg = 0;
	pmu_format__apply(0x00ffffff0000ff00ULL, 0xffffffff, &cfg);
	assert_true(cfg == 0x00ffffff0000ff00ULL);
	/* perf ORs: bits already set stay set */
	cfg = 0x3c;
	pmu_format__apply(0xff, 0x01, &cfg);
	assert_true(cfg == 0x3d);
	cfg = 0;
	pmu_format__apply(~0ULL, 0xdeadbeefcafef00dULL, &cfg);
	assert_true(cfg == 0xdeadbeefcafef00dULL);
	/* value bits beyond the format are not written */
	cfg = 0;
	pmu_format__apply(1ULL << 21, 0x2, &cfg);
	assert_true(cfg == 0);
}

static void test_name_matches(void **state)
{
	(void)state;
	assert_true(pmu__name_matches("uncore_imc_0", "imc"));
	assert_true(pmu__name_matches("uncore_imc_12", "imc"));
	assert_true(pmu__name_matches("uncore_imc_0", "uncore_imc"));
	assert_true(pmu__name_matches("uncore_imc_0", "uncore_imc_0"));
	assert_true(pmu__name_matches("imc0", "imc"));
	assert_true(pmu__name_matches("cpu", "cpu"));
	assert_false(pmu__name_matches("uncore_imc_free_running_0", "imc"));
	assert_false(pmu__name_matches("uncore_imc_", "imc"));
	assert_false(pmu__name_matches("uncore_imc_0", "uncore_im"));
	assert_false(pmu__name_matches("uncore_imc_0", "im"));
	assert_false(pmu__name_matches("uncore_imc_0", ""));
	assert_false(pmu__name_matches("cpu_core", "cpu"));
	assert_false(pmu__name_matches("uncore_imc_0", "uncore_"));
}

static void test_load_cpu(void **state)
{
	struct pmu pmu;
	const struct pmu_format *f;
	const struct pmu_alias *a;

	(void)state;
	assert_int_equal(pmu__load(&pmu, sysfs, "cpu"), 0);
	assert_string_equal(pmu.name, "cpu");
	assert_int_equal(pmu.type, 4);
	assert_true(pmu.is_core);
	assert_false(pmu.is_uncore);
	assert_false(pmu.counting_only);
	assert_int_equal(pmu.nr_formats, 12);
	/* sorted by name */
	for (int i = 1; i < pmu.nr_formats; i++)
		assert_true(strcmp(pmu.formats[i - 1].name, pmu.formats[i].name) < 0);
	f = pmu__format(&pmu, "event");
	assert_non_null(f);
	assert_int_equal(f->field, PMU_CONFIG);
	assert_true(f->bits == 0xff);
	f = pmu__format(&pmu, "umask");
	assert_true(f->bits == 0xff00);
	f = pmu__format(&pmu, "edge");
	assert_true(f->bits == 1ULL << 18);
	f = pmu__format(&pmu, "inv");
	assert_true(f->bits == 1ULL << 23);
	f = pmu__format(&pmu, "cmask");
	assert_true(f->bits == 0xff000000ULL);
	f = pmu__format(&pmu, "any");
	assert_true(f->bits == 1ULL << 21);
	f = pmu__format(&pmu, "ldlat");
	assert_int_equal(f->field, PMU_CONFIG1);
	assert_true(f->bits == 0xffff);
	assert_null(pmu__format(&pmu, "EVENT")); /* formats are exact, as perf */
	assert_null(pmu__format(&pmu, "nosuch"));

	assert_int_equal(pmu.nr_aliases, 16);
	a = pmu__alias(&pmu, "cycles-t");
	assert_non_null(a);
	assert_string_equal(a->terms, "event=0x3c,in_tx=1");
	assert_null(a->unit);
	assert_null(a->scale);
	a = pmu__alias(&pmu, "CYCLES-CT"); /* aliases ignore case, as perf */
	assert_non_null(a);
	assert_string_equal(a->name, "cycles-ct");
	assert_string_equal(pmu__alias(&pmu, "mem-loads")->terms, "event=0xcd,umask=0x1,ldlat=3");
	assert_null(pmu__alias(&pmu, "nosuch"));
	pmu__exit(&pmu);
	pmu__exit(&pmu); /* twice is harmless */
}

static void test_load_uncore(void **state)
{
	struct pmu pmu;
	const struct pmu_alias *a;
	const struct pmu_format *f;

	(void)state;
	assert_int_equal(pmu__load(&pmu, sysfs, "uncore_imc_0"), 0);
	assert_int_equal(pmu.type, 13);
	assert_true(pmu.is_uncore);
	assert_true(pmu.counting_only);
	assert_false(pmu.is_core);
	f = pmu__format(&pmu, "umask");
	assert_true(f->bits == 0x00ffffff0000ff00ULL);
	/* the side files describe aliases and are none themselves */
	assert_int_equal(pmu.nr_aliases, 4);
	a = pmu__alias(&pmu, "cas_count_read");
	assert_non_null(a);
	assert_string_equal(a->terms, "event=0x04,umask=0x03");
	assert_string_equal(a->unit, "MiB");
	assert_string_equal(a->scale, "6.103515625e-5");
	assert_false(a->per_pkg);
	assert_null(pmu__alias(&pmu, "cas_count_read.scale"));
	assert_string_equal(pmu__alias(&pmu, "cas_count_param")->terms, "event=0x04,umask=?");
	pmu__exit(&pmu);

	assert_int_equal(pmu__load(&pmu, sysfs, "power"), 0);
	assert_true(pmu.counting_only);
	assert_string_equal(pmu__alias(&pmu, "energy-pkg")->unit, "Joules");
	pmu__exit(&pmu);
	/* msr has no cpumask but cannot sample either */
	assert_int_equal(pmu__load(&pmu, sysfs, "msr"), 0);
	assert_true(pmu.counting_only);
	assert_false(pmu.is_uncore);
	assert_int_equal(pmu.type, 9);
	assert_true(pmu__format(&pmu, "event")->bits == ~0ULL);
	assert_string_equal(pmu__alias(&pmu, "tsc")->terms, "event=0x00");
	pmu__exit(&pmu);
	/* the generic PMUs: a type, nothing else */
	assert_int_equal(pmu__load(&pmu, sysfs, "software"), 0);
	assert_int_equal(pmu.type, 1);
	assert_int_equal(pmu.nr_formats, 0);
	assert_int_equal(pmu.nr_aliases, 0);
	assert_false(pmu.counting_only);
	pmu__exit(&pmu);
}

static void test_load_missing(void **state)
{
	struct pmu pmu;

	(void)state;
	assert_int_equal(pmu__load(&pmu, sysfs, "nosuch"), -ENOENT);
	assert_null(pmu.name);
	assert_int_equal(pmu__load(&pmu, sysfs, ""), -ENOENT);
	assert_int_equal(pmu__load(&pmu, sysfs, "."), -ENOENT);
	assert_int_equal(pmu__load(&pmu, sysfs, ".."), -ENOENT);
	assert_int_equal(pmu__load(&pmu, sysfs, "cpu/../msr"), -ENOENT);
	assert_int_equal(pmu__load(&pmu, "/nonexistent", "cpu"), -ENOENT);
	pmu__exit(&pmu);
	pmu__exit(NULL);
}

static void test_load_all(void **state)
{
	static const char *const names[] = {
		"breakpoint", "cpu",	      "msr",	      "power",	"software",
		"tracepoint", "uncore_imc_0", "uncore_imc_1", "uprobe",
	};
	struct pmus pmus;

	(void)state;
	assert_int_equal(pmus__load(&pmus, sysfs), 0);
	assert_int_equal(pmus.nr, (int)(sizeof(names) / sizeof(names[0])));
	for (int i = 0; i < pmus.nr; i++)
		assert_string_equal(pmus.v[i].name, names[i]);
	assert_int_equal(pmus__find(&pmus, "uprobe")->type, 8);
	assert_null(pmus__find(&pmus, "CPU"));
	pmus__exit(&pmus);
	pmus__exit(&pmus);
	assert_int_equal(pmus__load(&pmus, "/nonexistent"), -ENOENT);
	assert_int_equal(pmus.nr, 0);
}

/* The PMU this VM has, read through the same code. */
static void test_live_msr(void **state)
{
	struct pmu pmu;
	unsigned type;
	FILE *f = fopen("/sys/bus/event_source/devices/msr/type", "r");

	(void)state;
	if (!f)
		skip();
	assert_int_equal(fscanf(f, "%u", &type), 1);
	fclose(f);
	assert_int_equal(pmu__load(&pmu, "/sys", "msr"), 0);
	assert_int_equal(pmu.type, type);
	assert_true(pmu.counting_only);
	assert_non_null(pmu__alias(&pmu, "tsc"));
	assert_non_null(pmu__format(&pmu, "event"));
	pmu__exit(&pmu);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_format_values),
		cmocka_unit_test(test_name_matches),
		cmocka_unit_test(test_load_cpu),
		cmocka_unit_test(test_load_uncore),
		cmocka_unit_test(test_load_missing),
		cmocka_unit_test(test_load_all),
		cmocka_unit_test(test_live_msr),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, setup, NULL);
}
