// SPDX-License-Identifier: GPL-2.0-only
/* TOTAL_MEM: MemTotal, which perf copies from /proc/meminfo in kB. */
#include "sysinfo_int.h"
#include "fsread.h"

#include <prec/sysinfo.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int meminfo__total_kb(const char *buf, size_t len, uint64_t *kb)
{
	static const char key[] = "MemTotal:";
	const size_t klen = sizeof(key) - 1;
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t vlen;

		if (!eol)
			eol = end;
		if ((size_t)(eol - p) >= klen && !memcmp(p, key, klen)) {
			p += klen;
			vlen = (size_t)(eol - p);
			/* Strip the unit; the kernel has printed kB here since 2.6. */
			while (vlen && (p[vlen - 1] == ' ' || p[vlen - 1] == '\t'))
				vlen--;
			if (vlen >= 2 && p[vlen - 2] == 'k' && p[vlen - 1] == 'B')
				vlen -= 2;
			return u64__parse(p, vlen, 10, kb);
		}
		p = eol + 1;
	}
	return -ENOENT;
}

int sysinfo__read_mem(struct sysinfo *si, int rootfd)
{
	uint64_t kb;
	size_t len;
	char *buf;

	if (fsread__file(rootfd, "proc/meminfo", &buf, &len))
		return 0;
	if (!meminfo__total_kb(buf, len, &kb))
		si->total_mem_kb = kb;
	free(buf);
	return 0;
}
