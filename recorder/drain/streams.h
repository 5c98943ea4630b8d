#ifndef PREC_RECORDER_THREADS_STREAM_H
#define PREC_RECORDER_THREADS_STREAM_H
/*
 * --threads: the drain streams, each a drain loop (drain.h) over its own
 * rings, on its own thread bound to its affinity mask, writing its own
 * writer. Nothing is shared on the hot path: a stream's rings, drain,
 * counts and writer are its alone; the threads meet only at the stop flag
 * (an atomic and an eventfd every loop polls) and at the join.
 *
 *   streams__init -> (each stream's drain gets its writer: output) ->
 *   streams__start -> streams__wait -> (events disabled) -> streams__tail
 *   -> streams__exit
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "drain/drain.h"
#include "drain/threads.h"

struct pollfd;
struct ring;

struct stream {
	struct drain d; /* d.w is set by the output before streams__start */
	struct ring *rings; /* copies of the evlist's rings of this stream's CPUs */
	struct pollfd *pfd; /* their fds, then the set's wake eventfd */
	int nr_pfd;
	const struct cpulist *affinity; /* the mask's; not owned */
	pthread_t tid;
	bool started;
	int ret; /* drain__run's result */
	struct streams *set;
};

struct streams {
	struct stream *s;
	int nr;
	int wake_fd; /* an eventfd, readable from the stop on */
	atomic_bool stop;
	atomic_int running; /* streams whose loop has not returned */
	atomic_bool failed; /* a loop returned an error: all stop */
	bool stop_on_hup; /* -p/-t: a stream ends when all its fds hung up */
	/* One fd the waiting main thread polls (--control's command channel),
	 * -1 (streams__init's) none: on_side runs there when it is ready and
	 * returns false to stop polling it. */
	int side_fd;
	bool (*on_side)(void *arg, short revents);
	void *side_arg;
	/* NULL (streams__init's) or run on the waiting main thread after each
	 * wake (a signal, side_fd, the tick): the output's work between
	 * passes (the background side-band into the data file). 0, or -errno
	 * to stop every stream with that error. */
	int (*between)(void *arg);
	void *between_arg;
};

/*
 * One stream per mask of m over the rings (each ring to the stream whose
 * maps hold its CPU; a ring no mask names goes to the first stream, so
 * nothing recorded is left undrained). time_off and flush as for one
 * drain; the streams write no FINISHED_ROUND. 0 or -errno (-ENOMEM,
 * eventfd's); streams__exit in both cases.
 */
int streams__init(struct streams *ss, const struct threads_masks *m, struct ring *rings,
		  int nr_rings, int time_off, uint64_t flush, bool stop_on_hup);

/* Starts one thread per stream (every signal blocked in it, bound to its
 * affinity CPUs when the machine lets it). 0 or pthread_create's -errno,
 * after which streams__wait stops and joins those started. */
int streams__start(struct streams *ss);

/*
 * Sleeps (ppoll with sigmask, so the recording's signals are seen, and on
 * side_fd) until stop(arg), every loop has returned, one failed or between
 * failed; then stops and joins them all. Returns 0, between's or the first
 * stream's negative errno.
 */
int streams__wait(struct streams *ss, bool (*stop)(void *arg), void *arg, const sigset_t *sigmask);

/* Each stream's tail (drain__tail) after the events were disabled, on
 * this thread. 0 or the first -errno. */
int streams__tail(struct streams *ss, bool (*give_up)(void *arg), void *arg);

/* Frees the streams (not their writers, which the output owns). Accepts
 * a zeroed or a half-initialised set. */
void streams__exit(struct streams *ss);

#endif
