#ifndef PREC_TRACEPOINT_H
#define PREC_TRACEPOINT_H
/*
 * Tracepoints for -e sys:name below a tracefs root: the id of
 * events/<sys>/<name>/id, and the sys:glob expansions perf 6.1 makes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prec/mounts.h" /* tracefs__find, sysfs__find: where the roots are */

/*
 * Reads the id of tracepoint sys:name below tracefs. Returns 0, -ENOENT
 * (no such tracepoint, or a name that is not a plain file name), -EACCES
 * (tracefs not readable by this user), -EINVAL (an id file that is not a
 * number).
 */
int tracepoint__id(const char *tracefs, const char *sys, const char *name, uint64_t *id);

/*
 * Parses the text of a tracepoint's id file: base's tracefs__parse_id
 * (prec/tracefs.h), the one parser of it. Pure. 0 and *id, or -EINVAL.
 */
int tracepoint__parse_id(const char *buf, size_t len, uint64_t *id);

/* Called for each match; a non-zero return stops the walk and is returned. */
typedef int (*tracepoint_fn)(void *arg, const char *sys, const char *name, uint64_t id);

/*
 * Calls fn for every tracepoint whose system matches sys_glob and whose
 * name matches name_glob (fnmatch patterns: * ? [...]). Order: directory
 * order, as perf adds them, or by name when sorted (as perf list prints
 * them). Entries without a readable id are skipped. Returns the number of
 * matches, fn's non-zero return, or -errno when tracefs/events cannot be
 * opened.
 */
int tracepoints__for_each(const char *tracefs, const char *sys_glob, const char *name_glob,
			  bool sorted, tracepoint_fn fn, void *arg);

/* perf's test for a glob in a tracepoint name: it holds '*' or '?'. */
bool tracepoint__is_glob(const char *s);

#endif
