// SPDX-License-Identifier: GPL-2.0-only
/*
 * --debuginfod's servers reach the build-id cache as an argument
 * (struct buildid_cache.debuginfod_urls), never through the environment:
 * the cache asks exactly the servers it is given, none when given none
 * whatever $DEBUGINFOD_URLS says, and leaves the environment as it was.
 * The query is wrapped (-Wl,--wrap=debuginfod__find_debuginfo) to see what
 * the cache passes; the real one is run against a port that refuses, to see
 * that libdebuginfod asked the given servers and not the environment's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/buildid.h"
#include "prec/buildid_cache.h"
#include "prec/debuginfod.h"
#include "prec/writer.h"

/* What the cache asked of the servers. */
static int nr_queries;
static char asked[256];

int __real_debuginfod__find_debuginfo(const char *urls, const char *sbid, int stall_ms,
				      char **path);
int __wrap_debuginfod__find_debuginfo(const char *urls, const char *sbid, int stall_ms,
				      char **path);

int __wrap_debuginfod__find_debuginfo(const char *urls, const char *sbid, int stall_ms, char **path)
{
	(void)sbid;
	(void)stall_ms;
	nr_queries++;
	snprintf(asked, sizeof(asked), "%s", urls ? urls : "(null)");
	*path = NULL;
	return -ENOENT; /* no server has it: the next DSO is asked too */
}

struct fill {
	char dir[64]; /* the temp dir: the cache root and libdebuginfod's cache */
	char root[PATH_MAX];
	char exe[PATH_MAX]; /* this test's binary, the one DSO */
	struct writer_buildid v;
};

static int fill_setup(void **state)
{
	struct fill *f = calloc(1, sizeof(*f));
	char *real = realpath("/proc/self/exe", NULL);
	struct build_id bid;

	if (!f || !real)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/prec-debuginfod.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->root, sizeof(f->root), "%s/.debug", f->dir);
	snprintf(f->exe, sizeof(f->exe), "%s", real);
	free(real);
	if (buildid__read_file(f->exe, &bid))
		return -1;
	f->v.size = bid.size;
	memcpy(f->v.id, bid.data, bid.size);
	f->v.filename = f->exe;
	nr_queries = 0;
	asked[0] = '\0';
	*state = f;
	return 0;
}

static int fill_teardown(void **state)
{
	struct fill *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	unsetenv("DEBUGINFOD_URLS");
	return 0;
}

/* Without servers given, nobody is asked, whatever the environment says. */
static void test_no_urls_no_query(void **state)
{
	struct fill *f = *state;
	struct buildid_cache c;
	struct build_id bid = { .size = f->v.size };

	assert_int_equal(setenv("DEBUGINFOD_URLS", "http://from-the-environment.invalid", 1), 0);
	buildid_cache__init(&c, f->root);
	assert_null(c.debuginfod_urls);
	assert_int_equal(buildid_cache__add_list(&c, &f->v, 1), 1);
	assert_int_equal(nr_queries, 0);
	memcpy(bid.data, f->v.id, bid.size);
	assert_int_equal(buildid_cache__fetch_debug(&c, f->exe, &bid), -EINVAL);
	assert_int_equal(nr_queries, 0);
}

/* The servers given are the ones asked, as given; the environment stays. */
static void test_urls_as_argument(void **state)
{
	struct fill *f = *state;
	struct buildid_cache c;

	assert_int_equal(setenv("DEBUGINFOD_URLS", "http://from-the-environment.invalid", 1), 0);
	buildid_cache__init(&c, f->root);
	c.debuginfod_urls = "http://a.invalid http://b.invalid";
	assert_int_equal(buildid_cache__add_list(&c, &f->v, 1), 1);
	assert_int_equal(nr_queries, 1);
	assert_string_equal(asked, "http://a.invalid http://b.invalid");
	assert_string_equal(getenv("DEBUGINFOD_URLS"), "http://from-the-environment.invalid");

	/* No environment at all: still the servers given, and none set after. */
	unsetenv("DEBUGINFOD_URLS");
	buildid_cache__init(&c, f->root);
	c.debuginfod_urls = "http://c.invalid";
	assert_int_equal(buildid_cache__add_list(&c, &f->v, 1), 1);
	assert_int_equal(nr_queries, 2);
	assert_string_equal(asked, "http://c.invalid");
	assert_null(getenv("DEBUGINFOD_URLS"));
}

/*
 * The real query: libdebuginfod reads its servers from the environment
 * only, so they are put there for the query and the user's value put back.
 * With the user's DEBUGINFOD_URLS empty libdebuginfod would answer -ENOSYS;
 * a refused connection shows it asked the server given.
 */
static void test_libdebuginfod_asks_the_given(void **state)
{
	struct fill *f = *state;
	char sbid[SBUILD_ID_LEN], cache[PATH_MAX], *path = (char *)"unset";
	struct build_id bid = { .size = f->v.size };
	int ret;

	if (!debuginfod__available())
		skip(); /* built without libdebuginfod: every query is -ENOTSUP */
	memcpy(bid.data, f->v.id, bid.size);
	buildid__snprintf(&bid, sbid, sizeof(sbid));
	assert_int_equal(__real_debuginfod__find_debuginfo(NULL, sbid, 1000, &path), -EINVAL);
	assert_null(path);
	assert_int_equal(__real_debuginfod__find_debuginfo("", sbid, 1000, &path), -EINVAL);
	/* libdebuginfod's own cache in the temp dir, not under HOME. */
	snprintf(cache, sizeof(cache), "%s/client", f->dir);
	assert_int_equal(setenv("DEBUGINFOD_CACHE_PATH", cache, 1), 0);
	assert_int_equal(setenv("DEBUGINFOD_URLS", "", 1), 0);
	ret = __real_debuginfod__find_debuginfo("http://127.0.0.1:1", sbid, 5000, &path);
	unsetenv("DEBUGINFOD_CACHE_PATH");
	if (ret != -ECONNREFUSED)
		print_error("libdebuginfod answered %d\n", ret);
	assert_int_equal(ret, -ECONNREFUSED);
	assert_true(debuginfod__unreachable(ret));
	assert_null(path);
	assert_string_equal(getenv("DEBUGINFOD_URLS"), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_urls_no_query, fill_setup, fill_teardown),
		cmocka_unit_test_setup_teardown(test_urls_as_argument, fill_setup, fill_teardown),
		cmocka_unit_test_setup_teardown(test_libdebuginfod_asks_the_given, fill_setup,
						fill_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
