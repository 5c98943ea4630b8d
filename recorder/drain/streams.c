// SPDX-License-Identifier: GPL-2.0-only
/* The recording engine's streams: stream 0 on the caller's thread, the
 * others on one thread each with --threads (streams.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "prec/log.h"
#include "prec/thread.h"
#include "drain/affinity.h"
#include "drain/ring.h"
#include "drain/streams.h"
#include "drain/wake.h"

/* Room in a stream's poll set beyond its rings: the stop eventfd, and the
 * main loop's side, wake and output fds. */
#define STREAM_EXTRA_FDS 4

/* A stream thread's stack: its drain, the writer, zstd and the unwinder
 * (libunwind's remote steps) touch under 64 KB; the rest is margin. */
#define STREAM_STACK (1024 * 1024)

/* Which stream drains the ring of cpu: the first whose maps hold it, else
 * the first stream (a user mask that leaves a CPU out loses nothing). */
static int streams__owner(const struct threads_masks *m, int cpu)
{
	for (uint32_t i = 0; cpu >= 0 && i < m->nr; i++)
		if (cpulist__has(&m->m[i].maps, (uint32_t)cpu))
			return (int)i;
	return 0;
}

/* Stream i's rings (copied: each loop walks a plain array of its own) and
 * the fds it polls first: its rings', or fds when given. 0 or -ENOMEM. */
static int stream__init(struct stream *st, struct streams *ss, const struct threads_masks *m, int i,
			struct ring *rings, int nr_rings, const struct pollfd *fds, int nr_fds)
{
	int n = 0;

	for (int r = 0; r < nr_rings; r++)
		n += streams__owner(m, rings[r].cpu) == i;
	st->set = ss;
	st->affinity = &m->m[i].affinity;
	st->rings = calloc((size_t)n + 1, sizeof(*st->rings));
	st->pfd = calloc((size_t)(fds ? nr_fds : n) + STREAM_EXTRA_FDS, sizeof(*st->pfd));
	if (!st->rings || !st->pfd)
		return -ENOMEM;
	for (int r = 0; r < nr_rings; r++) {
		if (streams__owner(m, rings[r].cpu) != i)
			continue;
		st->rings[st->nr_rings++] = rings[r];
		if (!fds)
			st->pfd[st->nr_pfd++] =
				(struct pollfd){ .fd = rings[r].fd, .events = POLLIN };
	}
	for (int f = 0; fds && f < nr_fds; f++)
		st->pfd[st->nr_pfd++] = fds[f];
	return 0;
}

int streams__init(struct streams *ss, const struct threads_masks *m, struct ring *rings,
		  int nr_rings, const struct pollfd *fds, int nr_fds, const struct drain_config *c,
		  bool stop_on_hup)
{
	memset(ss, 0, sizeof(*ss));
	ss->main = (struct streams_main){ .side_fd = -1, .out_fd = -1 };
	ss->stop_fd = m->threaded ? eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK) : -1;
	if (m->threaded && ss->stop_fd < 0)
		return -errno;
	ss->threaded = m->threaded;
	ss->stop_on_hup = stop_on_hup;
	ss->s = calloc(m->nr, sizeof(*ss->s));
	if (!ss->s)
		return -ENOMEM;
	ss->nr = (int)m->nr;
	for (int i = 0; i < ss->nr; i++) {
		struct stream *st = &ss->s[i];
		struct drain_config dc = *c;
		/* One stream polls every event's fd, as perf does: a ring's
		 * own fd hangs up when its first task ends, though others may
		 * still feed the ring. */
		int ret = stream__init(st, ss, m, i, rings, nr_rings, m->threaded ? NULL : fds,
				       nr_fds);

		dc.nr_rings = st->nr_rings;
		if (!ret)
			ret = drain__init(&st->d, st->rings, &dc);
		if (ret)
			return ret;
	}
	return 0;
}

void streams__set_main(struct streams *ss, const struct streams_main *m)
{
	ss->main = *m;
}

/* Adds fd to st's poll set; its index, or -1 for no fd. */
static int stream__poll(struct stream *st, int *nfds, int fd, short events)
{
	if (fd < 0)
		return -1;
	st->pfd[*nfds] = (struct pollfd){ .fd = fd, .events = events };
	return (*nfds)++;
}

static bool streams__stopped(void *arg)
{
	struct streams *ss = arg;

	return atomic_load_explicit(&ss->stop, memory_order_relaxed);
}

/* Tells every threaded loop to stop: the flag, then the eventfd they poll. */
static void streams__stop(struct streams *ss)
{
	uint64_t one = 1;

	atomic_store(&ss->stop, true);
	if (write(ss->stop_fd, &one, sizeof(one)) < 0)
		pr_debug("drain streams: waking them: %s\n", strerror(errno));
}

/* One stream's thread: bound near its CPUs, then its drain loop. */
static void *stream__main(void *arg)
{
	struct stream *st = arg;
	struct streams *ss = st->set;
	sigset_t all;
	int err = affinity__bind(st->affinity);

	/* A cpuset that forbids the mask leaves the thread where it is:
	 * slower, never wrong. */
	if (err)
		pr_debug("drain stream: cannot bind to its CPUs: %s\n", strerror(-err));
	sigfillset(&all);
	st->ret = drain__run(&st->d, st->pfd, st->nr_pfd + 1, ss->stop_on_hup, streams__stopped, ss,
			     &all);
	if (st->ret)
		atomic_store(&ss->failed, true);
	/* --max-size: the stream that found the limit reached ends all. */
	if (st->d.no_tail)
		streams__stop(ss);
	atomic_fetch_sub(&ss->running, 1);
	/* The main loop asks, between its passes, whether all are done. */
	wake__poke(ss->main.wake);
	return NULL;
}

/* Streams 1..N-1 on threads of their own, each polling the stop eventfd. */
static int streams__start(struct streams *ss)
{
	int ret = 0;

	for (int i = 1; i < ss->nr; i++) {
		struct stream *st = &ss->s[i];

		st->pfd[st->nr_pfd] = (struct pollfd){ .fd = ss->stop_fd, .events = POLLIN };
		st->d.stop_pfd = st->nr_pfd;
	}
	/* Every signal stays with the main thread, which sleeps in ppoll. */
	for (int i = 1; i < ss->nr && !ret; i++) {
		char name[THREAD_NAME_MAX];

		/* Four digits fit the kernel's 15 bytes. */
		snprintf(name, sizeof(name), "prec-drain-%u", (unsigned)i % 10000u);
		atomic_fetch_add(&ss->running, 1);
		ret = thread__start(&ss->s[i].tid, name, STREAM_STACK, stream__main, &ss->s[i]);
		if (ret)
			atomic_fetch_sub(&ss->running, 1);
		else
			ss->s[i].started = true;
	}
	return ret;
}

/* Tells every loop to stop, joins. */
static int streams__join(struct streams *ss)
{
	int ret = 0;

	streams__stop(ss);
	for (int i = 0; i < ss->nr; i++) {
		if (!ss->s[i].started)
			continue;
		pthread_join(ss->s[i].tid, NULL);
		ss->s[i].started = false;
		if (!ret && ss->s[i].ret)
			ret = ss->s[i].ret;
	}
	return ret;
}

/* The main loop's stop: the caller's; threaded, also another stream's
 * failure or end (--max-size), or, for -p/-t, every stream's targets gone
 * (stream 0's fds hung up and no other loop running). */
static bool streams__main_stop(void *arg)
{
	struct streams *ss = arg;

	if (ss->stop_fn(ss->stop_arg))
		return true;
	if (!ss->threaded)
		return false;
	if (atomic_load(&ss->stop) || atomic_load(&ss->failed))
		return true;
	return ss->stop_on_hup && ss->s[0].d.live == 0 && atomic_load(&ss->running) == 0;
}

/* Stream 0 on this thread: its loop also watches the main loop's fds. */
static int streams__run_main(struct streams *ss, const sigset_t *sigmask)
{
	struct stream *st = &ss->s[0];
	struct drain *d = &st->d;
	int nfds = st->nr_pfd;

	d->side_pfd = stream__poll(st, &nfds, ss->main.side_fd, POLLIN);
	d->on_side = ss->main.on_side;
	d->side_arg = ss->main.side_arg;
	d->wake_pfd = stream__poll(st, &nfds, ss->main.wake ? ss->main.wake->fd : -1, POLLIN);
	d->wake = ss->main.wake;
	/* Only for its reader's going: POLLERR comes without asking. */
	d->out_pfd = stream__poll(st, &nfds, ss->main.out_fd, 0);
	d->stop_pfd = stream__poll(st, &nfds, ss->stop_fd, POLLIN);
	/* Threaded, its own targets gone is not the end: the others' may
	 * still run (streams__main_stop decides). */
	return drain__run(d, st->pfd, nfds, ss->stop_on_hup && !ss->threaded, streams__main_stop,
			  ss, sigmask);
}

int streams__run(struct streams *ss, bool (*stop)(void *arg), void *arg, const sigset_t *sigmask)
{
	int ret = 0, err;

	ss->stop_fn = stop;
	ss->stop_arg = arg;
	if (ss->threaded) {
		ret = streams__start(ss);
		if (ret)
			prec_err__set(
				&ss->err, ret,
				"cannot start the drain threads: %s (lower the number of streams, e.g. --threads=numa)",
				strerror(-ret));
		/* As perf binds its thread_data[0]: near stream 0's rings. */
		err = affinity__bind(ss->s[0].affinity);
		if (err)
			pr_debug("drain stream: cannot bind to its CPUs: %s\n", strerror(-err));
	}
	/* A stream that could not start: the others still run until stopped. */
	err = streams__run_main(ss, sigmask);
	if (ss->threaded)
		err = err ?: streams__join(ss);
	return err ?: ret;
}

struct drain *streams__main_drain(struct streams *ss)
{
	return ss->nr ? &ss->s[0].d : NULL;
}

int streams__tail(struct streams *ss, bool (*give_up)(void *arg), void *arg)
{
	int most = 0;

	for (int i = 0; i < ss->nr; i++) {
		int ret = drain__tail(&ss->s[i].d, give_up, arg);

		if (ret < 0)
			return ret;
		most = ret > most ? ret : most;
	}
	return most;
}

void streams__exit(struct streams *ss)
{
	if (ss->threaded)
		streams__join(ss);
	for (int i = 0; i < ss->nr; i++) {
		drain__exit(&ss->s[i].d);
		free(ss->s[i].rings);
		free(ss->s[i].pfd);
	}
	free(ss->s);
	prec_err__clear(&ss->err);
	if (ss->threaded && ss->stop_fd >= 0)
		close(ss->stop_fd);
	memset(ss, 0, sizeof(*ss));
	ss->stop_fd = -1;
}
