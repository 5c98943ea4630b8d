// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the DSO tracker's record reader (recorder/dsos):
 * dso_track__event over a run of records (MMAP, MMAP2, COMM, FORK, EXIT,
 * SAMPLE, anything), with passes ending along the way. The first two bytes
 * choose the sample_type bits and sample_id_all the layout is made for; the
 * rest is records back to back, each as long as its header says. Beyond "no
 * crash, no read outside a record, no leak" it checks that every map
 * dso_track__find_map returns holds the address asked for. Build-ids are
 * never read (DSO_TRACK_BUILDIDS_NONE): the names are fuzzed paths.
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/dsos/dso_track.h"
#include "prec/event.h"

/* The bits the layout reads, in the order of the first byte's bits. */
static const uint64_t sample_bits[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP,	       PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ID,		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
};

static void check_map(struct dso_track *t, uint32_t pid, uint64_t addr)
{
	struct dso_track_map m;

	if (dso_track__find_map(t, pid, addr, &m) == 0 &&
	    (!m.name || addr < m.start || addr >= m.end))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dso_track_layout l;
	struct dso_track *t;
	const struct writer_buildid *out;
	uint64_t st = 0;
	uint32_t nr, nr_rec = 0;
	size_t off = 2;

	if (size < 2)
		return 0;
	for (size_t i = 0; i < sizeof(sample_bits) / sizeof(sample_bits[0]); i++)
		if (data[0] & (1u << i))
			st |= sample_bits[i];
	if (dso_track__layout(st, data[1] & 1, &l) || dso_track__new(&t, &l))
		return 0;
	dso_track__set_buildids(t, DSO_TRACK_BUILDIDS_NONE);
	while (off + sizeof(struct perf_event_header) <= size) {
		struct perf_event_header h;
		size_t len = size - off;
		/* A copy of exactly the rest: ASan catches a read past it. */
		uint8_t *rec = malloc(len);

		if (!rec)
			break;
		memcpy(rec, data + off, len);
		memcpy(&h, rec, sizeof(h));
		dso_track__event(t, rec, len);
		if (h.type == PERF_RECORD_MMAP || h.type == PERF_RECORD_MMAP2) {
			uint32_t pid;
			uint64_t start;

			if (len >= 24) {
				memcpy(&pid, rec + 8, sizeof(pid));
				memcpy(&start, rec + 16, sizeof(start));
				check_map(t, pid, start);
			}
		}
		free(rec);
		if (++nr_rec % 4 == 0)
			dso_track__end_pass(t);
		/* A header that says less than itself still moves on by one header. */
		off += h.size >= sizeof(h) ? h.size : sizeof(h);
	}
	if (dso_track__finish(t, &out, &nr) == 0 && nr != 0)
		abort(); /* none was asked for */
	dso_track__delete(t);
	return 0;
}
