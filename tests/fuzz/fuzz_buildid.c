// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the ELF build-id reader: any bytes in, as a whole ELF
 * image and as a raw run of notes (both alignments, both byte orders); no
 * crash, no read outside the buffer, and a build-id found is 1..20 bytes with
 * zeros after its size.
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prec/buildid.h"

static void check(int err, const struct build_id *bid)
{
	if (err == 0) {
		if (bid->size < 1 || bid->size > BUILD_ID_MAX)
			abort();
		for (unsigned int i = bid->size; i < BUILD_ID_MAX; i++)
			if (bid->data[i])
				abort();
	} else if (err != -EINVAL && err != -ENOENT && err != -ENOMEM) {
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes: ASan catches any read past the end. */
	uint8_t *buf = malloc(size ? size : 1);
	struct build_id bid;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	check(buildid__from_elf(buf, size, &bid), &bid);
	for (unsigned int align = 4; align <= 8; align += 4) {
		check(buildid__parse_notes(buf, size, align, false, &bid), &bid);
		check(buildid__parse_notes(buf, size, align, true, &bid), &bid);
	}
	free(buf);
	return 0;
}
