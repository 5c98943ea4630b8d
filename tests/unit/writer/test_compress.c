// SPDX-License-Identifier: GPL-2.0-only
/*
 * -z framing (writer/compress.c): spans become PERF_RECORD_COMPRESSED
 * records no larger than the u16 size allows, each span flushed so no record
 * straddles two, and the records decompress, in order, to the spans.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "prec/event.h"
#include "writer/compress.h"

struct sink {
	ZSTD_DCtx *dctx;
	unsigned char *out;
	size_t out_len, out_cap;
	int records;
	size_t max_record;
	size_t max_decompressed; /* bytes one record decompressed to, at most */
};

static int collect(void *arg, const void *rec, size_t len)
{
	struct sink *s = arg;
	const struct perf_event_header *h = rec;
	ZSTD_inBuffer ib = { (const char *)rec + 8, len - 8, 0 };
	size_t before = s->out_len;

	assert_int_equal(h->type, PERF_RECORD_COMPRESSED);
	assert_int_equal(h->size, len);
	assert_true(len <= 0xffff);
	s->records++;
	if (len > s->max_record)
		s->max_record = len;
	while (ib.pos < ib.size) {
		ZSTD_outBuffer ob = { s->out + s->out_len, s->out_cap - s->out_len, 0 };

		assert_false(ZSTD_isError(ZSTD_decompressStream(s->dctx, &ob, &ib)));
		s->out_len += ob.pos;
	}
	if (s->out_len - before > s->max_decompressed)
		s->max_decompressed = s->out_len - before;
	return 0;
}

static void test_roundtrip(void **state)
{
	size_t n = 3 << 20;
	unsigned char *a = malloc(n), *b = malloc(n / 3);
	struct compressor *c = compressor__new(1);
	struct sink s = { ZSTD_createDCtx(), malloc(n + n / 3), 0, n + n / 3, 0, 0, 0 };
	struct iovec iov[2];
	unsigned int x = 1;

	(void)state;
	assert_non_null(c);
	/* Barely compressible data forces many full-size records. */
	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		a[i] = (unsigned char)(x >> 24);
	}
	memset(b, 'r', n / 3);
	iov[0].iov_base = a;
	iov[0].iov_len = n;
	iov[1].iov_base = b;
	iov[1].iov_len = n / 3;
	assert_int_equal(compressor__push(c, iov, 2, collect, &s), 0);
	assert_int_equal(s.out_len, n + n / 3);
	assert_memory_equal(s.out, a, n);
	assert_memory_equal(s.out + n, b, n / 3);
	assert_true(s.records > 40);
	assert_true(s.max_record <= 8 + COMPRESSED_MAX_PAYLOAD);
	assert_true(s.max_decompressed <= n); /* never more than one span */
	assert_int_equal(compressor__in_bytes(c), n + n / 3);
	assert_true(compressor__out_bytes(c) < n + n / 3);
	compressor__delete(c);
	ZSTD_freeDCtx(s.dctx);
	free(s.out);
	free(a);
	free(b);
}

static void test_levels(void **state)
{
	(void)state;
	assert_null(compressor__new(0));
	assert_null(compressor__new(23));
	compressor__delete(compressor__new(22));
	compressor__delete(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_levels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
