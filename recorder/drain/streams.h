#ifndef PREC_RECORDER_DRAIN_STREAMS_H
#define PREC_RECORDER_DRAIN_STREAMS_H
/*
 * The recording engine: N drain streams, each a drain loop (drain.h) over
 * its own rings writing its own writer. A recording without --threads is
 * one stream over every ring, run on the caller's thread; --threads only
 * chooses N and the masks, and runs each stream on its own thread bound to
 * its affinity mask. Nothing is shared on the hot path: a stream's rings,
 * drain, counts and writer are its alone; threaded streams meet only at the
 * stop flag (an atomic and an eventfd every loop polls) and at the join.
 * What each stream does with its records (the size cut, the build-id
 * tracker, the unwinder, the counts) are hooks the output gives each
 * stream's drain, the same for N = 1 and N > 1.
 *
 * The main loop (the one stream's, or the waiting main thread's) also
 * polls --control's channel (side_fd), the wake eventfd other threads poke
 * (wake.h), and in pipe mode the output stream's fd for its reader going.
 *
 *   streams__init -> (each stream's drain gets its writer and hooks: the
 *   output) -> streams__run -> (events disabled) -> streams__tail ->
 *   streams__exit
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
struct wake;

struct stream {
	struct drain d; /* d.w is set by the output before streams__run */
	struct ring *rings; /* copies of the evlist's rings of this stream's CPUs */
	int nr_rings;
	struct pollfd *pfd; /* the fds it polls, then the extra ones (streams__run) */
	int nr_pfd; /* of which the first nr_pfd are its own */
	const struct cpulist *affinity; /* the mask's; not owned */
	pthread_t tid;
	bool started;
	int ret; /* drain__run's result */
	struct streams *set;
};

struct streams {
	struct stream *s;
	int nr;
	bool threaded; /* a thread per stream (--threads); else stream 0 on the caller's */
	int stop_fd; /* threaded: an eventfd, readable from the stop on */
	atomic_bool stop;
	atomic_int running; /* streams whose loop has not returned */
	atomic_bool failed; /* a loop returned an error: all stop */
	bool stop_on_hup; /* -p/-t: a stream ends when all its fds hung up */
	/* Set before streams__run. --control's command channel, -1
	 * (streams__init's) none: on_side runs on the main loop's thread when
	 * it is ready and returns false to stop polling it. */
	int side_fd;
	bool (*on_side)(void *arg, short revents);
	void *side_arg;
	struct wake *wake; /* the main loop's wake-up (wake.h); NULL none */
	/* Pipe mode: the output stream's fd, watched for its reader going
	 * (drain__run's -EPIPE); -1 (streams__init's) none. */
	int out_fd;
	/* NULL (streams__init's) or, threaded, run on the waiting main thread
	 * after each wake (a signal, side_fd, the wake, the tick): the
	 * output's work between passes (the background side-band into the data
	 * file). 0, or -errno to stop every stream with that error. */
	int (*between)(void *arg);
	void *between_arg;
};

/*
 * One stream per mask of m over the rings (each ring to the stream whose
 * maps hold its CPU; a ring no mask names goes to the first stream, so
 * nothing recorded is left undrained), threaded as m is. Threaded streams
 * poll their rings' fds; the one stream polls fds (every event's, copied).
 * time_off and flush as for one drain. 0 or -errno (-ENOMEM, eventfd's);
 * streams__exit in both cases.
 */
int streams__init(struct streams *ss, const struct threads_masks *m, struct ring *rings,
		  int nr_rings, const struct pollfd *fds, int nr_fds, int time_off, uint64_t flush,
		  bool stop_on_hup);

/*
 * Runs the streams until stop(arg) (asked on the main loop's thread after
 * every pass or wake), every loop has returned (its targets gone, -p/-t),
 * one failed, an after_pass ended it, or between failed. Not threaded:
 * stream 0's loop on this thread, its ppoll taking sigmask. Threaded: one
 * thread per stream (every signal blocked there, bound to its affinity
 * CPUs when the machine lets it), this one sleeping in ppoll with sigmask;
 * then all are stopped and joined. Returns 0, between's or the first
 * stream's negative errno; -EAGAIN-style pthread_create errors are said
 * here (the streams started still run and are joined).
 */
int streams__run(struct streams *ss, bool (*stop)(void *arg), void *arg, const sigset_t *sigmask);

/* The drain the main loop runs (the one stream's), or NULL when threaded. */
struct drain *streams__main_drain(struct streams *ss);

/* Each stream's tail (drain__tail) after the events were disabled, on
 * this thread. The most passes with data one took, or the first -errno. */
int streams__tail(struct streams *ss, bool (*give_up)(void *arg), void *arg);

/* Frees the streams (not their writers, which the output owns). Accepts
 * a zeroed or a half-initialised set. */
void streams__exit(struct streams *ss);

#endif
