/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_FEAT_SINK_H
#define PREC_WRITER_FEAT_SINK_H
/*
 * A growable byte buffer the feature encoders write into. Encoders never see
 * the fd: the same bytes go to a file's feature sections or, in pipe mode, into
 * PERF_RECORD_HEADER_FEATURE records.
 *
 * The first failed put is remembered (sticky), so an encoder may chain puts and
 * return feat_sink__err() once at the end; later puts are no-ops.
 */
#include <stddef.h>
#include <stdint.h>

struct feat_sink {
	uint8_t *buf;
	size_t len;
	size_t cap;
	int err; /* first -errno of a put, 0 when all succeeded */
};

/* Prepares an empty sink (no allocation yet). */
void feat_sink__init(struct feat_sink *s);
/* Frees the buffer; the sink is empty and usable again. Accepts NULL. */
void feat_sink__exit(struct feat_sink *s);

/* Appends n bytes. 0, or -ENOMEM/-E2BIG (also kept in s->err). */
int feat_sink__put_bytes(struct feat_sink *s, const void *p, size_t n);
/* Appends n zero bytes. 0 or -errno. */
int feat_sink__put_zeros(struct feat_sink *s, size_t n);
/* Appends a native-endian u32. 0 or -errno. */
int feat_sink__put_u32(struct feat_sink *s, uint32_t v);
/* Appends a native-endian u64. 0 or -errno. */
int feat_sink__put_u64(struct feat_sink *s, uint64_t v);
/*
 * Appends a string as perf does (do_write_string): u32 len, where len is
 * strlen + 1 rounded up to PERF_NAME_ALIGN, then the bytes, NUL-padded to len.
 * NULL is written as "". 0 or -errno.
 */
int feat_sink__put_string(struct feat_sink *s, const char *str);

/* Bytes the sink holds now. */
size_t feat_sink__len(const struct feat_sink *s);
/* The bytes (owned by s; valid until the next put or exit). */
const void *feat_sink__data(const struct feat_sink *s);
/* The first put error since init or the last truncate, or 0. */
int feat_sink__err(const struct feat_sink *s);
/* Drops everything after len (len <= current length) and clears the error:
 * how a failed encoder's partial bytes are rolled back. */
void feat_sink__truncate(struct feat_sink *s, size_t len);

#endif
