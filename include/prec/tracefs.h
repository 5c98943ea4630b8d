/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_TRACEFS_H
#define PREC_TRACEFS_H
/*
 * The one reader of tracefs event id files, events/<sys>/<name>/id
 * (base/tracefs.c): the -e parser's tracepoint lookup and the TRACING_DATA
 * feature's walk both read ids here. Where tracefs is comes from
 * tracefs__find (prec/mounts.h).
 */
#include <stddef.h>
#include <stdint.h>

/*
 * Parses the text of an id file (len bytes at buf, at most the first 31
 * looked at, a NUL ending them as it ends perf's string): decimal digits,
 * then only newlines or blanks. Pure. 0 and *id, or -EINVAL.
 */
int tracefs__parse_id(const char *buf, size_t len, uint64_t *id);

/*
 * Reads event_dir/id, event_dir relative to dirfd (AT_FDCWD, or a
 * directory fd such as events/<sys>), with one read as perf does. Returns 0
 * and *id; -ENOENT when it is missing (ENOTDIR too); -ENAMETOOLONG; -EINVAL
 * when it is not a number (tracefs__parse_id); or the -errno of reading it.
 */
int tracefs__read_id(int dirfd, const char *event_dir, uint64_t *id);

#endif
