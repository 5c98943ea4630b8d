// SPDX-License-Identifier: GPL-2.0-only
/*
 * base's text parsers over plain buffers: hostile-input tables for CPU lists
 * (cpulist__parse, and the bounded form cpu_map__parse uses) and numbers
 * (u64__parse, hex digits, the strto* sign prefix, trimming). Every row either
 * parses to the exact value or is refused with the exact errno; a refusal
 * never touches the output.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "prec/cpulist.h"
#include "prec/number.h"

/* ---- cpu lists ---------------------------------------------------------- */

struct cpulist_case {
	const char *in;
	int err;
	uint32_t count;
	int max;
};

static const struct cpulist_case cpulist_cases[] = {
	/* accepted: what sysfs prints, and what the kernel's parser tolerates */
	{ "0", 0, 1, 0 },
	{ "0\n", 0, 1, 0 },
	{ "0-1\n", 0, 2, 1 },
	{ "0-3,8,10-11", 0, 7, 11 },
	{ "  0-3,8,10-11 \n", 0, 7, 11 },
	{ "\t5\t", 0, 1, 5 },
	{ "63", 0, 1, 63 },
	{ "64", 0, 1, 64 },
	{ "63-64", 0, 2, 64 },
	{ "0-127", 0, 128, 127 },
	{ "1,3", 0, 2, 3 },
	{ "3,1", 0, 2, 3 },
	{ "0-3,2-5", 0, 6, 5 },
	{ "2,2,2", 0, 1, 2 },
	{ "7-7", 0, 1, 7 },
	{ "007", 0, 1, 7 },
	{ "0-1048575", 0, 1048576, 1048575 },
	{ "1048575", 0, 1, 1048575 },
	{ "0,1048575", 0, 2, 1048575 },
	/* empty: told apart so callers can accept a CPU-less node's "\n" */
	{ "", -ENODATA, 0, -1 },
	{ "\n", -ENODATA, 0, -1 },
	{ "   \t\n", -ENODATA, 0, -1 },
	/* rejected */
	{ "1-", -EINVAL, 0, -1 },
	{ "-1", -EINVAL, 0, -1 },
	{ "-", -EINVAL, 0, -1 },
	{ "3-1", -EINVAL, 0, -1 },
	{ "a", -EINVAL, 0, -1 },
	{ "abc", -EINVAL, 0, -1 },
	{ "0x1", -EINVAL, 0, -1 },
	{ "1,", -EINVAL, 0, -1 },
	{ ",1", -EINVAL, 0, -1 },
	{ "1,,2", -EINVAL, 0, -1 },
	{ ",", -EINVAL, 0, -1 },
	{ "1 2", -EINVAL, 0, -1 },
	{ "1, 2", -EINVAL, 0, -1 },
	{ "1 -2", -EINVAL, 0, -1 },
	{ "1- 2", -EINVAL, 0, -1 },
	{ "1-2-3", -EINVAL, 0, -1 },
	{ "1--2", -EINVAL, 0, -1 },
	{ "+1", -EINVAL, 0, -1 },
	{ "1.5", -EINVAL, 0, -1 },
	{ "0-31:4/8", -EINVAL, 0, -1 }, /* kernel stride syntax: sysfs never prints it */
	{ "N", -EINVAL, 0, -1 },
	{ "all", -EINVAL, 0, -1 },
	{ "ff", -EINVAL, 0, -1 },
	{ "1;2", -EINVAL, 0, -1 },
	{ "1\n2", -EINVAL, 0, -1 },
	{ "1048576", -ERANGE, 0, -1 },
	{ "0-1048576", -ERANGE, 0, -1 },
	{ "4294967295", -ERANGE, 0, -1 },
	{ "4294967296", -ERANGE, 0, -1 },
	{ "18446744073709551617", -ERANGE, 0, -1 },
	{ "99999999999999999999999999999999", -ERANGE, 0, -1 },
	{ "0-99999999999999999999", -ERANGE, 0, -1 },
};

static void test_cpulist_table(void **state)
{
	for (size_t i = 0; i < sizeof(cpulist_cases) / sizeof(cpulist_cases[0]); i++) {
		const struct cpulist_case *c = &cpulist_cases[i];
		struct cpulist cl = { (uint64_t *)1, 99 }; /* must be zeroed on failure */
		int err = cpulist__parse(c->in, strlen(c->in), &cl);

		if (err != c->err)
			fail_msg("cpulist \"%s\": got %d, want %d", c->in, err, c->err);
		if (err) {
			assert_null(cl.bits);
			assert_int_equal(cl.nr_bits, 0);
		}
		if (cpulist__count(&cl) != c->count || cpulist__max(&cl) != c->max)
			fail_msg("cpulist \"%s\": count %u max %d, want %u %d", c->in,
				 cpulist__count(&cl), cpulist__max(&cl), c->count, c->max);
		cpulist__exit(&cl);
		cpulist__exit(&cl);
	}
}

static void test_cpulist_members(void **state)
{
	static const char in[] = "0-3,8,10-11,64,127";
	static const int want[] = { 0, 1, 2, 3, 8, 10, 11, 64, 127 };
	struct cpulist cl;
	size_t n = 0;

	assert_int_equal(cpulist__parse(in, strlen(in), &cl), 0);
	for (int c = cpulist__next(&cl, 0); c >= 0; c = cpulist__next(&cl, (uint32_t)c + 1)) {
		assert_true(n < sizeof(want) / sizeof(want[0]));
		assert_int_equal(c, want[n++]);
	}
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	assert_true(cpulist__has(&cl, 8));
	assert_false(cpulist__has(&cl, 9));
	assert_false(cpulist__has(&cl, 128));
	assert_false(cpulist__has(&cl, UINT32_MAX));
	assert_int_equal(cpulist__next(&cl, 128), -1);
	cpulist__exit(&cl);
	cpulist__exit(NULL);

	/* Length-bounded: bytes past len are not part of the list. */
	assert_int_equal(cpulist__parse("0-3garbage", 3, &cl), 0);
	assert_int_equal(cpulist__count(&cl), 4);
	cpulist__exit(&cl);
	/* A NUL inside the buffer is garbage, not an end. */
	assert_int_equal(cpulist__parse("1\0002", 3, &cl), -EINVAL);
}

/* ---- numbers ------------------------------------------------------------ */

struct u64_case {
	const char *in;
	unsigned int base;
	int err;
	uint64_t val;
};

static const struct u64_case u64_cases[] = {
	{ "0", 10, 0, 0 },
	{ "1", 10, 0, 1 },
	{ "42\n", 10, 0, 42 },
	{ " \t42 \n", 10, 0, 42 },
	{ "007", 10, 0, 7 },
	{ "4294967296", 10, 0, UINT64_C(4294967296) },
	{ "18446744073709551615", 10, 0, UINT64_MAX },
	{ "018446744073709551615", 10, 0, UINT64_MAX },
	{ "18446744073709551616", 10, -ERANGE, 0 },
	{ "18446744073709551620", 10, -ERANGE, 0 },
	{ "99999999999999999999999", 10, -ERANGE, 0 },
	{ "", 10, -EINVAL, 0 },
	{ " ", 10, -EINVAL, 0 },
	{ "\n", 10, -EINVAL, 0 },
	{ "-1", 10, -EINVAL, 0 },
	{ "+1", 10, -EINVAL, 0 },
	{ "- 1", 10, -EINVAL, 0 },
	{ "1 2", 10, -EINVAL, 0 },
	{ "12a", 10, -EINVAL, 0 },
	{ "a12", 10, -EINVAL, 0 },
	{ "0x10", 10, -EINVAL, 0 },
	{ "1e3", 10, -EINVAL, 0 },
	{ "1.0", 10, -EINVAL, 0 },
	{ "1,000", 10, -EINVAL, 0 },
	{ "1_000", 10, -EINVAL, 0 },
	{ "99999999999999999999999x", 10, -EINVAL, 0 }, /* garbage wins over overflow */
	{ "inf", 10, -EINVAL, 0 },
	{ "nan", 10, -EINVAL, 0 },
	{ "\xef\xbc\x91", 10, -EINVAL, 0 }, /* fullwidth 1 */
	{ "0", 16, 0, 0 },
	{ "8000000\n", 16, 0, 0x8000000 }, /* memory/block_size_bytes */
	{ "0x00000000412fd050\n", 16, 0, 0x412fd050 }, /* midr_el1 */
	{ "0XABCdef", 16, 0, 0xabcdef },
	{ "ffffffffffffffff", 16, 0, UINT64_MAX },
	{ "0x0000ffffffffffffffff", 16, 0, UINT64_MAX },
	{ "10000000000000000", 16, -ERANGE, 0 },
	{ "0x", 16, -EINVAL, 0 },
	{ "0x\n", 16, -EINVAL, 0 },
	{ "x10", 16, -EINVAL, 0 },
	{ "0x0x1", 16, -EINVAL, 0 },
	{ "g", 16, -EINVAL, 0 },
	{ "-0x1", 16, -EINVAL, 0 },
	{ "1", 8, -EINVAL, 0 },
	{ "1", 0, -EINVAL, 0 },
	{ "1", 2, -EINVAL, 0 },
};

static void test_u64_table(void **state)
{
	for (size_t i = 0; i < sizeof(u64_cases) / sizeof(u64_cases[0]); i++) {
		const struct u64_case *c = &u64_cases[i];
		uint64_t v = 12345;
		int err = u64__parse(c->in, strlen(c->in), c->base, &v);

		if (err != c->err)
			fail_msg("u64 \"%s\" base %u: got %d, want %d", c->in, c->base, err,
				 c->err);
		if (!err && v != c->val)
			fail_msg("u64 \"%s\": got %llu", c->in, (unsigned long long)v);
		if (err && v != 12345)
			fail_msg("u64 \"%s\": value touched on failure", c->in);
	}
	/* Embedded NUL and length bounds. */
	uint64_t v;
	assert_int_equal(u64__parse("1\0002", 3, 10, &v), -EINVAL);
	assert_int_equal(u64__parse("12345", 2, 10, &v), 0);
	assert_true(v == 12);
}

/* ---- hostile lists: overlong, truncated, bounded --------------------------- */

static void test_cpulist_limit(void **state)
{
	struct cpulist cl;

	(void)state;
	assert_int_equal(cpulist__parse_limit("0-63", 4, 64, &cl), 0);
	assert_int_equal(cpulist__count(&cl), 64);
	cpulist__exit(&cl);
	assert_int_equal(cpulist__parse_limit("0-64", 4, 64, &cl), -ERANGE);
	assert_null(cl.bits);
	/* left to right: the range error comes before the garbage after it */
	assert_int_equal(cpulist__parse_limit("65536,a", 7, 65536, &cl), -ERANGE);
	assert_int_equal(cpulist__parse_limit("a,65536", 7, 65536, &cl), -EINVAL);
	/* a limit past the bitmap's is the bitmap's */
	assert_int_equal(cpulist__parse_limit("1048576", 7, UINT32_MAX, &cl), -ERANGE);
}

static void test_cpulist_overlong(void **state)
{
	size_t n = 1 << 20, len = 0;
	char *s = malloc(n);
	struct cpulist cl;

	(void)state;
	assert_non_null(s);
	/* "0,0,0,...": a megabyte of repeats is one CPU */
	while (len + 2 < n) {
		s[len++] = '0';
		s[len++] = ',';
	}
	s[len - 1] = '\0';
	assert_int_equal(cpulist__parse(s, len - 1, &cl), 0);
	assert_int_equal(cpulist__count(&cl), 1);
	cpulist__exit(&cl);
	/* a number a megabyte long */
	memset(s, '9', n);
	assert_int_equal(cpulist__parse(s, n, &cl), -ERANGE);
	/* the same list cut at every length: accepted or refused, never read past len */
	for (size_t cut = 0; cut <= 12; cut++) {
		int err = cpulist__parse("0-3,8,10-11", cut, &cl);

		if (err && err != -EINVAL && err != -ENODATA)
			fail_msg("cut %zu: %d", cut, err);
		cpulist__exit(&cl);
	}
	free(s);
}

static void test_number_helpers(void **state)
{
	const char *s;
	size_t len;
	bool neg;

	(void)state;
	for (int c = 0; c < 256; c++) {
		int d = hex__digit((char)c);
		const char *pos = c ? strchr("0123456789abcdef", c) : NULL;
		const char *upos = c ? strchr("0123456789ABCDEF", c) : NULL;
		int want = pos	? (int)(pos - "0123456789abcdef") :
			   upos ? (int)(upos - "0123456789ABCDEF") :
				  -1;

		if (d != want)
			fail_msg("hex__digit(%d) = %d, want %d", c, d, want);
	}
	s = " \t\n 12 \v\f\r";
	len = strlen(s);
	text__trim(&s, &len);
	assert_int_equal(len, 2);
	assert_memory_equal(s, "12", 2);
	s = "   ";
	len = 3;
	text__trim(&s, &len);
	assert_int_equal(len, 0);
	assert_int_equal(num__skip_sign("  -12", 5, &neg), 3);
	assert_true(neg);
	assert_int_equal(num__skip_sign("+1", 2, &neg), 1);
	assert_false(neg);
	assert_int_equal(num__skip_sign("   ", 3, &neg), 3);
	assert_int_equal(num__skip_sign("--1", 3, &neg), 1);
	assert_true(neg);
	assert_int_equal(num__skip_sign("", 0, &neg), 0);
	assert_false(neg);
	{
		uint32_t v = 7;

		assert_int_equal(u32__parse("4294967295\n", 11, 10, &v), 0);
		assert_true(v == UINT32_MAX);
		assert_int_equal(u32__parse("0x100000000", 11, 16, &v), -ERANGE);
		assert_int_equal(u32__parse("4294967296", 10, 10, &v), -ERANGE);
		assert_int_equal(u32__parse("x", 1, 10, &v), -EINVAL);
		assert_true(v == UINT32_MAX);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_table), cmocka_unit_test(test_cpulist_members),
		cmocka_unit_test(test_cpulist_limit), cmocka_unit_test(test_cpulist_overlong),
		cmocka_unit_test(test_u64_table),     cmocka_unit_test(test_number_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
