// SPDX-License-Identifier: GPL-2.0-only
/*
 * --kcore, --vmlinux and --debuginfod through options__parse and
 * options__validate: perf's forms accepted with the values they mean,
 * and each command line that cannot work refused with one line naming it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "recorder/options/options.h"

/* Parses then validates args (NULL-ended, after "prec"), stdout a file. */
static int run(struct record_opts *opts, const char *const *args, struct prec_err *e)
{
	static const struct options_env env;
	char *argv[16] = { "prec" };
	int argc = 1, ret;

	while (args[argc - 1])
		argv[argc] = (char *)args[argc - 1], argc++;
	ret = options__parse(opts, argc, argv, e);
	if (!ret)
		ret = options__validate(opts, &env, e);
	return ret;
}

static void test_accepted(void **state)
{
	struct record_opts o;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(run(&o, (const char *[]){ "--kcore", "-a", NULL }, &e), 0);
	assert_true(o.kcore);
	assert_false(o.debuginfod);
	options__exit(&o);
	assert_int_equal(
		run(&o, (const char *[]){ "--vmlinux", "/proc/self/exe", "true", NULL }, &e), 0);
	assert_string_equal(o.vmlinux, "/proc/self/exe");
	options__exit(&o);
	/* No value and perf's "system": $DEBUGINFOD_URLS. */
	assert_int_equal(run(&o, (const char *[]){ "--debuginfod", "true", NULL }, &e), 0);
	assert_true(o.debuginfod);
	assert_null(o.debuginfod_urls);
	options__exit(&o);
	assert_int_equal(run(&o, (const char *[]){ "--debuginfod=system", "true", NULL }, &e), 0);
	assert_true(o.debuginfod);
	assert_null(o.debuginfod_urls);
	options__exit(&o);
	assert_int_equal(
		run(&o, (const char *[]){ "--debuginfod=http://a http://b", "true", NULL }, &e), 0);
	assert_string_equal(o.debuginfod_urls, "http://a http://b");
	options__exit(&o);
	/* --debuginfod takes its value only after '=': the next word is the command. */
	assert_int_equal(run(&o, (const char *[]){ "--debuginfod", "http://a", NULL }, &e), 0);
	assert_null(o.debuginfod_urls);
	assert_int_equal(o.argc, 1);
	options__exit(&o);
}

static void test_refused(void **state)
{
	static const struct {
		const char *args[6];
		const char *says;
	} rows[] = {
		{ { "--kcore", "-o", "-", "true" }, "pipe" },
		{ { "--kcore", "--switch-output", "true" }, "switch-output" },
		{ { "--kcore", "--timestamp-filename", "true" }, "timestamp-filename" },
		{ { "--vmlinux", "/nonexistent/vmlinux", "true" }, "No such file" },
		{ { "--vmlinux=/etc/hostname", "true" }, "not an ELF" },
		{ { "--vmlinux=/", "true" }, "not an ELF" },
		{ { "--vmlinux" }, "needs a value" },
		{ { "--debuginfod=", "true" }, "give the server URLs" },
	};
	struct record_opts o;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		prec_err__clear(&e);
		assert_int_equal(run(&o, rows[i].args, &e), -EINVAL);
		if (!strstr(prec_err__msg(&e), rows[i].says))
			fail_msg("row %zu: '%s' does not say '%s'", i, prec_err__msg(&e),
				 rows[i].says);
		assert_null(strchr(prec_err__msg(&e), '\n'));
		options__exit(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
