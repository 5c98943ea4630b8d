// SPDX-License-Identifier: GPL-2.0-only
/* A growable byte buffer for feature payloads (feat_sink.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prec/grow.h"
#include "prec/perf_file.h"
#include "feat_sink.h"

/* Most features are a few hundred bytes; start small, double as needed. */
#define FEAT_SINK_MIN_CAP 4096

void feat_sink__init(struct feat_sink *s)
{
	memset(s, 0, sizeof(*s));
}

void feat_sink__exit(struct feat_sink *s)
{
	if (!s)
		return;
	free(s->buf);
	feat_sink__init(s);
}

static int feat_sink__fail(struct feat_sink *s, int err)
{
	if (!s->err)
		s->err = err;
	return err;
}

/* Makes room for n more bytes. */
static int feat_sink__reserve(struct feat_sink *s, size_t n)
{
	size_t need;

	if (s->err)
		return s->err;
	if (n > SIZE_MAX - s->len)
		return feat_sink__fail(s, -E2BIG);
	need = s->len + n;
	/* A section's size is a u64 on disk: memory is the only bound. */
	if (grow__array(&s->buf, &s->cap, need, 1, FEAT_SINK_MIN_CAP, GROW_MEMORY))
		return feat_sink__fail(s, -ENOMEM);
	return 0;
}

int feat_sink__put_bytes(struct feat_sink *s, const void *p, size_t n)
{
	int err = feat_sink__reserve(s, n);

	if (err)
		return err;
	if (n)
		memcpy(s->buf + s->len, p, n);
	s->len += n;
	return 0;
}

int feat_sink__put_zeros(struct feat_sink *s, size_t n)
{
	int err = feat_sink__reserve(s, n);

	if (err)
		return err;
	if (n)
		memset(s->buf + s->len, 0, n);
	s->len += n;
	return 0;
}

int feat_sink__put_u32(struct feat_sink *s, uint32_t v)
{
	return feat_sink__put_bytes(s, &v, sizeof(v));
}

int feat_sink__put_u64(struct feat_sink *s, uint64_t v)
{
	return feat_sink__put_bytes(s, &v, sizeof(v));
}

int feat_sink__put_string(struct feat_sink *s, const char *str)
{
	size_t olen, len;
	int err;

	if (!str)
		str = "";
	olen = strlen(str) + 1;
	/* The length is a u32 on disk; refuse what would wrap it. */
	if (olen > UINT32_MAX - (PERF_NAME_ALIGN - 1))
		return feat_sink__fail(s, -E2BIG);
	len = (olen + PERF_NAME_ALIGN - 1) & ~(size_t)(PERF_NAME_ALIGN - 1);
	err = feat_sink__reserve(s, sizeof(uint32_t) + len);
	if (err)
		return err;
	feat_sink__put_u32(s, (uint32_t)len);
	feat_sink__put_bytes(s, str, olen);
	return feat_sink__put_zeros(s, len - olen);
}

size_t feat_sink__len(const struct feat_sink *s)
{
	return s->len;
}

const void *feat_sink__data(const struct feat_sink *s)
{
	return s->buf;
}

int feat_sink__err(const struct feat_sink *s)
{
	return s->err;
}

void feat_sink__truncate(struct feat_sink *s, size_t len)
{
	if (len < s->len)
		s->len = len;
	s->err = 0;
}
