// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one way synthesized records leave the synth/ files (synthesize.h's
 * synth_out): into the writer, then past the tap; and how each one starts. The tap lives here, on
 * the recorder's side, so that the writer never calls back into it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prec/event.h"
#include "prec/grow.h"
#include "prec/writer.h"
#include "synth/synthesize.h"

void synth_buf__exit(struct synth_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/* A worker's share is written once, in one piece; it is records made in
 * memory, so memory is the bound. */
static int synth_buf__append(struct synth_buf *b, const void *buf, size_t len)
{
	if (grow__array(&b->data, &b->cap, b->len + len, 1, 1 << 16, GROW_MEMORY))
		return -ENOMEM;
	memcpy(b->data + b->len, buf, len);
	b->len += len;
	return 0;
}

int synth_out__write(struct synth_out *out, const void *buf, size_t len)
{
	int ret;

	if (out->buf)
		return synth_buf__append(out->buf, buf, len);
	ret = writer__write(out->writer, buf, len);

	if (!ret && out->tap && len)
		out->tap(out->tap_arg, buf, len);
	return ret;
}

void *synth_record__init(void *buf, size_t size, uint32_t type, uint16_t misc)
{
	struct perf_event_header *h = buf;

	memset(buf, 0, size);
	h->type = type;
	h->misc = misc;
	h->size = (uint16_t)size;
	return buf;
}
