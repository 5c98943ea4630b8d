// SPDX-License-Identifier: GPL-2.0-only
/*
 * pr_err: one line, "prec: " first, control characters made '?', and the
 * whole message however long, so a fix that follows a long quoted argument
 * is never cut off.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/log.h"

static char out[LOG_MSG_MAX + 64];

/* Runs pr_err("'%s' (%s)", quoted, fix) with stderr captured into out. */
static void capture(const char *quoted, const char *fix)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	size_t n;

	assert_non_null(f);
	fflush(stderr);
	dup2(fileno(f), 2);
	pr_err("'%s' (%s)", quoted, fix);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
}

static void test_long_message_whole(void **state)
{
	static const size_t lens[] = { 10, 1000, 1017, 1018, 5000, 128 * 1024 };

	(void)state;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		char *arg = malloc(lens[i] + 1);
		size_t n;

		assert_non_null(arg);
		memset(arg, 'x', lens[i]);
		arg[lens[i]] = '\0';
		capture(arg, "use a shorter one");
		n = strlen(out);
		assert_int_equal(n, strlen("prec: ''  (use a shorter one)\n") - 1 + lens[i]);
		assert_memory_equal(out, "prec: '", 7);
		assert_string_equal(out + n - 20, "(use a shorter one)\n");
		assert_null(strchr(out, '\n') == out + n - 1 ? NULL : out);
		free(arg);
	}
}

static void test_one_line(void **state)
{
	(void)state;
	capture("a\nb\tc\x7f", "fix");
	assert_string_equal(out, "prec: 'a?b?c?' (fix)\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_message_whole),
		cmocka_unit_test(test_one_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
