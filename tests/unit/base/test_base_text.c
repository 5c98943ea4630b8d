// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one whitespace predicate and hex-digit reader (base/number.c) against
 * what their callers used before: libc's isspace and isxdigit in the "C"
 * locale (prec never calls setlocale), for every byte, so swapping them in
 * changes nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdlib.h>

#include "prec/number.h"

static void test_blank_is_c_isspace(void **state)
{
	(void)state;
	for (int c = 0; c < 256; c++)
		assert_int_equal(text__is_blank((char)c), isspace(c) != 0);
}

static void test_hex_digit_is_c_xdigit(void **state)
{
	(void)state;
	for (int c = 0; c < 256; c++) {
		char s[2] = { (char)c, '\0' };

		if (!isxdigit(c)) {
			assert_int_equal(hex__digit((char)c), -1);
			continue;
		}
		assert_int_equal(hex__digit((char)c), (int)strtol(s, NULL, 16));
	}
}

static void test_trim(void **state)
{
	const char *s = " \t\v\f\r\nab c\n\n";
	size_t len = 12;

	(void)state;
	text__trim(&s, &len);
	assert_int_equal(len, 4);
	assert_memory_equal(s, "ab c", 4);
	s = " \n";
	len = 2;
	text__trim(&s, &len);
	assert_int_equal(len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blank_is_c_isspace),
		cmocka_unit_test(test_hex_digit_is_c_xdigit),
		cmocka_unit_test(test_trim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
