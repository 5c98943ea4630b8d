// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the one tracefs file -e parses: a tracepoint's
 * events/<sys>/<name>/id (recorder/events/tracepoint.c). Its format file is
 * not parsed by prec: HEADER_TRACING_DATA carries it byte for byte and perf
 * reads it. Any bytes in; no crash, no read past them; an accepted id is the
 * number its leading digits say, with only blanks and newlines after them
 * up to the first NUL (which ends the text, as it ends perf's string).
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/events/tracepoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes: ASan catches any read past the end. */
	char *buf = malloc(size ? size : 1);
	uint64_t id = 0, want = 0;
	size_t i, end;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (tracepoint__parse_id(buf, size, &id) == 0) {
		end = size < 31 ? size : 31;
		if (memchr(buf, '\0', end))
			end = (size_t)((char *)memchr(buf, '\0', end) - buf);
		for (i = 0; i < end && buf[i] >= '0' && buf[i] <= '9'; i++)
			want = want * 10 + (uint64_t)(buf[i] - '0');
		if (!i || want != id)
			abort();
		for (; i < end; i++)
			if (buf[i] != ' ' && buf[i] != '\n')
				abort();
	}
	free(buf);
	return 0;
}
