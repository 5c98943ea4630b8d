// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for base's cpu-list and number parsers: any bytes in,
 * no crash, no leak, and an accepted list must agree with itself.
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "prec/cpulist.h"
#include "prec/number.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct cpulist cl;
	uint32_t n = 0;
	uint64_t v;

	if (cpulist__parse(s, size, &cl) == 0) {
		int max = cpulist__max(&cl);

		if (max < 0 || (uint32_t)max >= CPULIST_CPU_LIMIT ||
		    !cpulist__has(&cl, (uint32_t)max))
			abort();
		for (int c = cpulist__next(&cl, 0); c >= 0; c = cpulist__next(&cl, (uint32_t)c + 1))
			n++;
		if (n == 0 || n != cpulist__count(&cl))
			abort();
	} else if (cl.bits || cl.nr_bits) {
		abort();
	}
	cpulist__exit(&cl);
	u64__parse(s, size, 10, &v);
	u64__parse(s, size, 16, &v);
	return 0;
}
