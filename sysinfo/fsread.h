/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_SYSINFO_FSREAD_H
#define PREC_SYSINFO_FSREAD_H
/*
 * Small-file readers relative to a root directory fd, and the pure parsers
 * behind them. Internal to sysinfo/ (tests and other modules may use it on
 * purpose). Paths are relative to the root ("proc/cpuinfo"); leading slashes
 * are skipped so that a caller's "/proc/..." can never escape a fixture root.
 * Everything returns 0 or a negative errno and touches no globals.
 */
#include <stddef.h>
#include <dirent.h>
#include <stdint.h>

/* /proc and /sys files we read are a few KiB; anything bigger is not one of them. */
#define FSREAD_MAX_SIZE (1u << 20)

/* CPU numbers must be below this: far above any NR_CPUS, small enough to bitmap. */
#define CPULIST_CPU_LIMIT (1u << 20)

/* A set of CPU numbers; bits[] covers CPUs 0 .. nr_bits-1, nr_bits = highest CPU + 1. */
struct cpulist {
	uint64_t *bits;
	uint32_t nr_bits;
};

/*
 * Reads the whole file at dirfd/path into a malloc'd, NUL-terminated buffer.
 * Returns 0 with *bufp owned by the caller (free()) and *lenp its length
 * (lenp may be NULL); -EFBIG past FSREAD_MAX_SIZE; or the -errno of
 * openat/read. *bufp is NULL on failure.
 */
int fsread__file(int dirfd, const char *path, char **bufp, size_t *lenp);

/* Opens dirfd/path as a directory stream (close it with closedir). NULL
 * with errno set. */
DIR *fsread__opendir(int dirfd, const char *path);

/*
 * Copies the first line of dirfd/path, without its newline and otherwise
 * verbatim, into dst[size] (for utsname-style values that must stay exact).
 * Returns 0, -EOVERFLOW when it does not fit, -EINVAL when it holds a NUL,
 * or a read error. dst is "" on failure.
 */
int fsread__line(int dirfd, const char *path, char *dst, size_t size);

/*
 * Copies the content of dirfd/path with leading and trailing whitespace
 * removed into dst[size]. Returns 0, -EOVERFLOW when it does not fit,
 * -EINVAL when it holds a NUL, or a read error. dst is "" on failure.
 */
int fsread__str(int dirfd, const char *path, char *dst, size_t size);

/*
 * Reads an unsigned number in base 10 or 16 (see u64__parse) from dirfd/path.
 * Returns 0, -EINVAL, -ERANGE, or a read error; *val is untouched on failure.
 */
int fsread__u64(int dirfd, const char *path, unsigned int base, uint64_t *val);

/*
 * Parses the cpu list in dirfd/path into *cl (see cpulist__parse). Returns 0,
 * a parse error, or a read error. The caller releases *cl with cpulist__exit.
 */
int fsread__cpulist(int dirfd, const char *path, struct cpulist *cl);

/*
 * Strict unsigned parse of s[0..len): optional surrounding whitespace, then
 * digits only (base 10), or hex digits with an optional 0x/0X (base 16).
 * No sign, no empty value, no embedded NUL. Returns 0, -EINVAL for anything
 * else (including base other than 10/16), -ERANGE past UINT64_MAX.
 */
int u64__parse(const char *s, size_t len, unsigned int base, uint64_t *val);

/*
 * Parses a kernel cpu list ("0-3,8,10-11", as sysfs prints it) from
 * s[0..len) into *cl. Surrounding whitespace is allowed; ranges may come in
 * any order and overlap. Returns 0; -ENODATA when the list is empty (sysfs
 * prints "\n" for e.g. a CPU-less node: callers that accept that test for
 * it); -EINVAL for malformed input ("1-", "3-1", "a", "1,,2", " 1 2"); -ERANGE
 * for a CPU >= CPULIST_CPU_LIMIT; -ENOMEM. *cl is zeroed on failure.
 */
int cpulist__parse(const char *s, size_t len, struct cpulist *cl);

/* Frees cl's bitmap and zeroes it; accepts a zeroed or already-exited list. */
void cpulist__exit(struct cpulist *cl);

/* Returns the number of distinct CPUs in cl (0 for an empty list). */
uint32_t cpulist__count(const struct cpulist *cl);

/* Returns the highest CPU in cl, or -1 when cl is empty. */
int cpulist__max(const struct cpulist *cl);

/* Returns the lowest CPU in cl that is >= from, or -1 when there is none. */
int cpulist__next(const struct cpulist *cl, uint32_t from);

/* Returns 1 when cpu is in cl, else 0. */
int cpulist__has(const struct cpulist *cl, uint32_t cpu);

#endif
