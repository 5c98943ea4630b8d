// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hold of --unwind=record (unwind_int.h's struct uw_hold): while the
 * side-band of the processes that existed before the recording is
 * synthesized in the background, a DWARF sample whose user IP lies in no
 * map known yet cannot be unwound now, and its stack copy is gone once its
 * ring space is released, so unwind.c copies the raw record here; when the
 * side-band is in, unwind.c unwinds what was held with the maps it brought
 * (unwinder__release). The hold is bounded (UNWIND_HOLD_MAX): past it a
 * sample is unwound at once with what is known.
 */
#include <stdlib.h>
#include <string.h>

#include "prec/log.h"
#include "unwind/unwind.h"
#include "unwind/unwind_int.h"

bool uw_hold__keep(struct uw_hold *h, const uint8_t *rec, size_t size)
{
	/* The whole bound at once: untouched pages cost no memory, and the
	 * buffer never moves. */
	if (!h->buf)
		h->buf = malloc(UNWIND_HOLD_MAX);
	if (!h->buf || h->len + size > UNWIND_HOLD_MAX) {
		h->full++;
		return false;
	}
	memcpy(h->buf + h->len, rec, size);
	h->len += size;
	h->held++;
	return true;
}

void uw_hold__end(struct uw_hold *h)
{
	h->on = false;
	if (h->held || h->full)
		pr_verbose("--unwind=record: %llu samples waited for the side-band of existing processes, %llu unwound at once (the %u MiB hold was full)\n",
			   (unsigned long long)h->held, (unsigned long long)h->full,
			   UNWIND_HOLD_MAX >> 20);
}

void uw_hold__free(struct uw_hold *h)
{
	free(h->buf);
	h->buf = NULL;
	h->len = 0;
}
