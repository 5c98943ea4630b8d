/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_SYSINFO_CACHE_PMU_H
#define PREC_SYSINFO_CACHE_PMU_H
/*
 * CACHE and the PMU features (PMU_MAPPINGS, CPU_PMU_CAPS, PMU_CAPS,
 * HYBRID_TOPOLOGY) as perf 6.1 gathers them, and the pure parsers under them
 * (kept visible for unit tests and the fuzzer). Internal to sysinfo/.
 *
 * What the readers leave in struct sysinfo (on top of include/prec/sysinfo.h):
 *  - caches: the distinct cpuN/cache/indexM entries of every possible CPU,
 *    M < SYSINFO_MAX_CACHE_IDX, in discovery order (CPU, then index), then
 *    stably sorted by level: the order perf writes, and caches_known set
 *    (also with no cache directory at all: perf writes 0 entries). A present
 *    index that cannot be read makes perf drop CACHE altogether; we leave it
 *    empty with caches_known false.
 *  - pmus: the event sources perf 6.1 would list, in readdir order. A PMU is
 *    left out when perf would leave it out: no readable decimal `type`, a
 *    format/ file its grammar refuses, an events/ that is not a directory, or
 *    a "cpu_*" name without a `cpus` file that starts with a CPU number.
 *  - pmus[i].caps: the caps/ files in readdir order (perf's order), each
 *    value cut as perf cuts it (see pmu_cap__value); files perf cannot read
 *    a line from are left out. No caps/ is no caps; a caps/ that exists but
 *    cannot be listed (a file, say) is no caps with caps_unreadable set.
 *  - pmus[i].cpus: set only for hybrid PMUs (perf 6.1: a "cpu_*" PMU with a
 *    cpus file), to the first line of that file. cpus != NULL is therefore
 *    "this is a hybrid core PMU" (HYBRID_TOPOLOGY, PMU_CAPS ordering); the
 *    cpus files of other PMUs (arm's per-cluster PMUs) are not exposed,
 *    because perf 6.1 does not treat those as hybrid.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sysinfo;

/* perf's count of CPUs when cpu/possible cannot be read (cpumap.c set_max_cpu_num). */
#define SYSINFO_DEFAULT_MAX_CPUS 4096

/* perf's MAX_CACHE_LVL: it reads cpuN/cache/index0..3 and stops at the first gap. */
#define SYSINFO_MAX_CACHE_IDX 4

/* perf reads a caps/ value with fgets into a buffer of this size. */
#define PMU_CAP_LINE_MAX 128

/*
 * Fills si->caches/nr_caches from sys/devices/system/cpu under rootfd. Walks
 * CPUs 0 .. max(possible)+1 as perf's cpu__max_cpu() does (4096 CPUs when
 * cpu/possible is unreadable), so offline CPUs count where the kernel still
 * shows their cache/. Returns 0 (caches possibly empty; see
 * caches_known) or -ENOMEM (caches empty, caches_known false).
 */
int sysinfo__read_caches(struct sysinfo *si, int rootfd);

/*
 * Fills si->pmus/nr_pmus from sys/bus/event_source/devices under rootfd.
 * Returns 0 (pmus possibly empty) or -ENOMEM (pmus empty).
 */
int sysinfo__read_pmus(struct sysinfo *si, int rootfd);

/*
 * Reorders si->pmus the way `perf record` 6.1 lists them when it looks up its
 * auxtrace PMUs (auxtrace_record__init) before it scans all the others:
 *  - x86 (si->arch x86_64/i?86), only when si->cpuid starts "GenuineIntel,"
 *    (perf asks get_cpuid() first; on AMD and other vendors, or without a
 *    cpuid, nothing moves): intel_pt, then intel_bts;
 *  - arm/arm64: cs_etm, then arm_spe_N by N (N < nr_cpus_avail when known),
 *    then the *hisi_ptt* PMUs in directory order (read from perf's source,
 *    not checked against an arm perf);
 * each only where present; the rest keep their order. That is perf's order
 * with the default event or when every -e event is a software symbol
 * (cpu-clock, task-clock, page-faults, context-switches, dummy, ...):
 * confirmed with perf 6.1 for the default, cpu-clock, task-clock and dummy.
 * Any other event (cycles, rNNN, cache events, tracepoints, pmu/.../) makes
 * perf's event parser scan every PMU first, and perf keeps plain directory
 * order (confirmed for cycles and sched:sched_switch): do not call it then.
 * Other architectures: no change.
 */
/* (declared in prec/sysinfo.h) */

/* Frees caches and pmus and leaves them NULL/0; accepts NULL or a zeroed struct. */
void sysinfo__free_cache_pmu(struct sysinfo *si);

/* The caches' half of sysinfo__free_cache_pmu (si must not be NULL). */
void sysinfo__free_caches(struct sysinfo *si);

/*
 * A sysfs number: optional surrounding whitespace, decimal digits only, at
 * most UINT32_MAX. Returns 0, -EINVAL, or -ERANGE; *val is untouched on
 * failure. (perf uses atoi/"%u", which take garbage as 0 or wrap; a sysfs
 * that prints garbage is not one perf's output can be matched on.)
 */
int sysfs_value__u32(const char *s, size_t len, uint32_t *val);

/*
 * A sysfs string as perf's strim leaves it: cut at the first NUL, then
 * leading and trailing whitespace dropped. Returns 0 with a malloc'd *out
 * (possibly ""), or -ENOMEM.
 */
int sysfs_value__str(const char *s, size_t len, char **out);

/*
 * A caps/ value exactly as perf 6.1 keeps it: the first line as fgets reads
 * it into PMU_CAP_LINE_MAX bytes (newline included, at most 127 bytes), cut
 * at the first NUL, minus its last character (the newline, normally; perf
 * drops the last byte whatever it is). Returns 0 with a malloc'd *out;
 * -ENODATA for an empty file (fgets fails, perf skips the cap); -ENOMEM.
 */
int pmu_cap__value(const char *s, size_t len, char **out);

/*
 * Whether perf 6.1's format grammar accepts the content of a format/ file:
 * one or more "config|config1|config2 ':' bits" terms, bits being
 * "N" or "N-M" joined by ','. Any other byte is skipped by its lexer; a
 * number past ULONG_MAX is an error. perf drops the whole PMU otherwise.
 */
bool pmu_format__valid(const char *s, size_t len);

/*
 * perf 6.1's hybrid test on a cpu_* PMU's cpus file: fscanf("%u") succeeds,
 * i.e. after leading whitespace comes an optional sign and a digit.
 */
bool pmu_cpus__hybrid(const char *s, size_t len);

/* Whether dirfd/name exists at all (perf's stat()-based file_available). */
bool pmu_dir__has(int dirfd, const char *name);

/*
 * The type file of the PMU directory pmufd (perf_event_attr.type), as
 * sysfs_value__u32 reads it. Returns 0, -EINVAL/-ERANGE for a value that is
 * not one, or the read error (-ENOENT when there is none).
 */
int pmu_dir__type(int pmufd, uint32_t *type);

/*
 * The cpus list of a hybrid core PMU (perf 6.1: a "cpu_*" PMU whose cpus
 * file passes pmu_cpus__hybrid), its first line without the newline, in a
 * malloc'd *cpus. Returns 0, 1 when name/pmufd is no hybrid PMU (*cpus
 * NULL), or -ENOMEM. The one reader of that file, for the features and -e.
 */
int pmu_dir__hybrid_cpus(int pmufd, const char *name, char **cpus);

#endif
