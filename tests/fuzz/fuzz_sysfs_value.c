// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the sysfs value parsers behind CACHE and the PMU
 * features: any bytes in, no crash, no leak, and each result within its
 * contract (numbers that read back, strings trimmed and no longer than the
 * input, caps values at most one fgets line long).
 * Built and run by the suite: see CMakeLists.txt here.
 */
#define _GNU_SOURCE /* memmem */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/cache_pmu.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	uint32_t v = 0;
	char *out;

	if (sysfs_value__u32(s, size, &v) == 0) {
		char buf[16];

		/* An accepted number is its own digits, give or take whitespace and zeros. */
		snprintf(buf, sizeof(buf), "%u", v);
		if (!memmem(s, size, buf, strlen(buf)) && v != 0)
			abort();
	}

	if (sysfs_value__str(s, size, &out) == 0) {
		size_t n = strlen(out);

		if (n > size || (n && (is_space(out[0]) || is_space(out[n - 1]))))
			abort();
		free(out);
	}

	if (pmu_cap__value(s, size, &out) == 0) {
		size_t n = strlen(out);

		if (n > size || n > PMU_CAP_LINE_MAX - 2 || memchr(out, '\n', n))
			abort();
		free(out);
	} else if (size) {
		abort(); /* only an empty file has no line */
	}

	(void)pmu_format__valid(s, size);
	(void)pmu_cpus__hybrid(s, size);
	return 0;
}
