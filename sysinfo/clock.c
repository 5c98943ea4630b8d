// SPDX-License-Identifier: GPL-2.0-only
/* Clock names, resolution and reference readings for -k (prec/clock.h): the
 * one reader of -k's clock. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>

#include "prec/clock.h"

struct clock_name {
	const char *name;
	int id;
};

/* perf's table: the long names first, so clockid__name prints those. */
static const struct clock_name clock_names[] = {
	{ "monotonic", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
	{ "mono", CLOCK_MONOTONIC },
	{ "raw", CLOCK_MONOTONIC_RAW },
	{ "real", CLOCK_REALTIME },
	{ "boot", CLOCK_BOOTTIME },
};

#define NR_CLOCK_NAMES (sizeof(clock_names) / sizeof(clock_names[0]))

int clockid__parse(const char *str, int *clockid)
{
	char *end;
	long v;

	if (!str || !*str)
		return -EINVAL;
	if (str[0] >= '0' && str[0] <= '9') {
		errno = 0;
		v = strtol(str, &end, 10);
		if (errno || *end || v > 0xffff)
			return -EINVAL;
		*clockid = (int)v;
		return 0;
	}
	if (!strncasecmp(str, "CLOCK_", 6))
		str += 6;
	for (size_t i = 0; i < NR_CLOCK_NAMES; i++) {
		if (!strcasecmp(str, clock_names[i].name)) {
			*clockid = clock_names[i].id;
			return 0;
		}
	}
	return -EINVAL;
}

const char *clockid__name(int clockid)
{
	for (size_t i = 0; i < NR_CLOCK_NAMES; i++)
		if (clock_names[i].id == clockid)
			return clock_names[i].name;
	return NULL;
}

int clock__now_ns(int clockid, uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(clockid, &ts))
		return -errno;
	*ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	return 0;
}

int clock__snapshot(int clockid, uint64_t *res_ns, uint64_t *tod_ns, uint64_t *clock_ns)
{
	struct timespec res;
	struct timeval tv;
	int err;

	if (clock_getres(clockid, &res))
		return -errno;
	*res_ns = (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec;
	/* As close together as two calls get: readers pair the two values. */
	if (gettimeofday(&tv, NULL))
		return -errno;
	err = clock__now_ns(clockid, clock_ns);
	if (err)
		return err;
	*tod_ns = (uint64_t)tv.tv_sec * 1000000000ULL + (uint64_t)tv.tv_usec * 1000ULL;
	return 0;
}
