// SPDX-License-Identifier: GPL-2.0-only
/*
 * base/error.c: a set error keeps its code and line, a NULL object only
 * passes the code on, a positive code becomes -EINVAL, set replaces, the
 * prefix adds context (also to an error with no line), clear frees, and
 * print prints once then holds nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "prec/error.h"

static void test_set_and_msg(void **state)
{
	struct prec_err e = PREC_ERR_INIT;

	(void)state;
	assert_false(prec_err__is_set(&e));
	assert_string_equal(prec_err__msg(&e), "");
	assert_int_equal(prec_err__set(&e, -ENOENT, "no %s here (make %d)", "x", 1), -ENOENT);
	assert_true(prec_err__is_set(&e));
	assert_int_equal(e.code, -ENOENT);
	assert_string_equal(prec_err__msg(&e), "no x here (make 1)");
	assert_int_equal(prec_err__set(&e, 5, "again"), -EINVAL);
	assert_string_equal(prec_err__msg(&e), "again");
	prec_err__clear(&e);
	assert_false(prec_err__is_set(&e));
	assert_null(e.msg);
}

static void test_null_object(void **state)
{
	(void)state;
	assert_int_equal(prec_err__set(NULL, -EBUSY, "ignored"), -EBUSY);
	assert_int_equal(prec_err__prefix(NULL, "p"), 0);
	prec_err__clear(NULL);
	prec_err__print(NULL, NULL);
	assert_false(prec_err__is_set(NULL));
}

static void test_prefix(void **state)
{
	struct prec_err e = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(prec_err__prefix(&e, "nothing"), 0);
	assert_false(prec_err__is_set(&e));
	prec_err__set(&e, -EACCES, "cannot open 'f'");
	assert_int_equal(prec_err__prefix(&e, "--%s", "control"), -EACCES);
	assert_string_equal(prec_err__msg(&e), "--control: cannot open 'f'");
	prec_err__clear(&e);
	e.code = -ENOMEM;
	assert_string_equal(prec_err__msg(&e), strerror(ENOMEM));
	prec_err__prefix(&e, "the events");
	assert_string_equal(prec_err__msg(&e), "the events: Cannot allocate memory");
	prec_err__clear(&e);
}

static void test_print_clears(void **state)
{
	struct prec_err e = PREC_ERR_INIT;

	(void)state;
	prec_err__set(&e, -EIO, "a line");
	prec_err__print(&e, NULL);
	assert_false(prec_err__is_set(&e));
	e.code = -EIO;
	prec_err__print(&e, "reading");
	assert_false(prec_err__is_set(&e));
	e.no_mem = true;
	assert_string_equal(prec_err__msg(&e), "out of memory (free some memory and retry)");
	prec_err__print(&e, NULL);
	assert_false(prec_err__is_set(&e));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_and_msg),
		cmocka_unit_test(test_null_object),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_print_clears),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
