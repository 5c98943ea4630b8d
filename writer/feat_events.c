// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders for the features that describe the recording's events and
 * samples: EVENT_DESC and SAMPLE_TIME, as perf 6.1's write_event_desc() and
 * write_sample_time() lay them out.
 */
#include <errno.h>

#include "file_header.h"
#include "features.h"

int feat__write_event_desc(struct feat_sink *s, const struct writer_meta *meta)
{
	if (!meta->nr_events || !meta->events)
		return -ENOENT;
	feat_sink__put_u32(s, meta->nr_events);
	/* The size of each attr below: the same PREC_ATTR_SIZE as the attr
	 * section, so a reader older than this kernel accepts both. */
	feat_sink__put_u32(s, PREC_ATTR_SIZE);
	for (uint32_t i = 0; i < meta->nr_events; i++) {
		const struct writer_event *ev = &meta->events[i];
		uint8_t attr[PREC_ATTR_SIZE];

		if (!ev->attr || (ev->nr_ids && !ev->ids))
			return -EINVAL;
		file_header__attr_bytes(attr, ev->attr);
		feat_sink__put_bytes(s, attr, sizeof(attr));
		feat_sink__put_u32(s, ev->nr_ids);
		feat_sink__put_string(s, ev->name);
		feat_sink__put_bytes(s, ev->ids, (size_t)ev->nr_ids * sizeof(uint64_t));
	}
	return feat_sink__err(s);
}

int feat__write_sample_time(struct feat_sink *s, const struct writer_meta *meta)
{
	/* Written even when both are 0 (no sample had a time): perf record does
	 * the same for a recording without samples, and perf report prints
	 * "time of first sample : 0.000000" rather than a missing feature. */
	feat_sink__put_u64(s, meta->first_sample_time);
	return feat_sink__put_u64(s, meta->last_sample_time);
}
