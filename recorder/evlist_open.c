// SPDX-License-Identifier: GPL-2.0-only
/*
 * evlist__open: every event on every CPU and thread, with perf's weak-group
 * fallback, the tracepoint filters, and the one line that explains a refusal.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "prec/cpu_map.h"
#include "prec/evlist.h"
#include "prec/log.h"
#include "prec/thread_map.h"
#include "caps.h"
#include "vendor.h"

/*
 * The advice for an event the kernel refused (after every fallback): perf
 * 6.1's where it knows the cause (evsel__open_strerror), prec's otherwise.
 */
static const char *open_hint(const struct evlist *evlist, const struct evsel *evsel, int err,
			     char *buf, size_t len)
{
	const struct perf_event_attr *attr = &evsel->attr;
	const char *hint;

	switch (err) {
	case EACCES:
	case EPERM:
		/* The paranoid fallback cannot drop the kernel from an event that
		 * counts nothing else. */
		if (err == EACCES && attr->exclude_user && !attr->exclude_kernel &&
		    !caps__can_perfmon() && caps__paranoid() > 1) {
			snprintf(
				buf, len,
				"the event samples the kernel only, and kernel.perf_event_paranoid=%d forbids kernel profiling without CAP_PERFMON: lower it with 'sysctl kernel.perf_event_paranoid=1', run as root or grant CAP_PERFMON, or drop the :k modifier / --all-kernel",
				caps__paranoid());
			return buf;
		}
		return caps__advice(buf, len);
	case EMFILE:
	case ENFILE:
		return "too many open files: raise the limit with 'ulimit -n'";
	case ENOENT:
	case ENODEV:
		return "this machine does not support the event; pick another with -e";
	case EOPNOTSUPP:
		if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK)
			return "this event's PMU cannot sample branch stacks; drop -b/-j or --call-graph lbr";
		if (attr->precise_ip)
			return "'precise' request may not be supported: try removing the 'p' modifier";
		return "this machine does not support the event; pick another with -e";
	case EBUSY:
		return "another tool holds this PMU exclusively";
	case ESRCH:
		return "the target process is gone";
	case EINVAL:
		if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK)
			return "this event's PMU cannot sample branch stacks; drop -b/-j or --call-graph lbr";
		hint = vendor__einval_hint(&evlist->machine, attr, evsel->pmu_name,
					   evlist->has_cpu);
		if (hint)
			return hint;
		return "the kernel refused the event's attributes; try it without modifiers";
	default:
		return "the kernel refused the event's attributes; try it without modifiers";
	}
}

/* --filter: the kernel parses it; a bad one is refused per fd. */
static int evsel__set_filter(const struct evsel *evsel)
{
	for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++) {
		if (evsel->fd[i] < 0)
			continue;
		if (ioctl(evsel->fd[i], PERF_EVENT_IOC_SET_FILTER, evsel->filter) < 0) {
			pr_err("cannot set the filter '%s' on event '%s': %s (check the field names and operators against its format file in tracefs)",
			       evsel->filter, evsel->name, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

/*
 * A weak group (:W) that the kernel will not take as a group: close its
 * members, make each its own leader (disabled and enabled as leaders are)
 * and return the index to reopen from. The leader stays open.
 */
static int evlist__ungroup(struct evlist *evlist, int l)
{
	struct evsel *leader = &evlist->evsel[l];

	pr_verbose("Weak group for %s/%d failed\n", leader->name, leader->nr_members);
	for (int j = l + 1; j < l + leader->nr_members; j++) {
		struct evsel *m = &evlist->evsel[j];

		evsel__close(m);
		m->leader = j;
		m->nr_members = 1;
		m->attr.disabled = leader->attr.disabled;
		m->attr.enable_on_exec = leader->attr.enable_on_exec;
		m->attr.read_format &= ~(uint64_t)PERF_FORMAT_GROUP;
	}
	leader->nr_members = 1;
	return l + 1;
}

/* A system-wide event's one thread: any (pid -1); static, as evsels keep
 * the arrays they were opened with. */
static const int any_thread[1] = { -1 };

int evlist__open(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++) {
		struct evsel *evsel = &evlist->evsel[i];
		int cpu = -1, tid = -1;
		const struct evsel *leader = evsel->leader != i ? &evlist->evsel[evsel->leader] :
								  NULL;
		/* perf's core.system_wide: its own CPUs, any thread (libperf's
		 * evsel cpus and dummy thread map). */
		const struct cpu_map *cpus = evsel->system_wide ? evsel->own_cpus : evlist->cpus;
		const int *tids = evsel->system_wide ? any_thread : evlist->threads->pid;
		int nr_tids = evsel->system_wide ? 1 : evlist->threads->nr;
		int ret = evsel__open(evsel, leader, cpus->cpu, cpus->nr, tids, nr_tids, &cpu, &tid);

		if (ret && leader && evlist->evsel[evsel->leader].weak_group &&
		    (ret == -EINVAL || ret == -EBADF || ret == -ENOSPC || ret == -EOPNOTSUPP)) {
			/* perf's weak group: the members go on alone. */
			i = evlist__ungroup(evlist, evsel->leader) - 1;
			continue;
		}
		if (ret) {
			char advice[512];
			char where[64];

			if (ret == -ESRCH && tid != -1)
				snprintf(where, sizeof(where), "for thread %d", tid);
			else
				snprintf(where, sizeof(where), "on CPU %d", cpu);
			pr_err("cannot open event '%s' %s: %s (%s)", evsel->name, where,
			       strerror(-ret),
			       open_hint(evlist, evsel, -ret, advice, sizeof(advice)));
			for (int j = 0; j < i; j++)
				evsel__close(&evlist->evsel[j]);
			return ret;
		}
		if (evsel->filter && evsel__set_filter(evsel)) {
			for (int j = 0; j <= i; j++)
				evsel__close(&evlist->evsel[j]);
			return -EINVAL;
		}
	}
	return 0;
}
