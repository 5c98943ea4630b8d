/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --setup-filter pin|unpin (perf 6.12): the sample_filter program and its
 * maps pinned in the BPF filesystem by root, so that a user without CAP_BPF
 * can still filter the events of the processes they record; and that
 * user's side: a slot of the pinned filters map, the event's ids and the
 * processes registered, the pinned program attached, all removed at the end.
 */
#ifndef PREC_BPF_FILTER_PIN_H
#define PREC_BPF_FILTER_PIN_H

#include <stdbool.h>
#include <stdint.h>

#include "prec/error.h"

struct evsel;
struct filter_terms;
struct thread_map;
struct filter_pin;

/* Whether the pinned program is there for this process to use. */
bool filter_pin__usable(void);

/*
 * --setup-filter ACTION ("pin" or "unpin"): 0, or -errno with one line in
 * e naming what to do (root, a mounted BPF filesystem, unpin first).
 */
int filter_pin__setup(const char *action, struct prec_err *e);

/*
 * The pinned program on each of evsel's open fds, with f in a free slot
 * for the processes of threads. 0 and *out (owned), or -errno with one line.
 */
int filter_pin__attach(const struct evsel *evsel, const struct filter_terms *f,
		       const struct thread_map *threads, struct filter_pin **out,
		       struct prec_err *e);

/* The samples of the slot the pinned program dropped; 0 for NULL. */
uint64_t filter_pin__dropped(const struct filter_pin *p);

/* Frees the slot and the event's entries in the pinned maps. Accepts NULL. */
void filter_pin__delete(struct filter_pin *p);

#endif
