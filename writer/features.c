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
#include <stdbool.h>
#include <string.h>

#include "prec/log.h"
#include "features.h"
#include "sink.h"

/* R: perf 6.1 also sends it in pipe mode (FEAT_OPR); N: file only (FEAT_OPN). */
#define FEAT_R(id, fn) [HEADER_##id] = { #id, fn, true }
#define FEAT_N(id, fn) [HEADER_##id] = { #id, fn, false }

/*
 * Names as perf prints them ("missing features: ..."). Which features a
 * recording gets is perf record's record__init_features(): each encoder
 * returns -ENOENT when its option is off or its data is missing.
 */
const struct feat_ops feat_ops[HEADER_LAST_FEATURE] = {
	FEAT_N(RESERVED, NULL),
	FEAT_N(TRACING_DATA, feat_tracing_data__write),
	FEAT_N(BUILD_ID, feat__write_build_id),
	FEAT_R(HOSTNAME, feat__write_hostname),
	FEAT_R(OSRELEASE, feat__write_osrelease),
	FEAT_R(VERSION, feat__write_version),
	FEAT_R(ARCH, feat__write_arch),
	FEAT_R(NRCPUS, feat__write_nrcpus),
	FEAT_R(CPUDESC, feat__write_cpudesc),
	FEAT_R(CPUID, feat__write_cpuid),
	FEAT_R(TOTAL_MEM, feat__write_total_mem),
	FEAT_R(CMDLINE, feat__write_cmdline),
	FEAT_R(EVENT_DESC, feat__write_event_desc),
	FEAT_R(CPU_TOPOLOGY, feat__write_cpu_topology),
	FEAT_R(NUMA_TOPOLOGY, feat__write_numa_topology),
	FEAT_N(BRANCH_STACK, feat__write_branch_stack),
	FEAT_R(PMU_MAPPINGS, feat__write_pmu_mappings),
	FEAT_R(GROUP_DESC, feat__write_group_desc),
	FEAT_N(AUXTRACE, feat__write_auxtrace),
	FEAT_N(STAT, NULL), /* perf stat record only */
	FEAT_N(CACHE, feat__write_cache),
	FEAT_R(SAMPLE_TIME, feat__write_sample_time),
	FEAT_R(MEM_TOPOLOGY, feat__write_mem_topology),
	FEAT_R(CLOCKID, feat__write_clockid),
	FEAT_N(DIR_FORMAT, feat__write_dir_format),
	FEAT_R(BPF_PROG_INFO, feat_bpf_prog_info__write),
	FEAT_R(BPF_BTF, feat_bpf_btf__write),
	FEAT_R(COMPRESSED, feat__write_compressed),
	FEAT_R(CPU_PMU_CAPS, feat__write_cpu_pmu_caps),
	FEAT_R(CLOCK_DATA, feat__write_clock_data),
	FEAT_N(HYBRID_TOPOLOGY, feat__write_hybrid_topology),
	FEAT_R(PMU_CAPS, feat__write_pmu_caps),
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

/* Features perf writes only in some modes or on some machines: leaving
 * one out is normal, not worth a word. */
static bool feature__optional(int id)
{
	switch (id) {
	case HEADER_TRACING_DATA:
	case HEADER_BUILD_ID:
	case HEADER_BRANCH_STACK:
	case HEADER_GROUP_DESC:
	case HEADER_AUXTRACE:
	case HEADER_STAT:
	case HEADER_CLOCKID:
	case HEADER_DIR_FORMAT:
	case HEADER_COMPRESSED:
	case HEADER_CPU_PMU_CAPS:
	case HEADER_CLOCK_DATA:
	case HEADER_HYBRID_TOPOLOGY:
		return true;
	default:
		return false;
	}
}

int features__write(struct sink *out, const struct writer_meta *meta, uint64_t at,
		    uint64_t feat_bits[HEADER_FEAT_BITS / 64], uint64_t *len)
{
	struct perf_file_section sec[HEADER_LAST_FEATURE];
	struct feat_sink payload;
	uint64_t base;
	unsigned int nr = 0;
	int err = 0;

	memset(feat_bits, 0, HEADER_FEAT_BITS / 8);
	feat_sink__init(&payload);
	for (int id = HEADER_RESERVED + 1; id < HEADER_LAST_FEATURE; id++) {
		size_t start = feat_sink__len(&payload);

		err = features__encode_one(id, meta, &payload);
		if (err) {
			if (err != -ENOENT)
				pr_verbose("prec: warning: feature %s left out: %s\n",
					   feat_ops[id].name, strerror(-err));
			else if (!feature__optional(id))
				pr_verbose("prec: warning: feature %s left out: its data could not be read from /proc or /sys\n",
					   feat_ops[id].name);
			err = 0;
			continue;
		}
		sec[nr].offset = start;
		sec[nr].size = feat_sink__len(&payload) - start;
		nr++;
		feat_bits[id / 64] |= 1ULL << (id % 64);
	}

	/* The table sits at the end of the data; payload offsets follow it. */
	base = at + nr * sizeof(sec[0]);
	for (unsigned int i = 0; i < nr; i++)
		sec[i].offset += base;
	if (len)
		*len = nr * sizeof(sec[0]) + feat_sink__len(&payload);
	err = sink__write_raw(out, sec, nr * sizeof(sec[0]));
	if (!err)
		err = sink__write_raw(out, feat_sink__data(&payload), feat_sink__len(&payload));
	feat_sink__exit(&payload);
	return err;
}
