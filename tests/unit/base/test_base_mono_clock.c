// SPDX-License-Identifier: GPL-2.0-only
/*
 * The interval clock (base/mono_clock.c): it never goes back, it follows
 * CLOCK_MONOTONIC, and the coarse read is within a tick or so of the
 * precise one; a condition variable made by mono_clock__cond_init waits
 * until a deadline on that clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
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

/* A deadline 50 ms ahead on the mono clock: a timed wait on the condition
 * ends with ETIMEDOUT no sooner (a cond on CLOCK_REALTIME would take the
 * deadline as decades past and return at once), and not hours later. */
static void test_cond_waits_on_mono(void **state)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c;
	struct timespec until;
	uint64_t t0, took;
	int err;

	(void)state;
	assert_int_equal(mono_clock__cond_init(&c), 0);
	t0 = mono_clock__ns(false);
	until = mono_clock__timespec(mono_clock__deadline_ns(50));
	pthread_mutex_lock(&m);
	do /* nobody signals: a 0 is a spurious wakeup */
		err = pthread_cond_timedwait(&c, &m, &until);
	while (!err);
	pthread_mutex_unlock(&m);
	took = mono_clock__elapsed_ns(t0);
	assert_int_equal(err, ETIMEDOUT);
	assert_true(took >= 50 * 1000000ull);
	assert_true(took < 5 * 1000000000ull);
	pthread_cond_destroy(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_follows_monotonic),
		cmocka_unit_test(test_cond_waits_on_mono),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
