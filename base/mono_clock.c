// SPDX-License-Identifier: GPL-2.0-only
/* The monotonic clock for intervals (prec/mono_clock.h). */
#include <time.h>

#include "prec/mono_clock.h"

uint64_t mono_clock__ns(bool coarse)
{
	struct timespec ts;

	clock_gettime(coarse ? CLOCK_MONOTONIC_COARSE : CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
