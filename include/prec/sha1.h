/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_SHA1_H
#define PREC_SHA1_H
/*
 * SHA-1 (FIPS 180-4, section 6.1), base/sha1.c: the hash behind the GNU
 * build-ids prec makes itself (writer/jit_elf.c), the same 20-byte kind that
 * ld --build-id=sha1 writes. Not for security: SHA-1 only names content here.
 * Byte order is spelled out byte by byte, so the digest is the same on every
 * host.
 */
#include <stddef.h>
#include <stdint.h>

#define SHA1_DIGEST_LEN 20
#define SHA1_BLOCK_LEN 64

/* An incremental hash: sha1__init, any number of sha1__update, sha1__final. */
struct sha1_ctx {
	uint32_t h[5];
	uint64_t bytes; /* hashed so far; the message length is bits mod 2^64 */
	uint8_t block[SHA1_BLOCK_LEN]; /* a partial block waiting for more bytes */
	size_t fill;
};

void sha1__init(struct sha1_ctx *ctx);

/* Adds len bytes at data (data may be NULL when len is 0). */
void sha1__update(struct sha1_ctx *ctx, const void *data, size_t len);

/* Pads, writes the digest into out and leaves ctx to be initialised again. */
void sha1__final(struct sha1_ctx *ctx, uint8_t out[SHA1_DIGEST_LEN]);

/* The digest of len bytes at data, in one call. */
void sha1(const void *data, size_t len, uint8_t out[SHA1_DIGEST_LEN]);

#endif
