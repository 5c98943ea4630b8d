/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_SIDEBAND_EVENT_H
#define PREC_RECORDER_SIDEBAND_EVENT_H
/*
 * --switch-output-event: perf's side-band evlist. The event is opened apart
 * from the recorded ones, its records never reach the output; a thread of
 * its own polls its rings, and any record asks for what SIGUSR2 asks (a
 * rotation), through signals__request_switch, then wakes the main loop
 * (drain/wake.h).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "events/parse_events.h"

struct prec_err;
struct evlist;
struct wake;

struct sideband_event {
	struct event_specs specs; /* the event string's events */
	int *fds; /* one per event and CPU (or thread) */
	void **maps; /* each fd's ring, map_bytes long */
	int nr_fds;
	size_t map_bytes;
	int stop_fd; /* an eventfd: the thread's cue to end; -1 none */
	pthread_t th;
	bool started;
	uint64_t triggers; /* the rotations asked for, read after the stop */
	struct wake *wake; /* the main loop's, poked after each request */
};

/*
 * Parses the event string into sb (zeroed first) before anything opens, so
 * a bad event is a usage error; event NULL: none (sb stays empty). 0, or
 * -EINVAL/-ENOMEM with one line in e.
 */
int sideband_event__parse(struct sideband_event *sb, const char *event, struct prec_err *e);

/*
 * Opens the events as perf does for its side-band: on every CPU of the
 * recording for any thread, or, when task_target (-p/-t/-u), on its
 * threads for any CPU; maps a small ring each and starts the polling
 * thread (signals must be blocked already: it inherits the mask). 0, or
 * -errno with the line that names the fix in e.
 */
int sideband_event__start(struct sideband_event *sb, const struct evlist *evlist, bool task_target,
			  struct wake *wake, struct prec_err *e);

/* Ends and joins the thread: no request is made after it returns. */
void sideband_event__stop(struct sideband_event *sb);

/* Stops, closes and frees everything; accepts a zeroed or unparsed sb. */
void sideband_event__exit(struct sideband_event *sb);

#endif
