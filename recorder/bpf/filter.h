/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A BPF --filter on one opened event: its check against the event's final
 * sample_type, the sample_filter program loaded with its terms and attached
 * to every fd of the event, and the count of the samples it dropped.
 */
#ifndef PREC_BPF_FILTER_H
#define PREC_BPF_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "prec/error.h"

struct evlist;
struct evsel;
struct bpf_filter;

/*
 * Whether the event samples every field its filter reads (perf's
 * check_sample_flags), and each cgroup term names a cgroup. 0, or -EINVAL
 * with one line in e naming the term, the PERF_SAMPLE bit and the option
 * that adds it, or -errno with one line naming a cgroup term whose cgroup
 * cannot be found.
 */
int bpf_filter__check(const struct evsel *evsel, struct prec_err *e);

/* The samples the program dropped so far, summed over the CPUs; 0 for NULL. */
uint64_t bpf_filter__dropped(const struct bpf_filter *f);

/*
 * Every BPF --filter of the opened events: each checked against its event's
 * final sample_type, then whether BPF may load here, then each program
 * loaded and attached. 0, or a negative errno with its one line in e (out
 * of memory included); the events stay open (the caller closes them),
 * nothing else is left.
 */
int bpf_filters__attach(struct evlist *evlist, struct prec_err *e);

/* Unloads every filter program; safe when none or some were attached. */
void bpf_filters__detach(struct evlist *evlist);

/* The samples every BPF filter of the recording dropped. */
uint64_t bpf_filters__dropped(const struct evlist *evlist);

/* Unloads the program (the events keep it until they close). Accepts NULL. */
void bpf_filter__delete(struct bpf_filter *f);

#endif
