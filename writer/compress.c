// SPDX-License-Identifier: GPL-2.0-only
/* zstd -> PERF_RECORD_COMPRESSED (compress.h); the only file that includes zstd.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "prec/event.h"
#include "compress.h"

struct compressor {
	ZSTD_CCtx *cctx;
	uint64_t in_bytes;
	uint64_t out_bytes;
	unsigned char rec[8 + COMPRESSED_MAX_PAYLOAD]; /* header + payload being filled */
};

struct compressor *compressor__new(int level)
{
	struct compressor *c;

	if (level < 1 || level > ZSTD_maxCLevel())
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cctx = ZSTD_createCCtx();
	if (!c->cctx || ZSTD_isError(ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_compressionLevel, level))) {
		compressor__delete(c);
		return NULL;
	}
	return c;
}

void compressor__delete(struct compressor *c)
{
	if (!c)
		return;
	ZSTD_freeCCtx(c->cctx);
	free(c);
}

static int emit_record(struct compressor *c, ZSTD_outBuffer *ob,
		       int (*emit)(void *arg, const void *rec, size_t len), void *arg)
{
	struct perf_event_header h = {
		.type = PERF_RECORD_COMPRESSED,
		.misc = 0,
		.size = (uint16_t)(sizeof(h) + ob->pos),
	};
	int ret;

	if (!ob->pos)
		return 0;
	memcpy(c->rec, &h, sizeof(h));
	ret = emit(arg, c->rec, h.size);
	c->out_bytes += h.size;
	ob->pos = 0;
	return ret;
}

int compressor__push(struct compressor *c, const struct iovec *iov, int cnt,
		     int (*emit)(void *arg, const void *rec, size_t len), void *arg)
{
	ZSTD_outBuffer ob = { c->rec + 8, COMPRESSED_MAX_PAYLOAD, 0 };
	int ret;

	for (int i = 0; i < cnt; i++) {
		ZSTD_inBuffer ib = { iov[i].iov_base, iov[i].iov_len, 0 };
		size_t rem;

		c->in_bytes += iov[i].iov_len;
		while (ib.pos < ib.size) {
			if (ZSTD_isError(ZSTD_compressStream2(c->cctx, &ob, &ib, ZSTD_e_continue)))
				return -EIO;
			if (ob.pos == ob.size && (ret = emit_record(c, &ob, emit, arg)))
				return ret;
		}
		/* End of a span: flush, so a record never holds two spans' data. */
		do {
			rem = ZSTD_compressStream2(c->cctx, &ob, &ib, ZSTD_e_flush);
			if (ZSTD_isError(rem))
				return -EIO;
			if ((ob.pos == ob.size || !rem) && (ret = emit_record(c, &ob, emit, arg)))
				return ret;
		} while (rem);
	}
	return 0;
}

uint64_t compressor__in_bytes(const struct compressor *c)
{
	return c ? c->in_bytes : 0;
}

uint64_t compressor__out_bytes(const struct compressor *c)
{
	return c ? c->out_bytes : 0;
}
