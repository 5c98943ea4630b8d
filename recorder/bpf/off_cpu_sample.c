// SPDX-License-Identifier: GPL-2.0-only
/*
 * The off-CPU sample encoder (off_cpu_sample.h): the record perf 6.1's
 * reader expects of its offcpu-time event, field by field in sample_type
 * order. perf fills the callchain's count with the frames plus the context
 * mark, and IP with the first frame (0 without a stack). Also the
 * LOST_SAMPLES record of the blocks the program could not keep.
 */
#include "bpf/off_cpu_sample.h"

#include <string.h>
#include <linux/perf_event.h>

#include "events/parse_events.h"

size_t off_cpu_sample__encode(void *buf, size_t cap, uint64_t sample_type, uint64_t id,
			      const struct off_cpu_sample *s)
{
	struct perf_event_header *h = buf;
	uint64_t *a = buf;
	size_t n = 1;

	if ((sample_type & ~(uint64_t)OFF_CPU_SAMPLE_TYPES) || s->nr_frames < 0 ||
	    cap < OFF_CPU_SAMPLE_MAX_BYTES(s->nr_frames))
		return 0;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		a[n++] = id;
	if (sample_type & PERF_SAMPLE_IP)
		a[n++] = s->nr_frames ? s->frames[0] : 0;
	if (sample_type & PERF_SAMPLE_TID)
		a[n++] = (uint64_t)s->pid << 32 | s->tgid;
	if (sample_type & PERF_SAMPLE_TIME)
		a[n++] = s->time;
	if (sample_type & PERF_SAMPLE_ID)
		a[n++] = id;
	if (sample_type & PERF_SAMPLE_CPU)
		a[n++] = s->cpu;
	if (sample_type & PERF_SAMPLE_PERIOD)
		a[n++] = s->period;
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		a[n++] = (uint64_t)s->nr_frames + 1;
		a[n++] = PERF_CONTEXT_USER;
		if (s->nr_frames)
			memcpy(&a[n], s->frames, (size_t)s->nr_frames * sizeof(uint64_t));
		n += (size_t)s->nr_frames;
	}
	if (sample_type & PERF_SAMPLE_CGROUP)
		a[n++] = s->cgroup_id;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (uint16_t)(n * sizeof(uint64_t));
	return n * sizeof(uint64_t);
}

size_t off_cpu_sample__lost(void *buf, size_t cap, uint64_t sample_type, uint64_t id, uint64_t lost)
{
	struct perf_event_header *h = buf;
	uint64_t *a = buf;
	size_t n = 1;

	if ((sample_type & ~(uint64_t)OFF_CPU_SAMPLE_TYPES) || cap < OFF_CPU_LOST_MAX_BYTES)
		return 0;
	a[n++] = lost;
	/* sample_id_all's trailer, in its order: TID TIME ID STREAM_ID CPU
	 * IDENTIFIER (offcpu-time has no STREAM_ID). */
	if (sample_type & PERF_SAMPLE_TID)
		a[n++] = 0;
	if (sample_type & PERF_SAMPLE_TIME)
		a[n++] = 0;
	if (sample_type & PERF_SAMPLE_ID)
		a[n++] = id;
	if (sample_type & PERF_SAMPLE_CPU)
		a[n++] = 0;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		a[n++] = id;
	h->type = PERF_RECORD_LOST_SAMPLES;
	h->misc = 0;
	h->size = (uint16_t)(n * sizeof(uint64_t));
	return n * sizeof(uint64_t);
}
