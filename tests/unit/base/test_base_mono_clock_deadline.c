// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interval helpers over the monotonic clock (base/mono_clock.c): a
 * reading as a timespec, the time elapsed since a reading, and deadlines
 * with the time left to them, which the -D delay sleeps on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <time.h>

#include "prec/mono_clock.h"

#define MS 1000000ull

static void test_timespec(void **state)
{
	struct timespec ts;

	(void)state;
	ts = mono_clock__timespec(0);
	assert_int_equal(ts.tv_sec, 0);
	assert_int_equal(ts.tv_nsec, 0);
	ts = mono_clock__timespec(999999999ull);
	assert_int_equal(ts.tv_sec, 0);
	assert_int_equal(ts.tv_nsec, 999999999);
	ts = mono_clock__timespec(1000000000ull);
	assert_int_equal(ts.tv_sec, 1);
	assert_int_equal(ts.tv_nsec, 0);
	ts = mono_clock__timespec(86400ull * 1000000000ull + 1);
	assert_int_equal(ts.tv_sec, 86400);
	assert_int_equal(ts.tv_nsec, 1);
}

static void test_elapsed(void **state)
{
	struct timespec nap = { 0, 20 * MS };
	uint64_t t0 = mono_clock__ns(false), e;

	(void)state;
	nanosleep(&nap, NULL);
	e = mono_clock__elapsed_ns(t0);
	assert_true(e >= 20 * MS);
	/* A reading later than now (clock skew between callers) is no time,
	 * never a wrapped huge one. */
	assert_int_equal(mono_clock__elapsed_ns(mono_clock__ns(false) + 1000 * MS), 0);
}

static void test_deadline_left(void **state)
{
	uint64_t before = mono_clock__ns(false);
	uint64_t end = mono_clock__deadline_ns(50);
	struct timespec left, nap = { 0, 60 * MS };

	(void)state;
	assert_true(end >= before + 50 * MS);
	assert_true(mono_clock__left(end, &left));
	assert_int_equal(left.tv_sec, 0);
	assert_true(left.tv_nsec > 0 && (uint64_t)left.tv_nsec <= 50 * MS);
	/* Past it: none left, and the timeout is zero, not negative. */
	nanosleep(&nap, NULL);
	left.tv_sec = 7;
	assert_false(mono_clock__left(end, &left));
	assert_int_equal(left.tv_sec, 0);
	assert_int_equal(left.tv_nsec, 0);
	/* Seconds carry: a 2.5 s deadline leaves 2 s and under a second. */
	assert_true(mono_clock__left(mono_clock__deadline_ns(2500), &left));
	assert_int_equal(left.tv_sec, 2);
	assert_true(left.tv_nsec <= 500 * (long)MS);
	/* A reading from before is a deadline already past. */
	assert_false(mono_clock__left(before, &left));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timespec),
		cmocka_unit_test(test_elapsed),
		cmocka_unit_test(test_deadline_left),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
