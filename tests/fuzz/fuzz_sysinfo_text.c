// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the text sysinfo reads from /proc and sysfs for the
 * header features and had no harness: /proc/cpuinfo (CPUDESC on several
 * architectures' keys, the x86 CPUID, any key), /proc/meminfo (MemTotal),
 * nodeN/meminfo (NUMA_TOPOLOGY), memory/block_size_bytes (MEM_TOPOLOGY),
 * sysfs integers and the base number parsers they share. The same bytes go
 * to each parser; no crash, no read outside them, and results within their
 * contracts (CPUDESC trimmed, single-spaced, no longer than the input; a
 * CPUID of four comma-separated fields; a cpuinfo value inside the buffer).
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prec/number.h"
#include "sysinfo/sysinfo_int.h"
#include "sysinfo/topology.h"

static const char *const fz_arches[] = { "x86_64", "aarch64", "ppc64le", "s390x", "sh4", "mips" };

static void fz_cpuinfo(const char *buf, size_t len)
{
	const char *val;
	size_t vlen;
	char *out;
	int commas = 0;

	for (size_t i = 0; i < sizeof(fz_arches) / sizeof(fz_arches[0]); i++) {
		if (cpuinfo__cpudesc(buf, len, fz_arches[i], &out))
			continue;
		size_t n = strlen(out);

		if (!n || n > len || out[0] == ' ' || out[n - 1] == ' ' || strstr(out, "  ") ||
		    strpbrk(out, "\t\n"))
			abort();
		free(out);
	}
	if (cpuinfo__x86_cpuid(buf, len, &out) == 0) {
		for (const char *p = out; *p; p++)
			commas += *p == ',';
		if (commas < 3)
			abort();
		free(out);
	} else if (out) {
		abort();
	}
	if (cpuinfo__find(buf, len, "model name", false, &val, &vlen) == 0 &&
	    (val < buf || val + vlen > buf + len))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes: ASan catches any read past the end. */
	char *buf = malloc(size ? size : 1);
	uint64_t a = 0, b = 0;
	uint32_t a32;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	fz_cpuinfo(buf, size);
	meminfo__total_kb(buf, size, &a);
	node_meminfo__parse(buf, size, &a, &b);
	if (block_size__parse(buf, size, &a) == -ENODATA && size)
		abort();
	topo__atoi(buf, size);
	u64__parse(buf, size, 10, &a);
	u64__parse(buf, size, 16, &a);
	u32__parse(buf, size, 10, &a32);
	free(buf);
	return 0;
}
