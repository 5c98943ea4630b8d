// SPDX-License-Identifier: GPL-2.0-only
/*
 * --off-cpu for a recording (off_cpu__open_for): which tasks, CPUs and
 * cgroup count, from the target and the opened events, as perf's
 * off_cpu_prepare chooses them (a -p thread id stands for its process);
 * then the offcpu-time event's layout and id.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#include "bpf/off_cpu.h"
#include "evlist/evlist.h"
#include "events/parse_events.h"
#include "prec/error.h"
#include "prec/log.h"
#include "targets/proc_status.h"
#include "targets/cpu_map.h"
#include "targets/target.h"
#include "targets/thread_map.h"

/* The offcpu-time event's layout as written, and one of its ids (any of
 * them names it). */
static void off_cpu__find_event(struct off_cpu *oc, const struct evlist *evlist)
{
	for (int e = 0; e < evlist->nr; e++) {
		const struct evsel *evsel = &evlist->evsel[e];
		int n = evsel->nr_cpus * (evsel->nr_threads > 0 ? evsel->nr_threads : 1);

		if (!evsel->name || strcmp(evsel->name, OFF_CPU_EVENT))
			continue;
		for (int i = 0; i < n; i++) {
			if (evsel->id[i]) {
				off_cpu__set_event(oc, evsel->attr.sample_type, evsel->id[i]);
				return;
			}
		}
	}
}

/* -p takes thread ids too (perf lists the whole process then): the filter
 * holds processes, so each id becomes its tgid. One gone keeps its id. */
static void off_cpu__to_tgids(struct thread_map *pids)
{
	for (int i = 0; i < pids->nr; i++) {
		char path[64], buf[4096];
		struct proc_status st;
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/status", (int)pids->pid[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if (!proc_status__parse(buf, &st) && st.tgid > 0)
			pids->pid[i] = st.tgid;
	}
}

int off_cpu__open_for(struct off_cpu **oc, const struct off_cpu_config *cfg,
		      const struct target_config *target, const struct evlist *evlist,
		      pid_t workload, int cgroup_fd, struct prec_err *e)
{
	struct off_cpu_params p = {
		.thresh_ns = cfg->thresh_ns,
		.needs_cgroup = cfg->needs_cgroup,
		.use_clockid = cfg->use_clockid,
		.clockid = cfg->clockid,
		.verbose = log__level() >= LOG_DEBUG,
	};
	struct thread_map *pids = NULL;
	int ret;

	*oc = NULL;
	if (target->cpu_list) {
		p.cpus = evlist->cpus->cpu;
		p.nr_cpus = evlist->cpus->nr;
	}
	/* -p: the processes (perf 6.1 lists their threads then; by process,
	 * threads and children started later count too). -t, -u: the threads.
	 * A command without -a/-C: it and what it forks. */
	if (target->pid_list && !thread_map__parse(&pids, target->pid_list)) {
		off_cpu__to_tgids(pids);
		p.tasks = pids->pid;
		p.nr_tasks = pids->nr;
		p.by_tgid = true;
	} else if ((target->tid_list || target->uid_str) && evlist->threads->pid[0] != -1) {
		p.tasks = evlist->threads->pid;
		p.nr_tasks = evlist->threads->nr;
	} else if (!evlist->has_cpu && workload > 0) {
		p.tasks = &workload;
		p.nr_tasks = 1;
		p.by_tgid = true;
	}
	if (cgroup_fd >= 0 && target__cgroup_id(cgroup_fd, &p.cgroup_id)) {
		ret = prec_err__set(
			e, -errno,
			"--off-cpu: cannot read the id of cgroup '%s': %s (-G with --off-cpu needs the cgroup v2 hierarchy)",
			target->cgroup, strerror(errno));
		thread_map__delete(pids);
		return ret;
	}
	ret = off_cpu__open(oc, &p, e);
	thread_map__delete(pids);
	if (!ret)
		off_cpu__find_event(*oc, evlist);
	return ret;
}
