/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_DEBUGINFOD_H
#define PREC_DEBUGINFOD_H
/*
 * --debuginfod (writer/debuginfod.c): debug info of a build-id asked of
 * the debuginfod servers the caller names, through libdebuginfod, as
 * perf's build_id_cache__find_debug does when perf is built with it. The
 * library is loaded at the first use, so a recording without --debuginfod
 * never maps it. A prec built without libdebuginfod (its header was missing
 * at configure time), or one that cannot load it, says so and does nothing
 * else.
 */
#include <stdbool.h>

/*
 * Whether --debuginfod can work here: this prec was built with
 * libdebuginfod's header and libdebuginfod.so.1 loads. The first call loads
 * it (with libcurl and the rest it needs), so only --debuginfod pays for
 * it; later calls only answer.
 */
bool debuginfod__available(void);

/* The one line that says what is missing and how to get it, for the user;
 * NULL when debuginfod__available(). */
const char *debuginfod__missing(void);

/* That line for a prec built without the header. */
#define DEBUGINFOD_MISSING_HINT \
	"this prec was built without libdebuginfod: install libdebuginfod-dev (scripts/bootstrap) and rebuild"

/*
 * Asks the servers in urls (space-separated URLs, as $DEBUGINFOD_URLS
 * lists them; this environment variable is not what decides) for the debug
 * file of sbid (lower-case hex). A query that makes no progress for
 * stall_ms is given up, so a server that accepts but never answers costs
 * that long once. 0 and *path (the file in libdebuginfod's client cache,
 * caller frees); -EINVAL for NULL or empty urls; -ENOENT when no server has
 * it; -ETIMEDOUT when the query stalled; -ENOTSUP without libdebuginfod
 * (not built with it, or it does not load);
 * another -errno from libdebuginfod (-ECONNREFUSED, -EHOSTUNREACH, ...).
 * The environment is as it was on return. Never prints.
 */
int debuginfod__find_debuginfo(const char *urls, const char *sbid, int stall_ms, char **path);

/* Whether err says the servers cannot be reached at all (the next query
 * would fail the same way). */
bool debuginfod__unreachable(int err);

#endif
