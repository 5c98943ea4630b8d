// SPDX-License-Identifier: GPL-2.0-only
/*
 * The environment variables that stand for options are read once
 * (options_env__read) and made final by options__validate, so nothing after
 * reads or changes the environment: $PREC_TEST_SYSROOT, the tests' seam, is
 * passed on as it is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "recorder/options/options.h"

/* Parses then validates args (NULL-ended, after "prec") with env. */
static int run(struct record_opts *opts, const char *const *args, const struct options_env *env)
{
	char *argv[16] = { "prec" };
	char err[256];
	int argc = 1, ret;

	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	ret = options__parse(opts, argc, argv, err, sizeof(err));
	if (!ret)
		ret = options__validate(opts, env, err, sizeof(err));
	return ret;
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
	assert_int_equal(setenv(PREC_TEST_SYSROOT_ENV, "/fixtures/arm64", 1), 0);
	options_env__read(&env);
	assert_string_equal(env.test_sysroot, "/fixtures/arm64");
	unsetenv(PREC_TEST_SYSROOT_ENV);
	options_env__read(&env);
	assert_null(env.test_sysroot);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_test_sysroot),
		cmocka_unit_test(test_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
