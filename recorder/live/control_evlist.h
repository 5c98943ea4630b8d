/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_CONTROL_EVLIST_H
#define PREC_RECORDER_CONTROL_EVLIST_H
/*
 * What the --control commands enable, disable and evlist do to the events,
 * with perf's messages: "Events enabled", "Event NAME disabled", "failed:
 * can't find 'NAME' event", and evlist's lines as perf's evsel__fprintf
 * writes them (-v as perf evlist -v).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <linux/perf_event.h>

struct evlist;

/* evlist's flag: what each line shows (perf's perf_attr_details). */
enum control_evlist_flag {
	CONTROL_EVLIST_NAMES, /* no flag: the names */
	CONTROL_EVLIST_VERBOSE, /* -v: every attr field, as perf evlist -v */
	CONTROL_EVLIST_GROUPS, /* -g: the groups, {a,b} */
	CONTROL_EVLIST_FREQ, /* -F: the sample frequency or period */
};

/*
 * enable/disable: every event (name NULL) or those named name (len bytes),
 * group leaders only (members follow them, as in perf). The tracking dummy
 * is left running: the side-band (mmaps, comms) of what starts while the
 * samples are off is what resolves them once they are on again.
 */
void control_evlist__toggle(struct evlist *evlist, const char *name, size_t len, bool enable);

/* evlist [flag]: one line per event on fp (flag: enum control_evlist_flag). */
void control_evlist__print(const struct evlist *evlist, int flag, FILE *fp);

/* The attr's fields as perf's perf_event_attr__fprintf writes them after
 * "NAME": ": type: 1, size: 128, ..." (only the fields that are set). */
void attr__fprint(const struct perf_event_attr *attr, FILE *fp);

#endif
