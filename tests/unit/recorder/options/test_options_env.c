// SPDX-License-Identifier: GPL-2.0-only
/*
 * The environment variables that stand for options are read once
 * (options_env__read) and made final by options__validate, so nothing after
 * reads or changes the environment: --debuginfod with no URLs takes
 * $DEBUGINFOD_URLS (perf's "system"), given URLs win, no --debuginfod asks
 * no one; $PREC_TEST_SYSROOT, the tests' seam, is passed on as it is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "recorder/options/options.h"

/* Parses then validates args (NULL-ended, after "prec") with env. */
static int run(struct record_opts *opts, const char *const *args, const struct options_env *env)
{
	char *argv[16] = { "prec" };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int argc = 1, ret;

	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	ret = options__parse(opts, argc, argv, &e);
	if (!ret)
		ret = options__validate(opts, env, &e);
	return ret;
}

static void test_debuginfod_urls(void **state)
{
	static const struct {
		const char *args[3];
		const char *env; /* $DEBUGINFOD_URLS; NULL unset */
		const char *want; /* opts.debuginfod_urls after validate */
	} rows[] = {
		{ { "--debuginfod", "true" }, "http://env", "http://env" },
		{ { "--debuginfod=system", "true" }, "http://env", "http://env" },
		{ { "--debuginfod=http://a http://b", "true" }, "http://env", "http://a http://b" },
		{ { "--debuginfod=http://a", "true" }, NULL, "http://a" },
		{ { "--debuginfod", "true" }, NULL, NULL }, /* the recording says it is not set */
		{ { "--debuginfod", "true" }, "", NULL },
		{ { "true" }, "http://env", NULL }, /* without the option: no server */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct options_env env = { .debuginfod_urls = rows[i].env };
		struct record_opts o;

		assert_int_equal(run(&o, rows[i].args, &env), 0);
		if (rows[i].want)
			assert_string_equal(o.debuginfod_urls, rows[i].want);
		else
			assert_null(o.debuginfod_urls);
		assert_int_equal(o.debuginfod, strcmp(rows[i].args[0], "true") != 0);
		options__exit(&o);
	}
}

static void test_test_sysroot(void **state)
{
	struct options_env env = { .test_sysroot = "/fixtures/amd" };
	struct record_opts o;

	(void)state;
	assert_int_equal(run(&o, (const char *[]){ "true", NULL }, &env), 0);
	assert_string_equal(o.test_sysroot, "/fixtures/amd");
	options__exit(&o);
	env.test_sysroot = NULL;
	assert_int_equal(run(&o, (const char *[]){ "true", NULL }, &env), 0);
	assert_null(o.test_sysroot);
	options__exit(&o);
}

/* options_env__read reads the process's environment, nothing else. */
static void test_read(void **state)
{
	struct options_env env;

	(void)state;
	assert_int_equal(setenv("DEBUGINFOD_URLS", "http://env", 1), 0);
	assert_int_equal(setenv(PREC_TEST_SYSROOT_ENV, "/fixtures/arm64", 1), 0);
	options_env__read(&env);
	assert_string_equal(env.debuginfod_urls, "http://env");
	assert_string_equal(env.test_sysroot, "/fixtures/arm64");
	unsetenv("DEBUGINFOD_URLS");
	unsetenv(PREC_TEST_SYSROOT_ENV);
	options_env__read(&env);
	assert_null(env.debuginfod_urls);
	assert_null(env.test_sysroot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debuginfod_urls),
		cmocka_unit_test(test_test_sysroot),
		cmocka_unit_test(test_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
