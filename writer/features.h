/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_FEATURES_H
#define PREC_WRITER_FEATURES_H
/*
 * The feature sections: one table row per HEADER_* id, walked in id order.
 * An encoder appends its payload to a sink and returns 0, -ENOENT when there
 * is nothing to say (the feature is left out), or another -errno (left out
 * too: one broken feature never costs the recording).
 */
#include <stdbool.h>
#include <stdint.h>

#include "prec/perf_file.h"
#include "prec/writer.h"
#include "feat_sink.h"

struct sink;

struct feat_ops {
	const char *name; /* as perf names it in "missing features" */
	int (*write)(struct feat_sink *s, const struct writer_meta *meta);
	/* perf 6.1 sends it as a HEADER_FEATURE record in pipe mode (its
	 * FEAT_OPR rows); the others exist only in a seekable file. */
	bool synth;
};

/* Indexed by HEADER_* id; a row without write is a feature prec does not
 * write (yet). */
extern const struct feat_ops feat_ops[HEADER_LAST_FEATURE];

/*
 * Appends feature id's payload to s. 0, or a negative errno with s exactly as
 * it was (a failed encoder's partial bytes are rolled back); -ENOENT for a
 * feature that is left out or has no encoder. meta may be NULL (no metadata).
 */
int features__encode_one(int id, const struct writer_meta *meta, struct feat_sink *s);

/*
 * Writes the feature section table (one perf_file_section per feature
 * written, in bit order) and then the payloads to out, whose file position
 * is at, the end of the data section. meta names the events (EVENT_DESC).
 * Sets the bits of the features written, and *len (when len is not NULL)
 * to the bytes of table and payloads, also when the write fails. 0 or
 * -errno (an I/O error; encoder failures only leave features out).
 */
int features__write(struct sink *out, const struct writer_meta *meta, uint64_t at,
		    uint64_t feat_bits[HEADER_FEAT_BITS / 64], uint64_t *len);

/* feat_system.c */
int feat__write_hostname(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_osrelease(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_version(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_arch(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_nrcpus(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_cpudesc(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_cpuid(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_total_mem(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_cmdline(struct feat_sink *s, const struct writer_meta *meta);

/* feat_events.c */
int feat__write_event_desc(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_sample_time(struct feat_sink *s, const struct writer_meta *meta);

/* feat_topology.c */
int feat__write_cpu_topology(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_numa_topology(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_cache(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_mem_topology(struct feat_sink *s, const struct writer_meta *meta);

/* feat_pmu.c */
int feat__write_pmu_mappings(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_cpu_pmu_caps(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_hybrid_topology(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_pmu_caps(struct feat_sink *s, const struct writer_meta *meta);

/* feat_misc.c: the features a record option turns on */
int feat__write_branch_stack(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_group_desc(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_auxtrace(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_clockid(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_dir_format(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_compressed(struct feat_sink *s, const struct writer_meta *meta);
int feat__write_clock_data(struct feat_sink *s, const struct writer_meta *meta);

/* feat_tracing.c: TRACING_DATA, meta's blob verbatim (-ENOENT when empty). */
int feat_tracing_data__write(struct feat_sink *sink, const struct writer_meta *meta);

/* feat_buildid.c: BUILD_ID, the hit DSOs (-ENOENT when there are none). */
int feat__write_build_id(struct feat_sink *s, const struct writer_meta *meta);
/* One perf_record_header_build_id record with header.type = type: 0 in a
 * file's BUILD_ID section (perf leaves it unset), PERF_RECORD_HEADER_BUILD_ID
 * in a pipe. -EINVAL for a size outside 1..20 or a missing filename. */
int feat_buildid__put_record(struct feat_sink *s, const struct writer_buildid *b, uint32_t type);

/* feat_bpf.c: BPF_PROG_INFO and BPF_BTF, always written (a count of 0
 * when no program is loaded), as perf does. */
int feat_bpf_prog_info__write(struct feat_sink *sink, const struct writer_meta *meta);
int feat_bpf_btf__write(struct feat_sink *sink, const struct writer_meta *meta);

#endif
