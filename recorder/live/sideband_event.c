// SPDX-License-Identifier: GPL-2.0-only
/*
 * --switch-output-event: the side-band event, its rings and the thread that
 * turns each record of it into a rotation request (perf's sb_evlist and
 * perf_evlist__poll_thread). Its records are consumed here, unread: they
 * say "now", nothing else, and never go into the data file.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "prec/error.h"
#include "targets/cpu_map.h"
#include "evlist/evlist.h"
#include "prec/log.h"
#include "prec/perf_file.h"
#include "prec/thread.h"
#include "targets/thread_map.h"
#include "drain/wake.h"
#include "live/sideband_event.h"
#include "signals.h"
#include "targets/sys.h"

int sideband_event__parse(struct sideband_event *sb, const char *event, struct prec_err *e)
{
	int ret;

	memset(sb, 0, sizeof(*sb));
	sb->stop_fd = -1;
	if (!event)
		return 0;
	ret = parse_events(&sb->specs, event, e);
	if (ret && !prec_err__is_set(e))
		prec_err__set(e, ret, "%s", strerror(-ret));
	if (ret)
		prec_err__prefix(e, "invalid --switch-output-event");
	return ret;
}

/* The attr perf's side-band opens with: the event as parsed, enabled at
 * once; a record wakes the poll at once, where perf waits up to a second. */
static void sideband_event__attr(const struct event_spec *spec, struct perf_event_attr *attr)
{
	*attr = spec->attr;
	attr->size = PREC_ATTR_SIZE;
	attr->disabled = 0;
	attr->watermark = 0;
	attr->wakeup_events = 1;
	if (spec->terms.set & EVENT_TERM_PERIOD) {
		attr->freq = 0;
		attr->sample_period = spec->terms.period;
	}
	/* A counting event (a software event as parsed) writes no record
	 * ever: every occurrence is one, as for a tracepoint. */
	if (!attr->freq && !attr->sample_period)
		attr->sample_period = 1;
}

static int sideband_event__open_one(struct sideband_event *sb, const struct event_spec *spec,
				    int pid, int cpu, bool inherit)
{
	struct perf_event_attr attr;
	int fd = -1;
	void *map;

	sideband_event__attr(spec, &attr);
	attr.inherit = inherit;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return fd;
	map = mmap(NULL, sb->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	sb->fds[sb->nr_fds] = fd;
	sb->maps[sb->nr_fds++] = map;
	return 0;
}

static void sideband_event__close(struct sideband_event *sb)
{
	for (int i = 0; i < sb->nr_fds; i++) {
		munmap(sb->maps[i], sb->map_bytes);
		close(sb->fds[i]);
	}
	sb->nr_fds = 0;
}

/* Takes what every ring holds; true when any held a record. */
static bool sideband_event__consume(struct sideband_event *sb)
{
	bool got = false;

	for (int i = 0; i < sb->nr_fds; i++) {
		struct perf_event_mmap_page *pc = sb->maps[i];
		uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);

		if (head != pc->data_tail) {
			got = true;
			__atomic_store_n(&pc->data_tail, head, __ATOMIC_RELEASE);
		}
	}
	return got;
}

/* Its thread polls a few rings and moves their tails: a few KB of stack
 * touched, the rest is margin. */
#define SB_STACK (128 * 1024)

static void *sideband_event__thread(void *arg)
{
	struct sideband_event *sb = arg;
	struct pollfd *pfd = calloc((size_t)sb->nr_fds + 1, sizeof(*pfd));

	if (!pfd)
		return NULL;
	for (int i = 0; i < sb->nr_fds; i++)
		pfd[i] = (struct pollfd){ .fd = sb->fds[i], .events = POLLIN };
	pfd[sb->nr_fds] = (struct pollfd){ .fd = sb->stop_fd, .events = POLLIN };
	for (;;) {
		if (poll(pfd, (nfds_t)sb->nr_fds + 1, -1) < 0 && errno != EINTR)
			break;
		if (pfd[sb->nr_fds].revents)
			break;
		/* A thread of a -p target gone: its fd hangs up for good. */
		for (int i = 0; i < sb->nr_fds; i++)
			if (pfd[i].revents & (POLLHUP | POLLERR))
				pfd[i].fd = -1;
		if (sideband_event__consume(sb)) {
			sb->triggers++;
			signals__request_switch();
			wake__poke(sb->wake);
		}
	}
	free(pfd);
	return NULL;
}

/*
 * Each event on every CPU for any task (pid -1), on every thread of a task
 * target for any CPU, or, with follow > 0, on every CPU for that command
 * and its children. 0 or -errno, *failed the event that did not open.
 */
static int sideband_event__open_each(struct sideband_event *sb, const struct evlist *evlist,
				     bool task_target, int follow, int *failed)
{
	const struct cpu_map *cpus = evlist->cpus;
	const struct thread_map *thr = evlist->threads;
	int per = task_target ? thr->nr : cpus->nr;

	for (int e = 0; e < sb->specs.nr; e++) {
		for (int i = 0; i < per; i++) {
			int pid = task_target ? thr->pid[i] : follow > 0 ? follow : -1;
			int cpu = task_target ? -1 : cpus->cpu[i];
			int ret =
				sideband_event__open_one(sb, &sb->specs.v[e], pid, cpu, follow > 0);

			/* A -p thread that ended before its turn is no error. */
			if (ret == -ESRCH && task_target)
				continue;
			if (ret) {
				*failed = e;
				return ret;
			}
		}
	}
	return 0;
}

static int sideband_event__open_all(struct sideband_event *sb, const struct evlist *evlist,
				    bool task_target, struct prec_err *e)
{
	size_t n = (size_t)(task_target ? evlist->threads->nr : evlist->cpus->nr) *
		   (size_t)sb->specs.nr;
	int failed = 0, ret;

	sb->fds = calloc(n, sizeof(*sb->fds));
	sb->maps = calloc(n, sizeof(*sb->maps));
	if (!sb->fds || !sb->maps)
		return prec_err__set(e, -ENOMEM, "cannot open --switch-output-event: %s (free some memory)",
				     strerror(ENOMEM));
	/* Two pages: the control page and one of data, emptied at each wake. */
	sb->map_bytes = 2 * (size_t)sysconf(_SC_PAGESIZE);
	ret = sideband_event__open_each(sb, evlist, task_target, -1, &failed);
	/* perf's side-band watches the whole machine, which needs privileges
	 * (perf goes on without it: no rotation ever). Where only a command is
	 * recorded, its own tasks are what a user may watch: those, then. */
	if ((ret == -EACCES || ret == -EPERM) && !task_target && evlist->workload_only &&
	    evlist->threads->nr == 1 && evlist->threads->pid[0] > 0) {
		sideband_event__close(sb);
		pr_verbose(
			"--switch-output-event: not permitted system-wide, following the command\n");
		ret = sideband_event__open_each(sb, evlist, false, evlist->threads->pid[0],
						&failed);
	}
	if (ret)
		prec_err__set(e, ret, "cannot open --switch-output-event '%s': %s (%s)",
			      sb->specs.v[failed].name, strerror(-ret),
			      ret == -EACCES || ret == -EPERM ?
				      "run as root, or lower kernel.perf_event_paranoid" :
				      "check that this event can sample here, e.g. with prec -e on it");
	return ret;
}

int sideband_event__start(struct sideband_event *sb, const struct evlist *evlist, bool task_target,
			  struct wake *wake, struct prec_err *e)
{
	int ret;

	sb->wake = wake;
	/* perf: without a per-CPU map (--per-thread) the events follow tasks. */
	if (evlist->cpus->nr == 1 && evlist->cpus->cpu[0] == -1)
		task_target = true;
	ret = sideband_event__open_all(sb, evlist, task_target, e);
	if (ret)
		return ret;
	sb->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (sb->stop_fd < 0)
		return prec_err__set(e, -errno, "cannot start the --switch-output-event thread: %s",
				     strerror(errno));
	ret = thread__start(&sb->th, "prec-sb-event", SB_STACK, sideband_event__thread, sb);
	if (ret)
		return prec_err__set(
			e, ret,
			"cannot start the --switch-output-event thread: %s (raise the process limit, ulimit -u)",
			strerror(-ret));
	sb->started = true;
	pr_verbose("--switch-output-event: %d ring(s)\n", sb->nr_fds);
	return 0;
}

void sideband_event__stop(struct sideband_event *sb)
{
	uint64_t one = 1;

	if (!sb->started)
		return;
	/* An eventfd write fails only past 2^64-2 pending: never here. */
	if (write(sb->stop_fd, &one, sizeof(one)) != (ssize_t)sizeof(one))
		pr_verbose("--switch-output-event: cannot wake the thread: %s\n", strerror(errno));
	pthread_join(sb->th, NULL);
	sb->started = false;
	pr_verbose("--switch-output-event: %llu rotation(s) asked\n",
		   (unsigned long long)sb->triggers);
}

void sideband_event__exit(struct sideband_event *sb)
{
	sideband_event__stop(sb);
	sideband_event__close(sb);
	free(sb->fds);
	free(sb->maps);
	sb->fds = NULL;
	sb->maps = NULL;
	sb->nr_fds = 0;
	if (sb->stop_fd >= 0)
		close(sb->stop_fd);
	sb->stop_fd = -1;
	event_specs__exit(&sb->specs);
}
