// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for base's /proc/mounts reader: any bytes in, as a mounts
 * text (lookups by type, by option with a fallback, the tracefs rule) and as
 * one line (split, unescape into a small buffer); no crash, no read past the
 * text, and a mount point found is a NUL-terminated string inside the buffer.
 * Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -I include tests/fuzz/fuzz_mounts.c base/mounts.c base/log.c -o fuzz_mounts
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prec/mounts.h"

static void check(int err, const char *buf, size_t size)
{
	if (!err && strnlen(buf, size) == size)
		abort();
	if (err && err != -ENOENT && err != -ENAMETOOLONG)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct mounts_entry e;
	char buf[64];
	bool debugfs;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	check(mounts__find(text, "tracefs", buf, sizeof(buf)), buf, sizeof(buf));
	check(mounts__find_opt(text, "cgroup", "perf_event", "cgroup2", buf, sizeof(buf)), buf,
	      sizeof(buf));
	check(mounts__tracefs(text, buf, sizeof(buf), &debugfs), buf, sizeof(buf));
	check(mounts__tracefs(text, buf, 1, &debugfs), buf, 1);
	if (!mounts__split(text, size, &e)) {
		if (e.dir + e.dir_len > text + size || e.opts + e.opts_len > text + size)
			abort();
		check(mounts__unescape(e.dir, e.dir_len, "/tracing", buf, sizeof(buf)), buf,
		      sizeof(buf));
	}
	free(text);
	return 0;
}
