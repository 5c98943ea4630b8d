// SPDX-License-Identifier: GPL-2.0-only
/*
 * evlist__open: every event on every CPU and thread, with perf's weak-group
 * fallback, the tracepoint filters, and the one line that explains a refusal;
 * and perf's probe of whether one event opens here (--list-events).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "targets/cpu_map.h"
#include "evlist/evlist.h"
#include "prec/error.h"
#include "prec/log.h"
#include "prec/mounts.h"
#include "prec/pmu.h"
#include "prec/sysinfo.h"
#include "targets/thread_map.h"
#include "targets/caps.h"
#include "evlist/open_error.h"
#include "evlist/vendor.h"
#include "targets/sys.h"

/*
 * The advice for an event the kernel refused (after every fallback): the
 * facts open_error__hint needs to name the one command that fixes it.
 */
static const char *open_hint(const struct evlist *evlist, const struct evsel *evsel, int err,
			     int cpu, char *buf, size_t len)
{
	char exe[PATH_MAX], sysfs[PATH_MAX], comm[32] = "";
	struct rlimit nofile = { .rlim_max = RLIM_INFINITY };
	struct open_error e = {
		.err = err,
		.attr = &evsel->attr,
		.event = evsel->name,
		.pmu_name = evsel->pmu_name,
		.has_cpu = evlist->has_cpu,
		.cpu_list = evlist->has_cpu && cpu >= 0,
		.cpu = cpu,
		.is_root = geteuid() == 0,
		.can_perfmon = caps__can_perfmon(),
		.perfmon_cap = caps__perfmon_name(),
		.paranoid = caps__paranoid(),
		.exe = caps__exe(exe, sizeof(exe)),
		.in_container = !access("/.dockerenv", F_OK) || !access("/run/.containerenv", F_OK),
		.busy_comm = comm,
	};
	sysfs__find(sysfs, sizeof(sysfs));
	e.no_hw_pmu = !pmu__exists(sysfs, "cpu") && !pmu__exists(sysfs, "cpu_core");
	/* Each event on each CPU and thread (the events not yet tried included). */
	e.nr_fds = (unsigned long)evlist->nr * (unsigned long)evlist->cpus->nr *
		   (unsigned long)evlist->threads->nr;
	getrlimit(RLIMIT_NOFILE, &nofile);
	e.nofile_hard = nofile.rlim_max == RLIM_INFINITY ? ULONG_MAX : nofile.rlim_max;
	if (err == EBUSY)
		e.busy_pid = open_error__perf_holder("/proc", getpid(), comm, sizeof(comm));
	e.nmi_watchdog = (int)sysinfo__sysctl_or("kernel/nmi_watchdog", 0);
	e.max_sample_rate =
		(unsigned long)sysinfo__sysctl_or("kernel/perf_event_max_sample_rate", 0);
	e.max_stack = (unsigned long)sysinfo__sysctl_or("kernel/perf_event_max_stack", 127);
	if (err == EINVAL)
		e.vendor_hint = vendor__einval_hint(&evlist->machine, &evsel->attr, evsel->pmu_name,
						    evlist->has_cpu);
	return open_error__hint(&e, buf, len);
}

/* --filter: the kernel parses it; a bad one is refused per fd. */
static int evsel__set_filter(const struct evsel *evsel, struct prec_err *e)
{
	for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++) {
		if (evsel->fd[i] < 0)
			continue;
		if (ioctl(evsel->fd[i], PERF_EVENT_IOC_SET_FILTER, evsel->filter) < 0) {
			int err = errno;
			char tracefs[PATH_MAX] = "/sys/kernel/tracing";
			const char *colon = strchr(evsel->name, ':');

			tracefs__find(tracefs, sizeof(tracefs));
			/* The fields a filter may name are in the event's format file. */
			return prec_err__set(
				e, -err,
				"cannot set the filter '%s' on event '%s': %s (its fields and their types: 'cat %s/events/%.*s/%s/format')",
				evsel->filter, evsel->name, strerror(err), tracefs,
				colon ? (int)(colon - evsel->name) : 0, evsel->name,
				colon ? colon + 1 : evsel->name);
		}
	}
	return 0;
}

/* The event's tracepoint filter, once its fds are open; a BPF filter is
 * bpf_filters__attach's, once every event is open (bpf/filter.h). */
static int evsel__apply_filter(struct evsel *evsel, struct prec_err *e)
{
	return evsel->filter_bpf ? 0 : evsel__set_filter(evsel, e);
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

int evlist__open(struct evlist *evlist, struct prec_err *e)
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
		int ret =
			evsel__open(evsel, leader, cpus->cpu, cpus->nr, tids, nr_tids, &cpu, &tid);

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
			prec_err__set(e, ret, "cannot open event '%s' %s: %s (%s)", evsel->name,
				      where, strerror(-ret),
				      open_hint(evlist, evsel, -ret, cpu, advice, sizeof(advice)));
			for (int j = 0; j < i; j++)
				evsel__close(&evlist->evsel[j]);
			return ret;
		}
		if (evsel->filter && evsel__apply_filter(evsel, e)) {
			for (int j = 0; j <= i; j++)
				evsel__close(&evlist->evsel[j]);
			return -EINVAL;
		}
	}
	evlist->max_sample_rate = sysinfo__sysctl_or("kernel/perf_event_max_sample_rate", 0);
	return 0;
}

bool evlist__event_supported(const struct perf_event_attr *attr)
{
	struct perf_event_attr a = *attr;
	int fd;

	a.size = sizeof(a);
	a.disabled = 1;
	fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES) {
		/* perf_event_paranoid 2: try again for user space only, as perf. */
		a.exclude_kernel = 1;
		fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return false;
	close(fd);
	return true;
}
