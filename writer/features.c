// SPDX-License-Identifier: GPL-2.0-only
/*
 * The feature sections after the data: a table of perf_file_section, one per
 * feature written, in bit order, then the payloads back to back (perf's
 * perf_header__adds_write()). Features are encoded into memory first, so a
 * failed encoder is dropped before anything reaches the file and the table is
 * sized for exactly the features written (perf leaves unused slots when a
 * feature fails; its reader skips them, and we do not need to).
 */
#include <errno.h>
#include <string.h>

#include "prec/log.h"
#include "features.h"
#include "writer_int.h"

#define FEAT(id, fn) [HEADER_##id] = { #id, fn }

/* Names as perf prints them ("missing features: ..."). */
const struct feat_ops feat_ops[HEADER_LAST_FEATURE] = {
	FEAT(RESERVED, NULL),
	FEAT(TRACING_DATA, NULL),
	FEAT(BUILD_ID, NULL),
	FEAT(HOSTNAME, feat__write_hostname),
	FEAT(OSRELEASE, feat__write_osrelease),
	FEAT(VERSION, feat__write_version),
	FEAT(ARCH, feat__write_arch),
	FEAT(NRCPUS, feat__write_nrcpus),
	FEAT(CPUDESC, feat__write_cpudesc),
	FEAT(CPUID, feat__write_cpuid),
	FEAT(TOTAL_MEM, feat__write_total_mem),
	FEAT(CMDLINE, feat__write_cmdline),
	FEAT(EVENT_DESC, feat__write_event_desc),
	FEAT(CPU_TOPOLOGY, NULL),
	FEAT(NUMA_TOPOLOGY, NULL),
	FEAT(BRANCH_STACK, NULL),
	FEAT(PMU_MAPPINGS, NULL),
	FEAT(GROUP_DESC, NULL),
	FEAT(AUXTRACE, NULL),
	FEAT(STAT, NULL),
	FEAT(CACHE, NULL),
	FEAT(SAMPLE_TIME, feat__write_sample_time),
	FEAT(MEM_TOPOLOGY, NULL),
	FEAT(CLOCKID, NULL),
	FEAT(DIR_FORMAT, NULL),
	FEAT(BPF_PROG_INFO, NULL),
	FEAT(BPF_BTF, NULL),
	FEAT(COMPRESSED, NULL),
	FEAT(CPU_PMU_CAPS, NULL),
	FEAT(CLOCK_DATA, NULL),
	FEAT(HYBRID_TOPOLOGY, NULL),
	FEAT(PMU_CAPS, NULL),
};

int features__encode_one(int id, const struct writer_meta *meta, struct feat_sink *s)
{
	static const struct writer_meta no_meta;
	size_t mark = feat_sink__len(s);
	int err;

	if (id <= HEADER_RESERVED || id >= HEADER_LAST_FEATURE || !feat_ops[id].write)
		return -ENOENT;
	/* A sink that already failed would swallow these bytes silently. */
	if (feat_sink__err(s))
		return feat_sink__err(s);
	err = feat_ops[id].write(s, meta ? meta : &no_meta);
	if (!err)
		err = feat_sink__err(s);
	if (err)
		feat_sink__truncate(s, mark);
	return err;
}

int features__write(struct writer *w, const struct writer_meta *meta,
		    uint64_t feat_bits[HEADER_FEAT_BITS / 64])
{
	struct perf_file_section sec[HEADER_LAST_FEATURE];
	struct writer_meta with_events;
	struct feat_sink payload;
	uint64_t base;
	unsigned int nr = 0;
	int err = 0;

	/* EVENT_DESC describes the events the file holds unless told otherwise. */
	if (!meta || !meta->events) {
		if (meta)
			with_events = *meta;
		else
			memset(&with_events, 0, sizeof(with_events));
		with_events.events = w->events;
		with_events.nr_events = w->nr_events;
		meta = &with_events;
	}

	memset(feat_bits, 0, HEADER_FEAT_BITS / 8);
	feat_sink__init(&payload);
	for (int id = HEADER_RESERVED + 1; id < HEADER_LAST_FEATURE; id++) {
		size_t start = feat_sink__len(&payload);

		err = features__encode_one(id, meta, &payload);
		if (err) {
			if (err != -ENOENT)
				pr_debug("feature %s left out: %s\n", feat_ops[id].name,
					 strerror(-err));
			err = 0;
			continue;
		}
		sec[nr].offset = start;
		sec[nr].size = feat_sink__len(&payload) - start;
		nr++;
		feat_bits[id / 64] |= 1ULL << (id % 64);
	}

	/* The table sits at the end of the data; payload offsets follow it. */
	base = w->header.data.offset + writer__data_size(w) + nr * sizeof(sec[0]);
	for (unsigned int i = 0; i < nr; i++)
		sec[i].offset += base;
	err = writer__write_raw(w, sec, nr * sizeof(sec[0]));
	if (!err)
		err = writer__write_raw(w, feat_sink__data(&payload), feat_sink__len(&payload));
	feat_sink__exit(&payload);
	return err;
}
