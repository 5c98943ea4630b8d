// SPDX-License-Identifier: GPL-2.0-only
/*
 * base/sha1.c against the FIPS 180-4 examples and RFC 3174's test vectors
 * (empty, "abc", the 448- and 896-bit messages, one million 'a', RFC 3174's
 * fourth), lengths around the padding edges (55, 56, 63, 64, 65, 119, 120,
 * 128 bytes, checked with another implementation), every split of a message
 * into two updates and byte-at-a-time updates, and a context reused after
 * final.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prec/sha1.h"

static void hex(const uint8_t d[SHA1_DIGEST_LEN], char out[2 * SHA1_DIGEST_LEN + 1])
{
	for (int i = 0; i < SHA1_DIGEST_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void assert_sha1(const void *buf, size_t len, const char *want)
{
	uint8_t d[SHA1_DIGEST_LEN];
	char got[2 * SHA1_DIGEST_LEN + 1];

	sha1(buf, len, d);
	hex(d, got);
	assert_string_equal(got, want);
}

static const char msg448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char msg896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
			     "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

static void test_sha1_vectors(void **state)
{
	(void)state;
	assert_sha1(NULL, 0, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
	assert_sha1("abc", 3, "a9993e364706816aba3e25717850c26c9cd0d89d");
	assert_sha1(msg448, strlen(msg448), "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
	assert_sha1(msg896, strlen(msg896), "a49b2446a02c645bf419f995b67091253a04a259");
}

static void test_sha1_million_a(void **state)
{
	size_t n = 1000000;
	char *a = malloc(n);
	struct sha1_ctx ctx;
	uint8_t d[SHA1_DIGEST_LEN];
	char got[2 * SHA1_DIGEST_LEN + 1];

	(void)state;
	assert_non_null(a);
	memset(a, 'a', n);
	assert_sha1(a, n, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
	/* The same in odd-sized pieces that straddle blocks. */
	sha1__init(&ctx);
	for (size_t off = 0; off < n; off += 997)
		sha1__update(&ctx, a + off, n - off < 997 ? n - off : 997);
	sha1__final(&ctx, d);
	hex(d, got);
	assert_string_equal(got, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
	free(a);
}

static void test_sha1_rfc3174_repeated(void **state)
{
	static const char part[] = "01234567012345670123456701234567"
				   "01234567012345670123456701234567";
	struct sha1_ctx ctx;
	uint8_t d[SHA1_DIGEST_LEN];
	char got[2 * SHA1_DIGEST_LEN + 1];

	(void)state;
	sha1__init(&ctx);
	for (int i = 0; i < 10; i++)
		sha1__update(&ctx, part, 64);
	sha1__final(&ctx, d);
	hex(d, got);
	assert_string_equal(got, "dea356a2cddd90c7a7ecedc5ebb563934f460452");
}

/* The padding puts the length in this block or needs another: both sides. */
static void test_sha1_padding_edges(void **state)
{
	static const struct {
		size_t n;
		const char *want;
	} rows[] = {
		{ 55, "c1c8bbdc22796e28c0e15163d20899b65621d65a" },
		{ 56, "c2db330f6083854c99d4b5bfb6e8f29f201be699" },
		{ 63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5" },
		{ 64, "0098ba824b5c16427bd7a1122a5a442a25ec644d" },
		{ 65, "11655326c708d70319be2610e8a57d9a5b959d3b" },
		{ 119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56" },
		{ 120, "f34c1488385346a55709ba056ddd08280dd4c6d6" },
		{ 128, "ad5b3fdbcb526778c2839d2f151ea753995e26a0" },
	};
	char a[128];

	(void)state;
	memset(a, 'a', sizeof(a));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_sha1(a, rows[i].n, rows[i].want);
}

/* All 256 byte values (high bits set: no sign slips), split at every point. */
static void test_sha1_every_split(void **state)
{
	uint8_t buf[1024], d[SHA1_DIGEST_LEN];
	char got[2 * SHA1_DIGEST_LEN + 1];
	struct sha1_ctx ctx;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)i;
	assert_sha1(buf, sizeof(buf), "5b00669c480d5cffbdfa8bdba99561160f2d1b77");
	for (size_t cut = 0; cut <= sizeof(buf); cut++) {
		sha1__init(&ctx);
		sha1__update(&ctx, buf, cut);
		sha1__update(&ctx, NULL, 0);
		sha1__update(&ctx, buf + cut, sizeof(buf) - cut);
		sha1__final(&ctx, d);
		hex(d, got);
		assert_string_equal(got, "5b00669c480d5cffbdfa8bdba99561160f2d1b77");
	}
	/* One byte at a time, then the context again after final. */
	sha1__init(&ctx);
	for (size_t i = 0; i < sizeof(buf); i++)
		sha1__update(&ctx, buf + i, 1);
	sha1__final(&ctx, d);
	hex(d, got);
	assert_string_equal(got, "5b00669c480d5cffbdfa8bdba99561160f2d1b77");
	sha1__update(&ctx, "abc", 3);
	sha1__final(&ctx, d);
	hex(d, got);
	assert_string_equal(got, "a9993e364706816aba3e25717850c26c9cd0d89d");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha1_vectors),
		cmocka_unit_test(test_sha1_million_a),
		cmocka_unit_test(test_sha1_rfc3174_repeated),
		cmocka_unit_test(test_sha1_padding_edges),
		cmocka_unit_test(test_sha1_every_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
