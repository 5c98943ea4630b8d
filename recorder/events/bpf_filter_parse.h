/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF sample filter grammar (--filter after an event that is not a
 * tracepoint), as perf 6.4-6.12 reads it: terms "NAME OP VALUE" joined by ','
 * (all must hold) and by '||' (one of the terms so joined must hold; such a
 * group may stand in parentheses); "cgroup == PATH" or "!=" (perf 6.12)
 * takes a path where the value goes. Pure: a string in, the entries the BPF
 * program walks out, or one line saying what is wrong and what fits there.
 * A cgroup term's value is its path's cgroup id, which a reader of the
 * filesystem fills in (bpf/filter.c): the parser says where the path is.
 */
#ifndef PREC_BPF_FILTER_PARSE_H
#define PREC_BPF_FILTER_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "prec/error.h"

#include "events/bpf_filter_entries.h"

struct filter_terms {
	/* What the program's map holds: nr entries, then SF_OP_DONE when
	 * nr < SAMPLE_FILTER_MAX. */
	struct sample_filter_entry v[SAMPLE_FILTER_MAX];
	int nr;
	/* Where each entry's term is in the parsed string (markers: the group). */
	uint16_t at[SAMPLE_FILTER_MAX];
	uint16_t len[SAMPLE_FILTER_MAX];
	/* A cgroup term's path in the string (path_len 0: no path; value 0
	 * until resolved). Whole offsets: a path cut short names another cgroup. */
	size_t path_at[SAMPLE_FILTER_MAX];
	size_t path_len[SAMPLE_FILTER_MAX];
};

/*
 * Parses str into *f. 0, or -EINVAL with one line in err naming the offending
 * token, its offset and what is accepted there (-E2BIG: more entries than
 * SAMPLE_FILTER_MAX). *f is undefined on failure.
 */
int filter_terms__parse(const char *str, struct filter_terms *f, struct prec_err *e);

/*
 * The name of the PERF_SAMPLE_* bit ("PERF_SAMPLE_CPU") and the perf record
 * option that adds it to an event's sample_type ("--sample-cpu"; NULL when
 * no option does: the event must provide it itself).
 */
const char *filter_terms__bit_name(uint64_t bit);
const char *filter_terms__bit_option(uint64_t bit);

/*
 * The first entry whose field sample_type lacks (helpers need no bit), or -1
 * when the event samples every field the filter reads.
 */
int filter_terms__missing(const struct filter_terms *f, uint64_t sample_type);

#endif
