// SPDX-License-Identifier: GPL-2.0-only
/*
 * The snapshot entry point: open the root once, hand its fd to each part.
 * Every path below is relative to that fd, so a fixture tree and "/" are read
 * by the same code.
 */
#define _GNU_SOURCE /* O_PATH */
#include "sysinfo_int.h"

#include <prec/sysinfo.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sysinfo__read(struct sysinfo *si, const char *root)
{
	bool live = !root || !strcmp(root, "/");
	int rootfd, err;

	memset(si, 0, sizeof(*si));
	/* O_PATH: we only resolve names under it, and it works on a root we cannot list. */
	rootfd = open(live ? "/" : root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;

	/* uts first: the cpu part picks perf's per-arch rules by si->arch. */
	sysinfo__read_uts(si, rootfd, live);
	err = sysinfo__read_cpu(si, rootfd);
	if (!err)
		err = sysinfo__read_mem(si, rootfd);
	close(rootfd);
	if (err)
		sysinfo__exit(si);
	return err;
}

void sysinfo__exit(struct sysinfo *si)
{
	if (!si)
		return;
	free(si->cpudesc);
	free(si->cpuid);
	si->cpudesc = NULL;
	si->cpuid = NULL;
}
