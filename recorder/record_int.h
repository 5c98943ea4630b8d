#ifndef PREC_RECORDER_RECORD_INT_H
#define PREC_RECORDER_RECORD_INT_H
/*
 * The orchestrator's helpers: record_prepare.c checks and derives everything
 * from the command line before any side effect. Where the records go is the
 * output object's (output.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <sys/types.h>

#include "output.h"

struct event_specs;
struct record_opts;

/* record_prepare.c */

/* Whether perf's parser would have scanned the PMUs for these events. */
bool events_scan_pmus(const struct event_specs *specs);

/* Every -e with its filters, then perf's checks. 0, or -EINVAL with one line in err. */
int parse_all_events(struct event_specs *specs, const struct record_opts *opts, char *err,
		     size_t errlen);

/* -F as the kernel will take it (perf's warning when lowered). */
uint64_t effective_freq(const struct record_opts *opts);

/* Ring data bytes per CPU for -m (rounded as perf, with its message) or the default. */
size_t ring_bytes(const struct record_opts *opts);

#endif
