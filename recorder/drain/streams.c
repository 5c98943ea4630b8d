// SPDX-License-Identifier: GPL-2.0-only
/* The recording engine's streams: one on the caller's thread, or one
 * thread each with --threads (streams.h). */
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

/* Room in a stream's poll set beyond its rings: the stop eventfd, or the
 * main loop's side, wake and output fds. */
#define STREAM_EXTRA_FDS 3

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
		  int nr_rings, const struct pollfd *fds, int nr_fds, int time_off, uint64_t flush,
		  bool stop_on_hup)
{
	memset(ss, 0, sizeof(*ss));
	ss->side_fd = -1;
	ss->out_fd = -1;
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
		/* One stream polls every event's fd, as perf does: a ring's
		 * own fd hangs up when its first task ends, though others may
		 * still feed the ring. */
		int ret = stream__init(st, ss, m, i, rings, nr_rings, m->threaded ? NULL : fds,
				       nr_fds);

		if (!ret)
			ret = drain__init(&st->d, st->rings, st->nr_rings, NULL, time_off);
		if (ret)
			return ret;
		st->d.flush = flush;
	}
	return 0;
}

/* Adds fd to st's poll set; its index, or -1 for no fd. */
static int stream__poll(struct stream *st, int *nfds, int fd, short events)
{
	if (fd < 0)
		return -1;
	st->pfd[*nfds] = (struct pollfd){ .fd = fd, .events = events };
	return (*nfds)++;
}

/* The one stream on this thread: its loop also watches the main loop's
 * fds, and stop is asked after each of its passes. */
static int streams__run_here(struct streams *ss, bool (*stop)(void *arg), void *arg,
			     const sigset_t *sigmask)
{
	struct stream *st = &ss->s[0];
	struct drain *d = &st->d;
	int nfds = st->nr_pfd;

	d->side_pfd = stream__poll(st, &nfds, ss->side_fd, POLLIN);
	d->on_side = ss->on_side;
	d->side_arg = ss->side_arg;
	d->wake_pfd = stream__poll(st, &nfds, ss->wake ? ss->wake->fd : -1, POLLIN);
	d->wake = ss->wake;
	/* Only for its reader's going: POLLERR comes without asking. */
	d->out_pfd = stream__poll(st, &nfds, ss->out_fd, 0);
	return drain__run(d, st->pfd, nfds, ss->stop_on_hup, stop, arg, sigmask);
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
	return NULL;
}

static int streams__start(struct streams *ss)
{
	int ret = 0;

	for (int i = 0; i < ss->nr; i++) {
		struct stream *st = &ss->s[i];

		/* The stop eventfd sits where drain__run keeps a watched
		 * output: left out of the live count, so -p/-t streams still
		 * end when their tasks are gone; it never reports POLLERR. */
		st->pfd[st->nr_pfd] = (struct pollfd){ .fd = ss->stop_fd, .events = POLLIN };
		st->d.out_pfd = st->nr_pfd;
	}
	/* Every signal stays with the main thread, which sleeps in ppoll. */
	for (int i = 0; i < ss->nr && !ret; i++) {
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

/* The main thread only watches: signals and the wake rouse it at once, a
 * loop's end (all its tasks gone, a write error) within a tick. */
static int streams__wait(struct streams *ss, bool (*stop)(void *arg), void *arg,
			 const sigset_t *sigmask)
{
	struct timespec tick = { 0, 100 * 1000000L };
	struct pollfd pfd[2] = {
		{ .fd = ss->side_fd, .events = POLLIN },
		{ .fd = ss->wake ? ss->wake->fd : -1, .events = POLLIN },
	};
	int err = 0;

	while (!err && atomic_load(&ss->running) > 0 && !stop(arg) && !atomic_load(&ss->failed)) {
		if (ppoll(pfd, 2, &tick, sigmask) > 0) {
			if (pfd[0].revents && !ss->on_side(ss->side_arg, pfd[0].revents))
				pfd[0].fd = -1;
			if (pfd[1].revents)
				wake__clear(ss->wake);
		}
		if (ss->between)
			err = ss->between(ss->between_arg);
	}
	return streams__join(ss) ?: err;
}

int streams__run(struct streams *ss, bool (*stop)(void *arg), void *arg, const sigset_t *sigmask)
{
	int ret;

	if (!ss->threaded)
		return streams__run_here(ss, stop, arg, sigmask);
	ret = streams__start(ss);
	if (ret)
		pr_err("cannot start the drain threads: %s (lower the number of streams, e.g. --threads=numa)",
		       strerror(-ret));
	return streams__wait(ss, stop, arg, sigmask) ?: ret;
}

struct drain *streams__main_drain(struct streams *ss)
{
	return ss->threaded || !ss->nr ? NULL : &ss->s[0].d;
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
	if (ss->threaded && ss->stop_fd >= 0)
		close(ss->stop_fd);
	memset(ss, 0, sizeof(*ss));
	ss->stop_fd = -1;
}
