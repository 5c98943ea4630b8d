// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one file that talks to libdebuginfod (prec/debuginfod.h): a query for
 * one build-id's debug file to the servers the caller names, bounded by how
 * long it may make no progress. Built as stubs that answer -ENOTSUP when the
 * library was not found.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/debuginfod.h"
#include "prec/mono_clock.h"

bool debuginfod__unreachable(int err)
{
	return err == -ETIMEDOUT || err == -ECONNREFUSED || err == -EHOSTUNREACH ||
	       err == -ENETUNREACH || err == -ECONNRESET || err == -ENOTSUP;
}

#ifdef PREC_HAVE_LIBDEBUGINFOD
#include <elfutils/debuginfod.h>

/* What the progress callback needs: when bytes last moved. */
struct query {
	long last_bytes;
	uint64_t last_ns;
	int stall_ms;
	bool stalled;
};

/*
 * Called about once a second while a query runs; nonzero aborts it. a is
 * the bytes received once a server answers, and until then libdebuginfod's
 * count of these calls: a step of one is no progress, so a server that
 * accepts but never answers is given up stall_ms after the start.
 */
static int query__progress(debuginfod_client *c, long a, long b)
{
	struct query *q = debuginfod_get_user_data(c);

	(void)b;
	if (a > q->last_bytes + 1) {
		q->last_bytes = a;
		q->last_ns = mono_clock__ns(false);
		return 0;
	}
	q->last_bytes = a;
	if ((int64_t)(mono_clock__elapsed_ns(q->last_ns) / 1000000) < q->stall_ms)
		return 0;
	q->stalled = true;
	return 1;
}

bool debuginfod__available(void)
{
	return true;
}

/*
 * libdebuginfod (0.188) takes its servers from $DEBUGINFOD_URLS alone, read
 * while it queries: *saved gets what the user had there (NULL unset) and
 * urls go there for the one query, unless they are there already (plain
 * --debuginfod). urls__restore puts the user's value back. 0 or -errno.
 */
static int urls__swap_in(const char *urls, char **saved, bool *swapped)
{
	const char *was = getenv("DEBUGINFOD_URLS");

	*saved = NULL;
	*swapped = !was || strcmp(was, urls);
	if (!*swapped)
		return 0;
	if (was && !(*saved = strdup(was)))
		return -ENOMEM;
	if (!setenv("DEBUGINFOD_URLS", urls, 1))
		return 0;
	free(*saved);
	*saved = NULL;
	return -errno;
}

static void urls__restore(char *saved, bool swapped)
{
	if (swapped && saved)
		setenv("DEBUGINFOD_URLS", saved, 1);
	else if (swapped)
		unsetenv("DEBUGINFOD_URLS");
	free(saved);
}

int debuginfod__find_debuginfo(const char *urls, const char *sbid, int stall_ms, char **path)
{
	struct query q = { .last_bytes = 0, .stall_ms = stall_ms };
	debuginfod_client *c;
	char *saved;
	bool swapped;
	int fd;

	*path = NULL;
	if (!urls || !*urls)
		return -EINVAL;
	fd = urls__swap_in(urls, &saved, &swapped);
	if (fd)
		return fd;
	c = debuginfod_begin();
	if (!c) {
		urls__restore(saved, swapped);
		return -ENOMEM;
	}
	q.last_ns = mono_clock__ns(false);
	debuginfod_set_user_data(c, &q);
	debuginfod_set_progressfn(c, query__progress);
	/* Length 0: the id is given as hex text. */
	fd = debuginfod_find_debuginfo(c, (const unsigned char *)sbid, 0, path);
	debuginfod_end(c);
	urls__restore(saved, swapped);
	if (fd >= 0) {
		close(fd);
		return *path ? 0 : -ENOMEM;
	}
	free(*path);
	*path = NULL;
	return q.stalled ? -ETIMEDOUT : fd;
}

#else

bool debuginfod__available(void)
{
	return false;
}

int debuginfod__find_debuginfo(const char *urls, const char *sbid, int stall_ms, char **path)
{
	(void)urls;
	(void)sbid;
	(void)stall_ms;
	*path = NULL;
	return -ENOTSUP;
}

#endif
