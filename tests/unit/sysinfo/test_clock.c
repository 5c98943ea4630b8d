// SPDX-License-Identifier: GPL-2.0-only
/* -k clock names and readings (sysinfo/clock.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <cmocka.h>

#include "prec/clock.h"

static void test_parse_accepted(void **state)
{
	static const struct {
		const char *str;
		int id;
	} rows[] = {
		{ "monotonic", CLOCK_MONOTONIC },   { "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME },     { "boottime", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },               { "mono", CLOCK_MONOTONIC },
		{ "raw", CLOCK_MONOTONIC_RAW },     { "real", CLOCK_REALTIME },
		{ "boot", CLOCK_BOOTTIME },         { "MONOTONIC_RAW", CLOCK_MONOTONIC_RAW },
		{ "CLOCK_MONOTONIC", CLOCK_MONOTONIC }, { "clock_boottime", CLOCK_BOOTTIME },
		{ "0", 0 },                         { "4", 4 },
		{ "11", 11 },
	};
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int id = -1;
		int ret = clockid__parse(rows[i].str, &id);

		if (ret || id != rows[i].id) {
			printf("row %zu '%s': ret %d id %d, expected 0 and %d\n", i, rows[i].str, ret,
			       id, rows[i].id);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_parse_rejected(void **state)
{
	static const char *const rows[] = {
		"", "nosuch", "CLOCK_", "monotonic ", " monotonic", "-1", "4x", "0x4",
		"99999999999999999999", "70000", "monotonic,raw", "CLOCK_CLOCK_MONOTONIC",
	};
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int id = -7;

		if (clockid__parse(rows[i], &id) != -22 || id != -7) {
			printf("row %zu '%s' was accepted (id %d)\n", i, rows[i], id);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	assert_int_equal(clockid__parse(NULL, &(int){ 0 }), -22);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(clockid__name(CLOCK_MONOTONIC), "monotonic");
	assert_string_equal(clockid__name(CLOCK_MONOTONIC_RAW), "monotonic_raw");
	assert_string_equal(clockid__name(CLOCK_REALTIME), "realtime");
	assert_string_equal(clockid__name(CLOCK_BOOTTIME), "boottime");
	assert_string_equal(clockid__name(CLOCK_TAI), "tai");
	assert_null(clockid__name(1234));
}

static void test_snapshot(void **state)
{
	uint64_t res = 0, tod = 0, clk = 0;
	struct timespec now;

	(void)state;
	assert_int_equal(clock__snapshot(CLOCK_MONOTONIC, &res, &tod, &clk), 0);
	assert_true(res > 0 && res <= 1000000000ULL);
	clock_gettime(CLOCK_REALTIME, &now);
	/* The time of day is now, to within a second. */
	assert_true(tod / 1000000000ULL + 1 >= (uint64_t)now.tv_sec);
	assert_true(tod / 1000000000ULL <= (uint64_t)now.tv_sec);
	assert_true(clk > 0);
	assert_int_equal(clock__snapshot(1234, &res, &tod, &clk), -22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_accepted),
		cmocka_unit_test(test_parse_rejected),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_snapshot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
