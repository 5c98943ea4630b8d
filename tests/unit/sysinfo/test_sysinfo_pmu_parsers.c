// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysinfo's cache and PMU value parsers over plain buffers: sysfs numbers
 * and strings, caps/ values, format/ grammar, hybrid cpus files.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sysinfo_tree.h"

/* ---- pure parsers ------------------------------------------------------- */

static void test_parse_u32(void **state)
{
	static const struct {
		const char *in;
		int err;
		uint32_t val;
	} t[] = {
		{ "0\n", 0, 0 },
		{ "64\n", 0, 64 },
		{ "  491520 \n", 0, 491520 },
		{ "4294967295\n", 0, UINT32_MAX },
		{ "4294967296\n", -ERANGE, 0 },
		{ "99999999999999999999999\n", -ERANGE, 0 },
		{ "", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
		{ "abc\n", -EINVAL, 0 },
		{ "12abc\n", -EINVAL, 0 },
		{ "-1\n", -EINVAL, 0 },
		{ "+1\n", -EINVAL, 0 },
		{ "0x10\n", -EINVAL, 0 },
		{ "1 2\n", -EINVAL, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t v = 12345;

		assert_int_equal(sysfs_value__u32(t[i].in, strlen(t[i].in), &v), t[i].err);
		assert_int_equal(v, t[i].err ? 12345 : t[i].val);
	}
	/* An embedded NUL is garbage, not a terminator. */
	{
		uint32_t v;

		static const char in[] = { '1', '\0', '2' };

		assert_int_equal(sysfs_value__u32(in, sizeof(in), &v), -EINVAL);
	}
}

static void test_parse_str(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} t[] = {
		{ "Data\n", 5, "Data" }, { "  Unified \t\n", 12, "Unified" },
		{ "48K", 3, "48K" },	 { "0-3,8-11\n", 9, "0-3,8-11" },
		{ "", 0, "" },		 { "\n\n", 2, "" },
		{ "Da\0ta\n", 6, "Da" }, /* perf's strlen stops at the NUL */
		{ " 0 1 \n", 6, "0 1" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char *out = NULL;

		assert_int_equal(sysfs_value__str(t[i].in, t[i].len, &out), 0);
		assert_string_equal(out, t[i].out);
		free(out);
	}
}

static void test_parse_cap_value(void **state)
{
	char long_in[300], long_out[200];
	static const struct {
		const char *in;
		size_t len;
		int err;
		const char *out;
	} t[] = {
		{ "32\n", 3, 0, "32" },
		{ "alderlake_hybrid\n", 17, 0, "alderlake_hybrid" },
		{ "\n", 1, 0, "" },
		{ "abc", 3, 0, "ab" }, /* perf drops the last byte, newline or not */
		{ "a", 1, 0, "" },
		{ "first\nsecond\n", 13, 0, "first" },
		{ " 3 \n", 4, 0, " 3 " }, /* no trimming beyond that */
		{ "\0abc\n", 5, 0, "" },
		{ "ab\0cd\n", 6, 0, "a" },
		{ "", 0, -ENODATA, NULL },
	};
	char *out;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		out = (char *)1;
		assert_int_equal(pmu_cap__value(t[i].in, t[i].len, &out), t[i].err);
		if (t[i].out) {
			assert_string_equal(out, t[i].out);
			free(out);
		} else {
			assert_null(out);
		}
	}
	/* fgets into 128 bytes keeps 127, and perf drops the last of those. */
	memset(long_in, 'x', sizeof(long_in));
	long_in[sizeof(long_in) - 1] = '\n';
	memset(long_out, 'x', 126);
	long_out[126] = '\0';
	assert_int_equal(pmu_cap__value(long_in, sizeof(long_in), &out), 0);
	assert_string_equal(out, long_out);
	free(out);
	/* Exactly 126 characters and a newline fit whole. */
	long_in[126] = '\n';
	assert_int_equal(pmu_cap__value(long_in, 127, &out), 0);
	assert_string_equal(out, long_out);
	free(out);
}

static void test_parse_format(void **state)
{
	static const char *const good[] = {
		"config:0-7\n",
		"config:0-7",
		"config1:0-63\n",
		"config2:5\n",
		"config:0-7,32-35\n",
		"config:0,1,2\n",
		"config:0-7 config1:3\n",
		"  config : 0 - 7 \n",
		"xconfig:3\n", /* the lexer skips bytes it has no rule for */
		"config:99999\n", /* bit numbers are not range-checked */
		"config:18446744073709551615\n", /* ULONG_MAX is still a number */
	};
	static const char *const bad[] = {
		"",
		"\n",
		"foo\n",
		"config\n",
		"config:\n",
		"config:0-\n",
		"config:-3\n",
		"config:0--7\n",
		"config:0-7,\n",
		"config:,1\n",
		"config3:0-3\n", /* 6.1's lexer has no config3 token */
		"config12:0\n",
		"0-7\n",
		"config:0-7:8\n",
		"config:0 1\n",
		"config::0\n",
		"configconfig1:0\n",
		"config:18446744073709551616\n", /* past ULONG_MAX: PP_ERROR */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(pmu_format__valid(good[i], strlen(good[i])));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (pmu_format__valid(bad[i], strlen(bad[i])))
			fail_msg("format \"%s\" accepted", bad[i]);
	}
	/* A NUL is one more byte the lexer skips. */
	{
		static const char in[] = { 'c', 'o', 'n', 'f', 'i', 'g', ':', '\0', '0', '-', '7' };

		assert_true(pmu_format__valid(in, sizeof(in)));
	}
}

static void test_parse_hybrid_cpus(void **state)
{
	(void)state;
	assert_true(pmu_cpus__hybrid("0-7\n", 4));
	assert_true(pmu_cpus__hybrid("  8-15\n", 7));
	assert_true(pmu_cpus__hybrid("+3", 2));
	assert_true(pmu_cpus__hybrid("-1", 2)); /* "%u" takes a sign */
	assert_false(pmu_cpus__hybrid("", 0));
	assert_false(pmu_cpus__hybrid("\n", 1));
	assert_false(pmu_cpus__hybrid("abc\n", 4));
	assert_false(pmu_cpus__hybrid("-\n", 2));
	assert_false(pmu_cpus__hybrid(",1\n", 3));
}

#define SCRATCH(fn) cmocka_unit_test_setup_teardown(fn, scratch__setup, scratch__teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u32),
		cmocka_unit_test(test_parse_str),
		cmocka_unit_test(test_parse_cap_value),
		cmocka_unit_test(test_parse_format),
		cmocka_unit_test(test_parse_hybrid_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}


