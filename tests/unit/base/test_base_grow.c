// SPDX-License-Identifier: GPL-2.0-only
/*
 * base/grow.c: nothing happens when the array holds enough; it doubles
 * from the minimum (or 8) to the first size that holds what is needed; the
 * bound cuts the last doubling and refuses more than it (-E2BIG, the array
 * untouched); the byte count never overflows; the zeroing variant zeroes
 * exactly the new elements.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>

#include "prec/grow.h"

static void test_doubles(void **state)
{
	int *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW(&a, &cap, 1, 1000), 0);
	assert_int_equal(cap, 8);
	a[7] = 7;
	assert_int_equal(GROW(&a, &cap, 8, 1000), 0);
	assert_int_equal(cap, 8);
	assert_int_equal(GROW(&a, &cap, 9, 1000), 0);
	assert_int_equal(cap, 16);
	assert_int_equal(a[7], 7);
	assert_int_equal(GROW(&a, &cap, 100, 1000), 0);
	assert_int_equal(cap, 128);
	free(a);
}

static void test_bound(void **state)
{
	char *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(grow__array(&a, &cap, 5, 1, 4, 12), 0);
	assert_int_equal(cap, 8);
	assert_int_equal(grow__array(&a, &cap, 9, 1, 4, 12), 0);
	assert_int_equal(cap, 12); /* 16 cut to the bound */
	char *keep = a;
	assert_int_equal(grow__array(&a, &cap, 13, 1, 4, 12), -E2BIG);
	assert_ptr_equal(a, keep);
	assert_int_equal(cap, 12);
	free(a);
}

static void test_overflow(void **state)
{
	uint64_t *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(GROW(&a, &cap, SIZE_MAX / 4, SIZE_MAX), -E2BIG);
	assert_null(a);
	assert_int_equal(cap, 0);
	assert_int_equal(grow__array(&a, &cap, 1, 0, 0, 10), -E2BIG);
}

static void test_zero(void **state)
{
	unsigned char *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(grow__array_zero(&a, &cap, 3, 1, 4, 64), 0);
	assert_int_equal(cap, 4);
	for (size_t i = 0; i < cap; i++)
		assert_int_equal(a[i], 0);
	a[0] = a[3] = 9;
	assert_int_equal(grow__array_zero(&a, &cap, 5, 1, 4, 64), 0);
	assert_int_equal(cap, 8);
	assert_int_equal(a[0], 9);
	assert_int_equal(a[3], 9);
	for (size_t i = 4; i < cap; i++)
		assert_int_equal(a[i], 0);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
