// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the /proc/PID files synthesis parses besides maps
 * (recorder/synth): status (Name, Tgid, PPid, VmPeak/Threads, as perf finds
 * them) and the parent pid of stat (after the comm, which may hold ')' and
 * spaces). Any bytes in, each cut to what its reader reads (4095 and 511
 * bytes, NUL-terminated); no crash, no read outside the buffer, and the
 * results within their contracts (a comm of at most 15 bytes with no
 * newline, a pid only on success).
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/synth/sideband.h"
#include "recorder/synth/synthesize.h"
#include "recorder/targets/proc_status.h"

/* A NUL-terminated copy of at most max bytes of data, as a read() leaves it. */
static char *fz_text(const uint8_t *data, size_t size, size_t max)
{
	size_t n = size < max ? size : max;
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, data, n);
		s[n] = '\0';
	}
	return s;
}

static void fz_status(const uint8_t *data, size_t size)
{
	struct proc_status st;
	char *s = fz_text(data, size, 4095);
	int ret;

	if (!s)
		return;
	ret = proc_status__parse(s, &st);
	if (ret != 0 && ret != -ESRCH)
		abort();
	if ((ret == 0) != (st.tgid >= 0) || memchr(st.comm, '\0', sizeof(st.comm)) == NULL ||
	    strchr(st.comm, '\n') || (st.kernel && strstr(s, "Threads:") == NULL))
		abort();
	free(s);
}

static void fz_stat(const uint8_t *data, size_t size)
{
	char *s = fz_text(data, size, 511);
	int ppid;

	if (!s)
		return;
	ppid = proc_stat__ppid(s);
	if (ppid != -EINVAL && (ppid < 0 || !strchr(s, ')')))
		abort();
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_status(data, size);
	fz_stat(data, size);
	return 0;
}
