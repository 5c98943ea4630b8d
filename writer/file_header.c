// SPDX-License-Identifier: GPL-2.0-only
/*
 * The front of a perf.data file, laid out as perf 6.1's
 * perf_session__write_header() does it:
 *
 *   0                  struct perf_file_header (104 bytes)
 *   104                u64 ids of event 0, then of event 1, ...
 *   attrs.offset       struct perf_file_attr per event: the attr as
 *                      PREC_ATTR_SIZE bytes (attr.size = PREC_ATTR_SIZE),
 *                      then {offset, size} of that event's ids
 *   data.offset        = attrs.offset + attrs.size: the records
 *
 * The header is written once with data.size 0 and no feature bits, so a
 * recording cut short still starts with a header perf recognises, then
 * rewritten now and then while the data grows (file_header__commit: the
 * size of the data known to end at a record boundary, still no feature
 * bits, so perf reads that much after a kill -9 and looks for no feature
 * table, which the next data would overwrite), and for the last time at
 * finish with the final size and the feature bits.
 */
#include <errno.h>
#include <string.h>

#include "prec/writer.h"
#include "feat_sink.h"
#include "file_header.h"
#include "sink.h"

_Static_assert(sizeof(struct perf_event_attr) >= PREC_ATTR_SIZE,
	       "linux/perf_event.h older than the attr size we write");

void file_header__attr_bytes(uint8_t out[PREC_ATTR_SIZE], const struct perf_event_attr *attr)
{
	struct perf_event_attr copy;

	memcpy(&copy, attr, sizeof(copy));
	/* Readers older than the running kernel's struct reject a larger size
	 * (perf_attr_check); fields past PREC_ATTR_SIZE are dropped anyway. */
	copy.size = PREC_ATTR_SIZE;
	memcpy(out, &copy, PREC_ATTR_SIZE);
}

static int file_header__check(const struct writer_event *events, uint32_t nr_events)
{
	if (nr_events && !events)
		return -EINVAL;
	for (uint32_t i = 0; i < nr_events; i++) {
		if (!events[i].attr || (events[i].nr_ids && !events[i].ids))
			return -EINVAL;
	}
	return 0;
}

int file_header__begin(struct perf_file_header *h, struct sink *out,
		       const struct writer_event *events, uint32_t nr_events)
{
	struct feat_sink sink;
	uint64_t nr_ids = 0, ids_offset;
	int err;

	err = file_header__check(events, nr_events);
	if (err)
		return err;
	for (uint32_t i = 0; i < nr_events; i++)
		nr_ids += events[i].nr_ids;

	memset(h, 0, sizeof(*h));
	h->magic = PERF_MAGIC2;
	h->size = sizeof(*h);
	h->attr_size = sizeof(struct perf_file_attr);
	h->attrs.offset = sizeof(*h) + nr_ids * sizeof(uint64_t);
	h->attrs.size = (uint64_t)nr_events * sizeof(struct perf_file_attr);
	h->data.offset = h->attrs.offset + h->attrs.size;
	h->data.size = 0;

	/* Built in memory first so the front of the file is one write. */
	feat_sink__init(&sink);
	feat_sink__put_bytes(&sink, h, sizeof(*h));
	for (uint32_t i = 0; i < nr_events; i++)
		feat_sink__put_bytes(&sink, events[i].ids, events[i].nr_ids * sizeof(uint64_t));
	ids_offset = sizeof(*h);
	for (uint32_t i = 0; i < nr_events; i++) {
		struct perf_file_attr fa;

		file_header__attr_bytes(fa.attr, events[i].attr);
		fa.ids.offset = ids_offset;
		fa.ids.size = events[i].nr_ids * sizeof(uint64_t);
		ids_offset += fa.ids.size;
		feat_sink__put_bytes(&sink, &fa, sizeof(fa));
	}
	err = feat_sink__err(&sink);
	if (!err)
		err = sink__write_raw(out, feat_sink__data(&sink), feat_sink__len(&sink));
	feat_sink__exit(&sink);
	return err;
}

int file_header__finish(struct perf_file_header *h, struct sink *out,
			const uint64_t feat_bits[HEADER_FEAT_BITS / 64])
{
	h->data.size = sink__data_size(out);
	memcpy(h->adds_features, feat_bits, sizeof(h->adds_features));
	return sink__pwrite(out, h, sizeof(*h), 0);
}

int file_header__commit(struct perf_file_header *h, struct sink *out, uint64_t data_size)
{
	h->data.size = data_size;
	memset(h->adds_features, 0, sizeof(h->adds_features));
	return sink__pwrite(out, h, sizeof(*h), 0);
}
