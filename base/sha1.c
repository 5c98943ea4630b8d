// SPDX-License-Identifier: GPL-2.0-only
/*
 * SHA-1 (prec/sha1.h), from FIPS 180-4: the message schedule and the 80
 * rounds of section 6.1.2, the padding of section 5.1.1. Words are read and
 * written big-endian one byte at a time, so no host byte order leaks in.
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

/* One 512-bit block into the state (FIPS 180-4 6.1.2, steps 1 to 4). */
static void sha1_block(uint32_t h[5], const uint8_t *blk)
{
	uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];

	for (int t = 0; t < 16; t++)
		w[t] = be32_load(blk + 4 * t);
	for (int t = 16; t < 80; t++)
		w[t] = rotl32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
	for (int t = 0; t < 80; t++) {
		uint32_t f, k, tmp;

		if (t < 20) {
			f = (b & c) | (~b & d); /* Ch */
			k = 0x5a827999;
		} else if (t < 40) {
			f = b ^ c ^ d; /* Parity */
			k = 0x6ed9eba1;
		} else if (t < 60) {
			f = (b & c) | (b & d) | (c & d); /* Maj */
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		tmp = rotl32(a, 5) + f + e + k + w[t];
		e = d;
		d = c;
		c = rotl32(b, 30);
		b = a;
		a = tmp;
	}
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
