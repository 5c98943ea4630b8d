/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_SYSINFO_INT_H
#define PREC_SYSINFO_INT_H
/*
 * The parts sysinfo__read is made of, and the pure parsers under them, kept
 * visible so unit tests and fuzzers can drive them over plain buffers.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sysinfo;
struct cpulist;

/*
 * Fills hostname, osrelease and arch from proc/sys/kernel/ under rootfd.
 * With live set (the root is "/"), a field whose file cannot be read comes
 * from uname(2) instead (proc/sys/kernel/arch only exists since Linux 6.1).
 * Returns 0; fields that stay unknown are "".
 */
int sysinfo__read_uts(struct sysinfo *si, int rootfd, bool live);

/*
 * Fills nr_cpus_avail, nr_cpus_online, cpudesc and cpuid. Needs si->arch
 * (read first) to pick perf's per-architecture rules. Returns 0 or -ENOMEM;
 * fields that stay unknown are 0/NULL.
 */
int sysinfo__read_cpu(struct sysinfo *si, int rootfd);

/*
 * The online CPU list (sys/devices/system/cpu/online) under rootfd into *online;
 * the one reader of it for sysinfo's parts. Returns 0, a parse error or a read
 * error; release *online with cpulist__exit.
 */
int cpu__online(int rootfd, struct cpulist *online);

/* Fills total_mem_kb from proc/meminfo. Returns 0; unknown stays 0. */
int sysinfo__read_mem(struct sysinfo *si, int rootfd);

/*
 * Finds the first line of a /proc/cpuinfo buffer whose key (text before the
 * first ':', trailing blanks dropped) is exactly key, and points *val and *vlen at
 * its value with surrounding blanks dropped. With first_block, the search
 * stops at the first blank line after a non-blank one (the first processor).
 * Returns 0 or -ENOENT; the value may be empty.
 */
int cpuinfo__find(const char *buf, size_t len, const char *key, bool first_block, const char **val,
		  size_t *vlen);

/*
 * The keys perf's write_cpudesc tries, in order, on the architecture whose
 * uname machine is arch. Returns a NULL-terminated static array.
 */
const char *const *cpudesc__keys(const char *arch);

/*
 * CPUDESC as perf writes it: the first of cpudesc__keys(arch) found anywhere
 * in the cpuinfo buffer, with every run of whitespace squashed to one space
 * and the ends trimmed. Returns 0 with a malloc'd *desc, -ENOENT when no key
 * has a non-empty value, or -ENOMEM. *desc is NULL on failure.
 */
int cpuinfo__cpudesc(const char *buf, size_t len, const char *arch, char **desc);

/*
 * x86 CPUID as perf writes it, "vendor,family,model,stepping" (decimal), from
 * the first processor block of a cpuinfo buffer (the kernel has already folded
 * the extended family/model in, as perf does from the cpuid instruction).
 * Returns 0 with a malloc'd *cpuid, -ENOENT/-EINVAL when a field is missing or
 * not a number, or -ENOMEM. *cpuid is NULL on failure.
 */
int cpuinfo__x86_cpuid(const char *buf, size_t len, char **cpuid);

/*
 * arm64 CPUID as perf writes it: MIDR_EL1 with Variant[23:20] and
 * Revision[3:0] cleared, as "0x%016lx". Returns 0 with a malloc'd *cpuid,
 * -EINVAL when the masked value is 0 (perf then writes none), or -ENOMEM.
 */
int midr__cpuid(uint64_t midr, char **cpuid);

/*
 * MemTotal from a /proc/meminfo buffer, in kB ("MemTotal:  123 kB"; the unit
 * may be missing, any other unit is refused). Returns 0, -ENOENT, -EINVAL or
 * -ERANGE; *kb is untouched on failure.
 */
int meminfo__total_kb(const char *buf, size_t len, uint64_t *kb);

#endif
