// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders for the features a record option turns on: BRANCH_STACK (-b/-j),
 * GROUP_DESC (event groups), AUXTRACE (AUX area tracing), CLOCKID and
 * CLOCK_DATA (-k), DIR_FORMAT (directory output) and COMPRESSED (-z), byte
 * for byte as perf 6.1's write_*() in tools/perf/util/header.c. Each returns
 * -ENOENT when its option is off, which is how record__init_features()
 * leaves them out. STAT has no encoder: only perf stat record writes it.
 */
#include <errno.h>

#include "features.h"

/* perf's PERF_COMP_ZSTD; the only compressor it knows. */
#define FEAT_COMP_ZSTD 1

/* An empty section: its presence says the samples carry branch stacks. */
int feat__write_branch_stack(struct feat_sink *s, const struct writer_meta *meta)
{
	(void)s;
	return meta->branch_stack ? 0 : -ENOENT;
}

/* Only real groups are described: a leader alone is no group to perf. */
static bool group_listed(const struct writer_group *g)
{
	return g->nr_members > 1;
}

/*
 * u32 nr, then per group of two or more events: string name ("{anon_group}"
 * when unnamed), u32 leader index, u32 number of members (leader included).
 * perf's reader rebuilds the groups by walking the events in order, and
 * rejects the whole feature when a leader index is not found in that walk;
 * groups out of order, overlapping or past the last event are refused here
 * (-EINVAL) rather than written for perf to trip on.
 */
int feat__write_group_desc(struct feat_sink *s, const struct writer_meta *meta)
{
	uint64_t next_free = 0;
	uint32_t nr = 0;

	if (!meta->nr_groups || !meta->groups)
		return -ENOENT;
	for (uint32_t i = 0; i < meta->nr_groups; i++) {
		const struct writer_group *g = &meta->groups[i];
		uint64_t end = (uint64_t)g->leader_idx + g->nr_members;

		if (!group_listed(g))
			continue;
		if (g->leader_idx < next_free || (meta->nr_events && end > meta->nr_events))
			return -EINVAL;
		next_free = end;
		nr++;
	}
	if (!nr)
		return -ENOENT;
	feat_sink__put_u32(s, nr);
	for (uint32_t i = 0; i < meta->nr_groups; i++) {
		const struct writer_group *g = &meta->groups[i];

		if (!group_listed(g))
			continue;
		feat_sink__put_string(s, g->name ? g->name : "{anon_group}");
		feat_sink__put_u32(s, g->leader_idx);
		feat_sink__put_u32(s, g->nr_members);
	}
	return feat_sink__err(s);
}

/* perf's auxtrace_index__write(): u64 nr, then {u64 file_offset, u64 size}
 * per AUXTRACE record in the data section. */
int feat__write_auxtrace(struct feat_sink *s, const struct writer_meta *meta)
{
	if (!meta->nr_auxtrace || !meta->auxtrace)
		return -ENOENT;
	feat_sink__put_u64(s, meta->nr_auxtrace);
	for (uint32_t i = 0; i < meta->nr_auxtrace; i++) {
		feat_sink__put_u64(s, meta->auxtrace[i].file_offset);
		feat_sink__put_u64(s, meta->auxtrace[i].size);
	}
	return feat_sink__err(s);
}

/* u64 clock resolution in ns (perf prints it, times 1000, as "MHz"). */
int feat__write_clockid(struct feat_sink *s, const struct writer_meta *meta)
{
	if (!meta->use_clockid || !meta->clockid_res_ns)
		return -ENOENT;
	return feat_sink__put_u64(s, meta->clockid_res_ns);
}

/* u64 version of the directory layout. */
int feat__write_dir_format(struct feat_sink *s, const struct writer_meta *meta)
{
	if (!meta->dir_version)
		return -ENOENT;
	return feat_sink__put_u64(s, meta->dir_version);
}

/* u32 version (0), type (1 = zstd), level, ratio, mmap_len: the values perf
 * record writes for -z (checked against a perf 6.1 file). */
int feat__write_compressed(struct feat_sink *s, const struct writer_meta *meta)
{
	if (!meta->compressed)
		return -ENOENT;
	feat_sink__put_u32(s, 0);
	feat_sink__put_u32(s, FEAT_COMP_ZSTD);
	feat_sink__put_u32(s, meta->comp_level);
	feat_sink__put_u32(s, meta->comp_ratio);
	return feat_sink__put_u32(s, meta->comp_mmap_len);
}

/* u32 version 1, u32 clockid, u64 time of day (ns), u64 the same instant on
 * the clock: what lets perf convert sample times to wall-clock time. */
int feat__write_clock_data(struct feat_sink *s, const struct writer_meta *meta)
{
	if (!meta->use_clockid)
		return -ENOENT;
	feat_sink__put_u32(s, 1);
	feat_sink__put_u32(s, (uint32_t)meta->clockid);
	feat_sink__put_u64(s, meta->clock_tod_ns);
	return feat_sink__put_u64(s, meta->clock_clockid_ns);
}
