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

#include "prec/cpulist.h" /* struct cpulist, cpulist__* */
#include "prec/number.h" /* u64__parse */

/* /proc and /sys files we read are a few KiB; anything bigger is not one of them. */
#define FSREAD_MAX_SIZE (1u << 20)

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
 * The first line of rootfd/path as perf's getline() sees it, cut at the first
 * newline (a NUL inside ends it for every later strcmp/strlen, as in perf).
 * Returns 0 with a malloc'd *line ("" for a file holding just "\n"),
 * -ENODATA for an empty file, -ENOMEM, or the read error (*line NULL).
 */
int fsread__first_line(int rootfd, const char *path, char **line);

/*
 * Reads an unsigned number in base 10 or 16 (see u64__parse, prec/number.h) from dirfd/path.
 * Returns 0, -EINVAL, -ERANGE, or a read error; *val is untouched on failure.
 */
int fsread__u64(int dirfd, const char *path, unsigned int base, uint64_t *val);

/* fsread__u64 in base 10, at most UINT32_MAX (-ERANGE past it), as sysfs_value__u32. */
int fsread__u32(int dirfd, const char *path, uint32_t *val);

/*
 * Parses the cpu list in dirfd/path into *cl (see cpulist__parse, prec/cpulist.h). Returns 0,
 * a parse error, or a read error. The caller releases *cl with cpulist__exit.
 */
int fsread__cpulist(int dirfd, const char *path, struct cpulist *cl);

#endif
