// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sysctls (prec/sysinfo.h): the one reader of /proc/sys values the recorder
 * depends on (perf_event_paranoid, perf_event_max_sample_rate,
 * perf_event_mlock_kb, ...), relative to a root fd like every sysinfo part.
 */
#define _GNU_SOURCE /* O_PATH */
#include "fsread.h"

#include <prec/number.h>
#include <prec/sysinfo.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int sysinfo__sysctl(int rootfd, const char *name, int64_t *val)
{
	char path[256];
	const char *s;
	size_t len;
	uint64_t v;
	bool neg = false;
	char *buf;
	int err;

	if ((size_t)snprintf(path, sizeof(path), "proc/sys/%s", name) >= sizeof(path))
		return -ENAMETOOLONG;
	err = fsread__file(rootfd, path, &buf, &len);
	if (err)
		return err;
	s = buf;
	text__trim(&s, &len);
	/* perf_event_paranoid may be -1: the one signed value we read. */
	if (len && s[0] == '-') {
		neg = true;
		s++;
		len--;
	}
	/* "- 5" and "--5" are not numbers: a digit must follow the sign. */
	err = neg && (!len || s[0] < '0' || s[0] > '9') ? -EINVAL : u64__parse(s, len, 10, &v);
	free(buf);
	if (err)
		return err;
	if (v > (uint64_t)INT64_MAX)
		return -ERANGE;
	*val = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int64_t sysinfo__sysctl_or(const char *name, int64_t dflt)
{
	int rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int64_t v;
	int err;

	if (rootfd < 0)
		return dflt;
	err = sysinfo__sysctl(rootfd, name, &v);
	close(rootfd);
	return err ? dflt : v;
}
