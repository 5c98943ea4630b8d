/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_MOUNTS_H
#define PREC_MOUNTS_H
/*
 * The one reader of /proc/mounts and the one tracefs finder (base/mounts.c).
 * The line parser and the lookups over a mounts text are pure (unit-tested
 * and fuzzed); the live finders read /proc/mounts.
 */
#include <stdbool.h>
#include <stddef.h>

/* One line of /proc/mounts: "dev dir type opts freq passno", fields unescaped
 * only when copied out (mounts__unescape). opts may be empty (len 0). */
struct mounts_entry {
	const char *dev, *dir, *type, *opts;
	size_t dev_len, dir_len, type_len, opts_len;
};

/*
 * Splits the line line[0..len) (no newline) into its fields, separated by
 * blanks or tabs. Returns 0, or -EINVAL when it has fewer than three fields
 * (dev, dir, type).
 */
int mounts__split(const char *line, size_t len, struct mounts_entry *e);

/*
 * Copies the mount point field s[0..len) into buf[size], decoding the
 * kernel's \ooo escapes (\040 for a space), then suffix (may be ""). Returns
 * 0 or -ENAMETOOLONG.
 */
int mounts__unescape(const char *s, size_t len, const char *suffix, char *buf, size_t size);

/*
 * Finds the first mount of fstype in the text of /proc/mounts and copies its
 * mount point (unescaped) into buf. Returns 0, -ENOENT (none), -ENAMETOOLONG
 * (buf too small). Pure.
 */
int mounts__find(const char *text, const char *fstype, char *buf, size_t size);

/*
 * mounts__find for the first fstype mount whose options hold opt (a whole
 * comma-separated item; NULL: any); when there is none, the first mount of
 * fallback_type (NULL: none). Same returns. Pure.
 */
int mounts__find_opt(const char *text, const char *fstype, const char *opt,
		     const char *fallback_type, char *buf, size_t size);

/*
 * Reads the mounts table at path (proc_dir/mounts, "/proc/mounts" live) into
 * a malloc'd NUL-terminated *text (caller frees). Returns 0 or -errno.
 */
int mounts__read(const char *path, char **text);

/*
 * The tracefs root named by a mounts text, as perf finds it: the first
 * tracefs mount, else the first debugfs mount + "/tracing" (*via_debugfs
 * set; may be NULL). Returns 0, -ENOENT, -ENAMETOOLONG, -EINVAL (NULL text or
 * no buffer). Pure.
 */
int mounts__tracefs(const char *text, char *buf, size_t size, bool *via_debugfs);

/*
 * The live tracefs root, as perf 6.1 finds it: the tracefs mount in
 * /proc/mounts, else debugfs's tracing/ when it holds events/, else
 * /sys/kernel/tracing or /sys/kernel/debug/tracing when they hold events/;
 * when none is there, tracefs is mounted on /sys/kernel/tracing, as perf 6.1
 * does (reported under -v; a failure too). Returns 0, -ENAMETOOLONG when the
 * mount point does not fit buf, or -ENOENT.
 */
int tracefs__find(char *buf, size_t size);

/* The live sysfs mount point from /proc/mounts, else "/sys". Returns 0. */
int sysfs__find(char *buf, size_t size);

#endif
