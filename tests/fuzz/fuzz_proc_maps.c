// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the /proc/PID/maps line parser: any bytes in, no
 * crash, no read outside the buffer, and an accepted line must agree with
 * itself (name inside the line and before its end, flags as the perms say).
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "recorder/synth/proc_maps.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes: ASan catches any read past the end. */
	char *buf = malloc(size ? size : 1);
	const char *nl;
	struct proc_map m;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (proc_maps__parse_line(buf, size, &m) == 0) {
		nl = memchr(buf, '\n', size);
		if (m.start > m.end || (m.prot & ~(uint32_t)(PROT_READ | PROT_WRITE | PROT_EXEC)) ||
		    (m.flags != MAP_PRIVATE && m.flags != MAP_SHARED))
			abort();
		if (m.name_len) {
			if (!m.name || m.name < buf || m.name + m.name_len > buf + size ||
			    (nl && m.name + m.name_len > nl) || memchr(m.name, '\n', m.name_len) ||
			    memchr(m.name, '\0', m.name_len) || m.name[0] == ' ')
				abort();
		} else if (m.deleted) {
			abort();
		}
	}
	free(buf);
	return 0;
}
