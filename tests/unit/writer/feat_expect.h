/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_TESTS_FEAT_EXPECT_H
#define PREC_TESTS_FEAT_EXPECT_H
/*
 * Shared by the feature-encoder tests: an independent builder for the bytes
 * perf 6.1 writes (strings, u32/u64), hex dumps of perf's own sections, and
 * the two checks every encoder test makes. Include after cmocka.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer/features.h"

struct tbuf {
	uint8_t *b;
	size_t n;
};

static inline void tb_put(struct tbuf *t, const void *p, size_t n)
{
	t->b = realloc(t->b, t->n + n + 1);
	assert_non_null(t->b);
	memcpy(t->b + t->n, p, n);
	t->n += n;
}

static inline void tb_u32(struct tbuf *t, uint32_t v)
{
	tb_put(t, &v, 4);
}

static inline void tb_u64(struct tbuf *t, uint64_t v)
{
	tb_put(t, &v, 8);
}

/* perf's do_write_string: u32 len (strlen + 1 rounded up to 64), bytes, NULs. */
static inline void tb_str(struct tbuf *t, const char *s)
{
	static const uint8_t zeros[64];
	uint32_t olen = (uint32_t)strlen(s) + 1, len = (olen + 63) & ~63u;

	tb_u32(t, len);
	tb_put(t, s, olen);
	tb_put(t, zeros, len - olen);
}

/* Hex text (as dumped from perf's file) to bytes. */
static inline struct tbuf unhex(const char *hex)
{
	struct tbuf t = { 0 };
	size_t n = strlen(hex);

	assert_int_equal(n % 2, 0);
	for (size_t i = 0; i < n; i += 2) {
		unsigned int v;
		uint8_t b;

		assert_int_equal(sscanf(hex + i, "%2x", &v), 1);
		b = (uint8_t)v;
		tb_put(&t, &b, 1);
	}
	return t;
}

/* Encodes feature id into a fresh sink and checks it holds exactly want. */
static inline void assert_feature(int id, const struct writer_meta *m, const struct tbuf *want)
{
	struct feat_sink s;

	feat_sink__init(&s);
	assert_int_equal(features__encode_one(id, m, &s), 0);
	if (feat_sink__len(&s) != want->n)
		fail_msg("feature %d: %zu bytes, want %zu", id, feat_sink__len(&s), want->n);
	assert_memory_equal(feat_sink__data(&s), want->b, want->n);
	feat_sink__exit(&s);
}

/* Encodes into a sink already holding 8 bytes: err, and nothing added. */
static inline void assert_left_out(int id, const struct writer_meta *m, int err)
{
	struct feat_sink s;

	feat_sink__init(&s);
	assert_int_equal(feat_sink__put_u64(&s, 0x1122334455667788ULL), 0);
	assert_int_equal(features__encode_one(id, m, &s), err);
	assert_int_equal(feat_sink__len(&s), 8);
	assert_int_equal(feat_sink__err(&s), 0);
	feat_sink__exit(&s);
}

#endif
