// SPDX-License-Identifier: GPL-2.0-only
/* The feature byte buffer: perf's padded strings, placement, growth, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "writer/feat_sink.h"

static uint32_t u32_at(const struct feat_sink *s, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)feat_sink__data(s) + off, sizeof(v));
	return v;
}

static uint64_t u64_at(const struct feat_sink *s, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)feat_sink__data(s) + off, sizeof(v));
	return v;
}

/* strlen -> the u32 perf writes: strlen + 1 rounded up to 64. */
static const struct {
	size_t strlen;
	uint32_t padded;
} string_cases[] = {
	{ 0, 64 }, { 1, 64 }, { 63, 64 }, { 64, 128 }, { 65, 128 }, { 127, 128 }, { 128, 192 },
};

static void test_string_padding(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(string_cases) / sizeof(string_cases[0]); i++) {
		size_t n = string_cases[i].strlen, len = string_cases[i].padded;
		char *str = malloc(n + 1);
		const uint8_t *b;
		struct feat_sink s;

		assert_non_null(str);
		memset(str, 'a' + (int)(i % 26), n);
		str[n] = '\0';
		feat_sink__init(&s);
		assert_int_equal(feat_sink__put_string(&s, str), 0);
		assert_int_equal(feat_sink__len(&s), 4 + len);
		assert_int_equal(u32_at(&s, 0), len);
		b = (const uint8_t *)feat_sink__data(&s) + 4;
		assert_memory_equal(b, str, n);
		for (size_t j = n; j < len; j++) /* the NUL and the padding */
			assert_int_equal(b[j], 0);
		feat_sink__exit(&s);
		free(str);
	}
}

static void test_null_string_is_empty(void **state)
{
	struct feat_sink s;
	const uint8_t *b;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(feat_sink__put_string(&s, NULL), 0);
	assert_int_equal(feat_sink__len(&s), 68);
	assert_int_equal(u32_at(&s, 0), 64);
	b = feat_sink__data(&s);
	for (size_t j = 4; j < 68; j++)
		assert_int_equal(b[j], 0);
	feat_sink__exit(&s);
}

/* Native endian, packed: no alignment padding between values. */
static void test_number_placement(void **state)
{
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(feat_sink__put_u32(&s, 0x11223344u), 0);
	assert_int_equal(feat_sink__put_u64(&s, 0x8877665544332211ull), 0);
	assert_int_equal(feat_sink__put_u32(&s, 7), 0);
	assert_int_equal(feat_sink__put_zeros(&s, 3), 0);
	assert_int_equal(feat_sink__put_bytes(&s, "xy", 2), 0);
	assert_int_equal(feat_sink__len(&s), 4 + 8 + 4 + 3 + 2);
	assert_int_equal(u32_at(&s, 0), 0x11223344u);
	assert_int_equal(u64_at(&s, 4), 0x8877665544332211ull);
	assert_int_equal(u32_at(&s, 12), 7);
	assert_memory_equal((const uint8_t *)feat_sink__data(&s) + 16, "\0\0\0xy", 5);
	feat_sink__exit(&s);
}

static void test_growth(void **state)
{
	enum { TOTAL = 1 << 20 };
	uint8_t *want = malloc(TOTAL), chunk[3001];
	struct feat_sink s;
	size_t done = 0;

	(void)state;
	assert_non_null(want);
	feat_sink__init(&s);
	while (done < TOTAL) {
		size_t n = TOTAL - done < sizeof(chunk) ? TOTAL - done : sizeof(chunk);

		for (size_t i = 0; i < n; i++)
			chunk[i] = (uint8_t)((done + i) * 31);
		memcpy(want + done, chunk, n);
		assert_int_equal(feat_sink__put_bytes(&s, chunk, n), 0);
		done += n;
	}
	assert_int_equal(feat_sink__len(&s), TOTAL);
	assert_true(s.cap >= TOTAL);
	assert_memory_equal(feat_sink__data(&s), want, TOTAL);
	feat_sink__exit(&s);
	assert_int_equal(feat_sink__len(&s), 0);
	/* usable again after exit */
	assert_int_equal(feat_sink__put_u32(&s, 1), 0);
	feat_sink__exit(&s);
	feat_sink__exit(NULL);
	free(want);
}

/* The first error sticks until a truncate rolls the sink back. */
static void test_sticky_error_and_truncate(void **state)
{
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(feat_sink__put_u64(&s, 42), 0);
	assert_int_equal(feat_sink__put_bytes(&s, "x", SIZE_MAX), -E2BIG);
	assert_int_equal(feat_sink__err(&s), -E2BIG);
	assert_int_equal(feat_sink__put_u32(&s, 1), -E2BIG);
	assert_int_equal(feat_sink__put_string(&s, "a"), -E2BIG);
	assert_int_equal(feat_sink__len(&s), 8);
	feat_sink__truncate(&s, 8);
	assert_int_equal(feat_sink__err(&s), 0);
	assert_int_equal(feat_sink__put_u32(&s, 5), 0);
	assert_int_equal(feat_sink__len(&s), 12);
	feat_sink__truncate(&s, 4);
	assert_int_equal(feat_sink__len(&s), 4);
	feat_sink__truncate(&s, 100); /* never grows */
	assert_int_equal(feat_sink__len(&s), 4);
	assert_int_equal(u32_at(&s, 0), 42);
	feat_sink__exit(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_string_padding),
		cmocka_unit_test(test_null_string_is_empty),
		cmocka_unit_test(test_number_placement),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_sticky_error_and_truncate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
