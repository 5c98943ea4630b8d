#ifndef PREC_RECORDER_DRAIN_STREAMS_H
#define PREC_RECORDER_DRAIN_STREAMS_H
/*
 * The recording engine: N drain streams, each a drain loop (drain.h) over
 * its own rings writing its own writer. A recording without --threads is
 * one stream over every ring; --threads only chooses N and the masks.
 * Stream 0 always runs on the caller's thread (perf's thread_data[0]): it
 * is the main loop, and also polls --control's channel, the wake eventfd
 * other threads poke (wake.h), and in pipe mode the output stream's fd for
 * its reader going (streams__set_main). With --threads streams 1..N-1 run
 * on threads of their own, bound to their affinity masks. Nothing is
 * shared on the hot path: a stream's rings, drain, counts and writer are
 * its alone; threaded streams meet only at the stop flag (an atomic and an
 * eventfd every loop polls) and at the join. What each stream does with
 * its records (the size cut, the build-id tracker, the unwinder, the
 * counts) and between its passes are hooks and between-pass steps the
 * output gives each stream's drain, the same for N = 1 and N > 1.
 *
 *   streams__init -> (each stream's drain gets its writer, hooks and
 *   steps: the output) -> streams__set_main -> streams__run -> (events
 *   disabled) -> streams__tail -> streams__exit
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "prec/error.h"
#include "drain/drain.h"
#include "drain/threads.h"

struct pollfd;
struct ring;
struct wake;

struct stream {
	struct drain d; /* its writer, hooks and steps: the output's */
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

/* What the main loop (stream 0's, on the caller's thread) polls beyond its
 * rings. */
struct streams_main {
	/* --control's command channel, -1 none: on_side runs on the main
	 * thread when it is ready and returns false to stop polling it. */
	int side_fd;
	bool (*on_side)(void *arg, short revents);
	void *side_arg;
	/* The main loop's wake-up (wake.h), also poked by a stream thread
	 * that ends; NULL none. */
	struct wake *wake;
	/* Pipe mode: the output stream's fd, watched for its reader going
	 * (drain__run's -EPIPE); -1 none. */
	int out_fd;
};

struct streams {
	struct stream *s;
	int nr;
	bool threaded; /* streams 1..N-1 on threads of their own (--threads) */
	int stop_fd; /* threaded: an eventfd, readable from the stop on */
	atomic_bool stop;
	atomic_int running; /* stream threads whose loop has not returned */
	atomic_bool failed; /* a loop returned an error: all stop */
	bool stop_on_hup; /* -p/-t: a stream ends when all its fds hung up */
	struct streams_main main; /* streams__set_main's; none (streams__init's) */
	/* streams__run's stop, asked on the main thread after each of its passes */
	bool (*stop_fn)(void *arg);
	void *stop_arg;
	/* Why a stream thread could not start (streams__run goes on with
	 * the others and returns its code): for the caller to print. */
	struct prec_err err;
};

/*
 * One stream per mask of m over the rings (each ring to the stream whose
 * maps hold its CPU; a ring no mask names goes to the first stream, so
 * nothing recorded is left undrained), threaded as m is. Threaded streams
 * poll their rings' fds; the one stream polls fds (every event's, copied).
 * Each stream's drain is configured by c (its nr_rings the stream's own).
 * 0 or -errno (-ENOMEM, eventfd's); streams__exit in both cases.
 */
int streams__init(struct streams *ss, const struct threads_masks *m, struct ring *rings,
		  int nr_rings, const struct pollfd *fds, int nr_fds, const struct drain_config *c,
		  bool stop_on_hup);

/* What the main loop polls beyond its rings (m copied). Before streams__run. */
void streams__set_main(struct streams *ss, const struct streams_main *m);

/*
 * Runs the streams until stop(arg) (asked on the main thread after each of
 * stream 0's passes or wakes), every loop's targets are gone (-p/-t), one
 * failed, or a between-pass step ended one. Stream 0's loop runs on this
 * thread, its ppoll taking sigmask. Threaded: first one thread per other
 * stream (every signal blocked there, bound to its affinity CPUs when the
 * machine lets it), and this thread bound to stream 0's; at the end all
 * are stopped and joined. Returns 0, or stream 0's, else the first other
 * stream's negative errno; a pthread_create error is printed here (the
 * streams started still run and are joined).
 */
int streams__run(struct streams *ss, bool (*stop)(void *arg), void *arg, const sigset_t *sigmask);

/* The drain the main loop runs: stream 0's; NULL when there is none. */
struct drain *streams__main_drain(struct streams *ss);

/* Each stream's tail (drain__tail) after the events were disabled, on
 * this thread. The most passes with data one took, or the first -errno. */
int streams__tail(struct streams *ss, bool (*give_up)(void *arg), void *arg);

/* Frees the streams (not their writers, which the output owns). Accepts
 * a zeroed or a half-initialised set. */
void streams__exit(struct streams *ss);

#endif
