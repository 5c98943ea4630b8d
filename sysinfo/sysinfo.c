// SPDX-License-Identifier: GPL-2.0-only
/*
 * The snapshot entry point: open the root once, hand its fd to each part.
 * Every path below is relative to that fd, so a fixture tree and "/" are read
 * by the same code.
 */
#define _GNU_SOURCE /* O_PATH */
#include "sysinfo_int.h"
#include "prec/bpf.h"
#include "cache_pmu.h"
#include "topology.h"

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

	/* uts first: the cpu part picks perf's per-arch rules by si->arch;
	 * topology and caches need the CPU counts. */
	sysinfo__read_uts(si, rootfd, live);
	err = sysinfo__read_cpu(si, rootfd);
	if (!err)
		err = sysinfo__read_mem(si, rootfd);
	if (!err)
		err = sysinfo__read_topology(si, rootfd);
	if (!err)
		err = sysinfo__read_numa(si, rootfd, live);
	if (!err)
		err = sysinfo__read_mem_topology(si, rootfd);
	if (!err)
		err = sysinfo__read_caches(si, rootfd);
	if (!err)
		err = sysinfo__read_pmus(si, rootfd);
	/* Loaded BPF programs exist only on the live system. */
	if (!err && live)
		err = sysinfo__read_bpf(&si->bpf);
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
	sysinfo__free_topology(si);
	sysinfo__free_cache_pmu(si);
	sysinfo_bpf__delete(si->bpf);
	si->bpf = NULL;
}
