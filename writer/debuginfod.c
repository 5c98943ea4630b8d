// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one file that talks to libdebuginfod (prec/debuginfod.h): a query for
 * one build-id's debug file to the servers the caller names, bounded by how
 * long it may make no progress. The library is loaded when --debuginfod
 * first needs it, not linked: it brings libcurl and its TLS, Kerberos and
 * LDAP chain (about 30 libraries, 4-5 MB resident once their constructors
 * ran) into every recording otherwise. Built as stubs that answer -ENOTSUP
 * when its header was not found (PREC_DEBUGINFOD).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
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
#include <dlfcn.h>
#include <pthread.h>

#include <elfutils/debuginfod.h>

/* What the package libdebuginfod1 installs (the header's ABI). */
#define DEBUGINFOD_SONAME "libdebuginfod.so.1"

/*
 * The library's entry points, typed by its header. The process's, as the
 * library itself would be when linked: filled once, never unloaded.
 */
static struct {
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_end) *end;
	__typeof__(debuginfod_find_debuginfo) *find_debuginfo;
	__typeof__(debuginfod_set_progressfn) *set_progressfn;
	__typeof__(debuginfod_set_user_data) *set_user_data;
	__typeof__(debuginfod_get_user_data) *get_user_data;
	bool ok;
	char why[320]; /* the line for the user when it cannot be loaded */
} lib;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void lib__load(void)
{
	void *h = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *why;

	if (h) {
		lib.begin = (__typeof__(lib.begin))dlsym(h, "debuginfod_begin");
		lib.end = (__typeof__(lib.end))dlsym(h, "debuginfod_end");
		lib.find_debuginfo =
			(__typeof__(lib.find_debuginfo))dlsym(h, "debuginfod_find_debuginfo");
		lib.set_progressfn =
			(__typeof__(lib.set_progressfn))dlsym(h, "debuginfod_set_progressfn");
		lib.set_user_data =
			(__typeof__(lib.set_user_data))dlsym(h, "debuginfod_set_user_data");
		lib.get_user_data =
			(__typeof__(lib.get_user_data))dlsym(h, "debuginfod_get_user_data");
		lib.ok = lib.begin && lib.end && lib.find_debuginfo && lib.set_progressfn &&
			 lib.set_user_data && lib.get_user_data;
		if (lib.ok)
			return;
	}
	/* dlerror's text names the file and why (absent, not an ELF). */
	why = h ? NULL : dlerror();
	snprintf(
		lib.why, sizeof(lib.why),
		"cannot load %s (%s): install the package libdebuginfod1 (apt-get install libdebuginfod1)",
		DEBUGINFOD_SONAME, why ? why : "it lacks the debuginfod_* functions prec calls");
	if (h)
		dlclose(h);
}

bool debuginfod__available(void)
{
	pthread_once(&lib_once, lib__load);
	return lib.ok;
}

const char *debuginfod__missing(void)
{
	return debuginfod__available() ? NULL : lib.why;
}

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
	struct query *q = lib.get_user_data(c);

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
	if (!debuginfod__available())
		return -ENOTSUP;
	fd = urls__swap_in(urls, &saved, &swapped);
	if (fd)
		return fd;
	c = lib.begin();
	if (!c) {
		urls__restore(saved, swapped);
		return -ENOMEM;
	}
	q.last_ns = mono_clock__ns(false);
	lib.set_user_data(c, &q);
	lib.set_progressfn(c, query__progress);
	/* Length 0: the id is given as hex text. */
	fd = lib.find_debuginfo(c, (const unsigned char *)sbid, 0, path);
	lib.end(c);
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

const char *debuginfod__missing(void)
{
	return DEBUGINFOD_MISSING_HINT;
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
