// SPDX-License-Identifier: GPL-2.0-only
/* The monotonic clock for intervals (prec/mono_clock.h): readings, elapsed
 * time and deadlines, the only clock_gettime of CLOCK_MONOTONIC in prec. */
#include <time.h>

#include "prec/mono_clock.h"

#define NS_PER_SEC 1000000000ull

uint64_t mono_clock__ns(bool coarse)
{
	struct timespec ts;

	clock_gettime(coarse ? CLOCK_MONOTONIC_COARSE : CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t mono_clock__elapsed_ns(uint64_t since_ns)
{
	uint64_t now = mono_clock__ns(false);

	return now > since_ns ? now - since_ns : 0;
}

uint64_t mono_clock__deadline_ns(uint64_t ms)
{
	return mono_clock__ns(false) + ms * 1000000ull;
}

struct timespec mono_clock__timespec(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / NS_PER_SEC),
			       .tv_nsec = (long)(ns % NS_PER_SEC) };

	return ts;
}

bool mono_clock__left(uint64_t deadline_ns, struct timespec *left)
{
	uint64_t now = mono_clock__ns(false);

	/* At the deadline itself there is a zero timeout left, not none. */
	*left = mono_clock__timespec(now <= deadline_ns ? deadline_ns - now : 0);
	return now <= deadline_ns;
}

int mono_clock__cond_init(pthread_cond_t *c)
{
	pthread_condattr_t ca;
	int err = pthread_condattr_init(&ca);

	if (!err)
		err = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(c, &ca);
	pthread_condattr_destroy(&ca);
	return err;
}
