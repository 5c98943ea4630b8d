/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_SYSINFO_H
#define PREC_SYSINFO_H
/*
 * A snapshot of the machine, read from /proc and /sys under a root directory
 * ("/" on the live system, a fixture tree in tests). Plain data out: no
 * printing, no globals. A file that is missing or unparsable leaves its part
 * empty (NULL string, zero count); it is never an error that stops a recording.
 */
#include <stdint.h>

#define SYSINFO_STR_MAX 65 /* utsname field size */

struct sysinfo {
	char hostname[SYSINFO_STR_MAX]; /* "" when unknown */
	char osrelease[SYSINFO_STR_MAX];
	char arch[SYSINFO_STR_MAX]; /* uname machine, e.g. "x86_64" */
	uint32_t nr_cpus_avail; /* highest present CPU + 1; 0 when unknown */
	uint32_t nr_cpus_online; /* CPUs in the online list; 0 when unknown */
	char *cpudesc; /* CPU model, runs of blanks squashed; NULL when unknown */
	char *cpuid; /* e.g. "GenuineIntel,6,167,1"; NULL when unknown */
	uint64_t total_mem_kb; /* MemTotal; 0 when unknown */
};

/*
 * Fills *si (zeroed first) from the tree under root (NULL or "/" means the
 * live system; only there does uname(2) fill gaps). Returns 0, or a negative
 * errno when root itself cannot be opened (or -ENOMEM; *si is then empty).
 * Missing parts are left empty. The caller owns *si and releases it with
 * sysinfo__exit.
 */
int sysinfo__read(struct sysinfo *si, const char *root);

/* Frees what sysinfo__read allocated; accepts a zeroed or already-exited struct. */
void sysinfo__exit(struct sysinfo *si);

/*
 * Environment variable that points sysinfo at a fixture root instead of "/"
 * (tests only; main reads it once).
 */
#define PREC_SYSROOT_ENV "PREC_SYSROOT"

#endif
