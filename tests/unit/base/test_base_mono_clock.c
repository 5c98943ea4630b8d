// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interval clock (base/mono_clock.c): it never goes back, it follows
 * CLOCK_MONOTONIC, and the coarse read is within a tick or so of the
 * precise one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <time.h>

#include "prec/mono_clock.h"

static void test_follows_monotonic(void **state)
{
	struct timespec ts, nap = { 0, 20 * 1000000L };
	uint64_t before, a, b, coarse;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	before = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	a = mono_clock__ns(false);
	assert_true(a >= before);
	nanosleep(&nap, NULL);
	b = mono_clock__ns(false);
	/* The 20 ms nap shows, in nanoseconds. */
	assert_true(b - a >= 20 * 1000000ull);
	/* The coarse clock lags the precise one by at most its tick (well
	 * under 100 ms on any HZ), and never leads it. */
	coarse = mono_clock__ns(true);
	assert_true(coarse <= mono_clock__ns(false));
	assert_true(coarse + 100 * 1000000ull >= b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_follows_monotonic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
