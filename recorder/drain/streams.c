// SPDX-License-Identifier: GPL-2.0-only
/* The --threads drain streams, one thread each (threads_stream.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "prec/log.h"
#include "drain/ring.h"
#include "drain/affinity.h"
#include "drain/streams.h"

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
 * its poll set, the wake eventfd last. 0 or -ENOMEM. */
static int stream__init(struct stream *st, struct streams *ss, const struct threads_masks *m, int i,
			struct ring *rings, int nr_rings)
{
	int n = 0;

	for (int r = 0; r < nr_rings; r++)
		n += streams__owner(m, rings[r].cpu) == i;
	st->set = ss;
	st->affinity = &m->m[i].affinity;
	st->rings = calloc((size_t)n + 1, sizeof(*st->rings));
	st->pfd = calloc((size_t)n + 1, sizeof(*st->pfd));
	if (!st->rings || !st->pfd)
		return -ENOMEM;
	for (int r = 0; r < nr_rings; r++) {
		if (streams__owner(m, rings[r].cpu) != i)
			continue;
		st->rings[st->nr_pfd] = rings[r];
		st->pfd[st->nr_pfd++] = (struct pollfd){ .fd = rings[r].fd, .events = POLLIN };
	}
	st->pfd[st->nr_pfd++] = (struct pollfd){ .fd = ss->wake_fd, .events = POLLIN };
	return 0;
}

int streams__init(struct streams *ss, const struct threads_masks *m, struct ring *rings,
		  int nr_rings, int time_off, uint64_t flush, bool stop_on_hup)
{
	memset(ss, 0, sizeof(*ss));
	ss->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ss->wake_fd < 0)
		return -errno;
	ss->stop_on_hup = stop_on_hup;
	ss->side_fd = -1;
	ss->s = calloc(m->nr, sizeof(*ss->s));
	if (!ss->s)
		return -ENOMEM;
	ss->nr = (int)m->nr;
	for (int i = 0; i < ss->nr; i++) {
		struct stream *st = &ss->s[i];
		int ret = stream__init(st, ss, m, i, rings, nr_rings);

		if (!ret)
			ret = drain__init(&st->d, st->rings, st->nr_pfd - 1, NULL, time_off);
		if (ret)
			return ret;
		st->d.flush = flush;
		st->d.no_round = true;
		/* The wake eventfd sits where drain__run keeps a watched
		 * output: left out of the live count, so -p/-t streams still
		 * end when their tasks are gone; it never reports POLLERR. */
		st->d.out_pfd = st->nr_pfd - 1;
	}
	return 0;
}

static bool streams__stopped(void *arg)
{
	struct streams *ss = arg;

	return atomic_load_explicit(&ss->stop, memory_order_relaxed);
}

/* Tells every loop to stop: the flag, then the eventfd they poll. */
static void streams__stop(struct streams *ss)
{
	uint64_t one = 1;

	atomic_store(&ss->stop, true);
	if (write(ss->wake_fd, &one, sizeof(one)) < 0)
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
	st->ret = drain__run(&st->d, st->pfd, st->nr_pfd, ss->stop_on_hup, streams__stopped, ss,
			     &all);
	if (st->ret)
		atomic_store(&ss->failed, true);
	/* --max-size: the stream that found the limit reached ends all. */
	if (st->d.no_tail)
		streams__stop(ss);
	atomic_fetch_sub(&ss->running, 1);
	return NULL;
}

int streams__start(struct streams *ss)
{
	sigset_t all, old;
	int ret = 0;

	/* Every signal stays with the main thread, which sleeps in ppoll. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int i = 0; i < ss->nr && !ret; i++) {
		atomic_fetch_add(&ss->running, 1);
		ret = -pthread_create(&ss->s[i].tid, NULL, stream__main, &ss->s[i]);
		if (ret)
			atomic_fetch_sub(&ss->running, 1);
		else
			ss->s[i].started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
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

int streams__wait(struct streams *ss, bool (*stop)(void *arg), void *arg, const sigset_t *sigmask)
{
	/* The main thread only watches: signals wake it at once, a loop's end
	 * (all its tasks gone, a write error) within a tick. */
	struct timespec tick = { 0, 100 * 1000000L };
	struct pollfd side = { .fd = ss->side_fd, .events = POLLIN };

	int err = 0;

	while (!err && atomic_load(&ss->running) > 0 && !stop(arg) && !atomic_load(&ss->failed)) {
		if (ppoll(&side, side.fd >= 0, &tick, sigmask) > 0 && side.revents &&
		    !ss->on_side(ss->side_arg, side.revents))
			side.fd = -1;
		if (ss->between)
			err = ss->between(ss->between_arg);
	}
	return streams__join(ss) ?: err;
}

int streams__tail(struct streams *ss, bool (*give_up)(void *arg), void *arg)
{
	for (int i = 0; i < ss->nr; i++) {
		int ret = drain__tail(&ss->s[i].d, give_up, arg);

		if (ret < 0)
			return ret;
	}
	return 0;
}

void streams__exit(struct streams *ss)
{
	if (ss->nr)
		streams__join(ss);
	for (int i = 0; i < ss->nr; i++) {
		drain__exit(&ss->s[i].d);
		free(ss->s[i].rings);
		free(ss->s[i].pfd);
	}
	free(ss->s);
	if (ss->wake_fd > 0)
		close(ss->wake_fd);
	memset(ss, 0, sizeof(*ss));
	ss->wake_fd = -1;
}
