// SPDX-License-Identifier: GPL-2.0-only
/* The events of a recording: the evsels built from the specs, groups, rings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <poll.h>

#include "targets/cpu_map.h"
#include "targets/thread_map.h"
#include "evlist/evlist.h"
#include "prec/error.h"
#include "prec/log.h"
#include "events/parse_events.h"
#include "prec/perf_file.h"
#include "prec/sysinfo.h"
#include "evlist/ring_size.h"

/*
 * Groups as perf configures them: only the leader starts disabled and is
 * enabled at exec; with leader sampling (:S) the leader's samples read the
 * whole group (READ, PERF_FORMAT_GROUP, no inherit unless asked) and the members, unless
 * they have their own period or frequency, do not sample at all.
 */
static void evlist__config_groups(struct evlist *evlist, const struct event_specs *specs)
{
	for (int i = 0; i < specs->nr; i++) {
		struct evsel *evsel = &evlist->evsel[i];
		const struct event_spec *spec = &specs->v[i];
		struct evsel *leader = &evlist->evsel[spec->leader];
		const struct event_spec *ls = &specs->v[spec->leader];
		bool leader_sampling = ls->sample_read && ls->nr_members > 1;
		bool inherit_read = (ls->terms.set & EVENT_TERM_INHERIT) && ls->terms.inherit;

		evsel->leader = spec->leader;
		evsel->nr_members = spec->nr_members;
		evsel->group_name = spec->group_name;
		evsel->filter = spec->filter;
		evsel->filter_bpf = spec->filter_bpf;
		evsel->weak_group = spec->weak_group;
		if (leader_sampling) {
			evsel->attr.read_format |= PERF_FORMAT_GROUP;
			/* perf 6.13 inherits (6.12 kernels: per-thread counts, by
			 * TID); perf 6.1 misreads them, so only an inherit term does. */
			if (!inherit_read)
				evsel->attr.inherit = 0;
		}
		if (spec->leader == i) {
			if (leader_sampling)
				evsel->attr.sample_type |= PERF_SAMPLE_READ;
			continue;
		}
		evsel->attr.disabled = 0;
		evsel->attr.enable_on_exec = 0;
		if (leader_sampling) {
			evsel->attr.sample_type = leader->attr.sample_type;
			if (!(spec->terms.set & (EVENT_TERM_PERIOD | EVENT_TERM_FREQ))) {
				evsel->attr.freq = 0;
				evsel->attr.sample_freq = 0;
			}
		}
	}
}

/* Every field of these sample_type bits is one u64. */
static size_t u64_fields(uint64_t sample_type, uint64_t bits)
{
	return 8 * (size_t)__builtin_popcountll(sample_type & bits);
}

/* The sample_id trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static size_t id_hdr_size(uint64_t sample_type)
{
	return u64_fields(sample_type, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
					       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
					       PERF_SAMPLE_IDENTIFIER);
}

/*
 * perf 6.1's evlist__fix_hybrid_cpus for the events bound to a PMU's CPUs
 * (the hybrid default events): one none of whose CPUs is recorded is left
 * out, with perf's warning; -C CPUs outside its PMU are skipped, with
 * perf's warning. Fills view with the events that stay (it points into
 * specs, groups renumbered; *kept is what to free). 0, or -EINVAL when
 * none stays (in err), -ENOMEM.
 */
static int specs__on_cpus(const struct event_specs *specs, const struct cpu_map *cpus,
			  const char *cpu_list, struct event_specs *view, struct event_spec **kept,
			  struct prec_err *err)
{
	int *newidx = NULL, n = 0, bound = 0, ret = 0;

	*view = *specs;
	*kept = NULL;
	if (cpus->nr == 1 && cpus->cpu[0] == -1)
		return 0; /* --per-thread: any CPU */
	newidx = calloc((size_t)specs->nr + 1, sizeof(*newidx));
	*kept = calloc((size_t)specs->nr + 1, sizeof(**kept));
	if (!newidx || !*kept) {
		ret = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < specs->nr; i++) {
		const struct event_spec *spec = &specs->v[i];
		struct cpu_map *own = NULL;
		char used[256];
		size_t len;
		int in = 0;

		newidx[i] = n;
		if (!spec->cpus || spec->leader != i || spec->nr_members != 1 ||
		    cpu_map__parse(&own, spec->cpus)) {
			(*kept)[n++] = *spec;
			continue;
		}
		bound++;
		used[0] = '\0';
		len = 0;
		for (int c = 0; c < cpus->nr; c++) {
			if (!cpu_map__has(own, cpus->cpu[c]))
				continue;
			in++;
			if (len < sizeof(used))
				len += (size_t)snprintf(used + len, sizeof(used) - len, "%s%d",
							len ? "," : "", cpus->cpu[c]);
		}
		cpu_map__delete(own);
		if (!in) {
			if (cpu_list)
				pr_warn("%s isn't a '%s', please use a CPU list in the '%s' range (%s)",
					cpu_list, spec->pmu_name, spec->pmu_name, spec->cpus);
			newidx[i] = -1;
			continue;
		}
		if (cpu_list && in < cpus->nr)
			pr_warn("use %s in '%s' for '%s', skip other cpus in list", used,
				spec->pmu_name, spec->name);
		(*kept)[n++] = *spec;
	}
	if (bound && n == 0) {
		ret = prec_err__set(
			err, -EINVAL,
			"cannot record the default event on CPUs %s: none of them is a CPU of a core PMU (pick CPUs of cpu_core or cpu_atom)",
			cpu_list ? cpu_list : "(none)");
		goto out;
	}
	if (n == specs->nr) {
		free(*kept);
		*kept = NULL;
		goto out;
	}
	for (int i = 0; i < n; i++)
		(*kept)[i].leader = newidx[(*kept)[i].leader];
	view->v = *kept;
	view->nr = n;
out:
	if (ret) {
		free(*kept);
		*kept = NULL;
	}
	free(newidx);
	return ret;
}

/*
 * perf 6.7's record__tracking_system_wide: under -C, tasks migrate to the
 * CPUs not recorded, and their side-band (MMAP, COMM, FORK) is emitted
 * there; without it a sample's addresses on a recorded CPU cannot be
 * named. So the tracking dummy watches every online CPU, unless no event
 * samples user space (--all-kernel, or every event :k).
 */
static bool tracking__system_wide(const struct event_specs *specs, const struct evlist_config *cfg)
{
	if (!cfg->cpu_list || cfg->all_kernel)
		return false;
	for (int i = 0; i < specs->nr; i++) {
		const struct perf_event_attr *a = &specs->v[i].attr;

		if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY)
			continue;
		if (cfg->all_user || !a->exclude_user)
			return true;
	}
	return false;
}

/* The tracking dummy (perf 6.1's attr), on every online CPU when
 * tracking__system_wide says so. 0 or -errno (in err but for -ENOMEM). */
static int evlist__config_tracking(struct evlist *evlist, struct evsel *evsel,
				   const struct event_specs *specs, const struct evlist_config *cfg,
				   struct prec_err *err)
{
	int ret;

	evlist->nr++;
	evsel__config_dummy(evsel, cfg);
	/* Named from its attr, as perf names it: "dummy:HG", or "dummy:uh"
	 * under --all-user. */
	if (evsel__rename_from_attr(evsel, "dummy"))
		return -ENOMEM;
	if (!tracking__system_wide(specs, cfg))
		return 0;
	ret = cpu_map__online(&evsel->own_cpus);
	if (ret)
		return prec_err__set(
			err, ret,
			"-C: cannot read the online CPUs for the side-band of every CPU: %s (check that /sys is mounted)",
			strerror(-ret));
	evsel->system_wide = true;
	return 0;
}

/* An event's cpu= term: it opens on those CPUs only (pmu_cpus). 0 or -errno
 * (in err). */
static int evsel__term_cpus(struct evsel *evsel, const struct event_spec *spec,
			    const struct cpu_map *cpus, const char *cpu_list, struct prec_err *err)
{
	struct cpu_map *online = NULL;
	char *text = NULL;
	int ret = sysinfo__cpus_online(&text), bad = -1;

	if (cpus->nr == 1 && cpus->cpu[0] == -1) {
		ret = prec_err__set(
			err, -EINVAL,
			"event '%s': its cpu term needs events per CPU (drop --per-thread or the term)",
			spec->name);
	} else if (ret || (ret = cpu_map__parse(&online, text))) {
		prec_err__set(
			err, ret,
			"event '%s': cannot read the online CPUs for its cpu term: %s (check that /sys is mounted)",
			spec->name, strerror(-ret));
	} else {
		ret = cpu_map__for_term(&evsel->pmu_cpus, spec->terms.cpus, online, cpus, &bad);
		if (ret == -ENODEV)
			ret = prec_err__set(
				err, -EINVAL,
				"event '%s': CPU %d of its cpu term is not online (online CPUs: %.*s)",
				spec->name, bad, (int)strcspn(text, "\n"), text);
		else if (ret == -ENOENT)
			ret = prec_err__set(
				err, -EINVAL,
				"event '%s': none of the CPUs of its cpu term is in -C %s (add them to -C)",
				spec->name, cpu_list ? cpu_list : "");
	}
	cpu_map__delete(online);
	free(text);
	return ret;
}

int evlist__init(struct evlist *evlist, const struct event_specs *specs_in,
		 const struct evlist_config *cfg, struct cpu_map *cpus, struct thread_map *threads,
		 struct prec_err *err)
{
	/* perf 6.1's record__open: a tracking dummy for -a/-C, -D, and on
	 * any hybrid machine (system-wide under -C, as perf 6.7's). */
	bool dummy = cfg->has_cpu || cfg->delayed || specs_in->machine.hybrid;
	int text_poke = cfg->text_poke ? 1 : 0;
	struct event_specs view;
	const struct event_specs *specs = &view;
	struct event_spec *kept = NULL;
	bool same_type = true, warned = false;
	int nr, ret;

	memset(evlist, 0, sizeof(*evlist));
	evlist->cpus = cpus;
	evlist->threads = threads;
	evlist->workload_only = cfg->workload_only;
	evlist->has_cpu = cfg->has_cpu;
	evlist->machine = specs_in->machine;
	ret = specs__on_cpus(specs_in, cpus, cfg->cpu_list, &view, &kept, err);
	if (ret)
		goto fail;
	/* perf's order: the -e events, --kcore's text_poke dummy (added
	 * before record__open), then the tracking dummy. */
	nr = specs->nr + text_poke + (dummy ? 1 : 0);
	evlist->evsel = calloc((size_t)nr, sizeof(*evlist->evsel));
	if (!evlist->evsel)
		goto nomem;
	for (int i = 0; i < nr; i++) {
		struct evsel *evsel = &evlist->evsel[i];

		evsel->idx = i;
		evsel->leader = i;
		evsel->nr_members = 1;
		evsel->cgroup_fd = cfg->cgroup_fd;
		if (text_poke && i == specs->nr) {
			evsel->name = strdup("dummy:u");
			if (!evsel->name)
				goto nomem;
			evlist->nr++;
			ret = evsel__config_text_poke(evsel, cfg);
			if (ret) {
				prec_err__set(
					err, ret,
					"--kcore: cannot read the online CPUs for the text_poke event: %s (check that /sys is mounted)",
					strerror(-ret));
				goto fail;
			}
			continue;
		}
		if (i == specs->nr + text_poke) {
			ret = evlist__config_tracking(evlist, evsel, specs, cfg, err);
			if (ret)
				goto fail;
			continue;
		}
		const struct event_spec *spec = &specs->v[i];

		evsel->attr = spec->attr;
		evsel->precise_max = spec->precise_max;
		evsel->name_from_attr = spec->name_from_attr;
		evsel->exclude_GH = spec->exclude_GH;
		evsel->pmu_name = spec->pmu_name;
		evsel->name = strdup(spec->name);
		if (!evsel->name)
			goto nomem;
		evlist->nr++; /* from here evlist__exit frees what it holds */
		/* perf 6.16: an event's cpu= term replaces its PMU's CPUs. */
		ret = spec->terms.set & EVENT_TERM_CPU ?
			      evsel__term_cpus(evsel, spec, cpus, cfg->cpu_list, err) :
		      spec->cpus && cpu_map__parse(&evsel->pmu_cpus, spec->cpus) == -ENOMEM ?
			      -ENOMEM :
			      0;
		if (ret)
			goto fail;
		evsel__config(evsel, spec, &specs_in->machine, cfg, i == 0 && !dummy, &warned);
	}
	evlist__config_groups(evlist, specs);
	free(kept);
	for (int i = 1; i < nr; i++)
		if (evlist->evsel[i].attr.sample_type != evlist->evsel[0].attr.sample_type)
			same_type = false;
	if (cfg->sample_identifier) {
		/* perf 6.1's evlist__config: asked for, IDENTIFIER replaces ID. */
		for (int i = 0; i < nr; i++)
			evlist->evsel[i].attr.sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
	} else if (nr > 1) {
		/* Several events: every record says which one it is. While the
		 * layouts agree, ID at its fixed place does (8 bytes less a
		 * sample); once they differ, only IDENTIFIER, first in a sample
		 * and last in a trailer, can be found without knowing the event.
		 * perf 6.1's evlist__config chooses the same way. */
		for (int i = 0; i < nr; i++)
			evlist->evsel[i].attr.sample_type |= same_type ? PERF_SAMPLE_ID :
									 PERF_SAMPLE_IDENTIFIER;
	} else if (cfg->stream) {
		/* perf samples ID in a stream even for one event: the stream's
		 * reader matches records to HEADER_ATTR's ids. */
		evlist->evsel[0].attr.sample_type |= PERF_SAMPLE_ID;
	}
	evlist->id_hdr_size = id_hdr_size(evlist->evsel[0].attr.sample_type);
	return 0;
nomem:
	ret = -ENOMEM;
fail:
	free(kept);
	/* What fails without a line of its own: no memory. */
	if (!prec_err__is_set(err))
		prec_err__set(err, ret, "cannot set up the events: %s", strerror(-ret));
	return ret;
}

/* Applies an ioctl to every open fd; immediate events only when all is set. */
static void evlist__ioctl(struct evlist *evlist, unsigned long req, bool all)
{
	for (int e = 0; e < evlist->nr; e++) {
		struct evsel *evsel = &evlist->evsel[e];

		if (evsel->immediate && !all)
			continue;
		for (int i = 0; evsel->fd && i < evsel->nr_cpus * evsel->nr_threads; i++)
			if (evsel->fd[i] >= 0)
				ioctl(evsel->fd[i], req, 0);
	}
}

void evlist__enable(struct evlist *evlist)
{
	evlist__ioctl(evlist, PERF_EVENT_IOC_ENABLE, false);
}

void evlist__disable(struct evlist *evlist)
{
	evlist__ioctl(evlist, PERF_EVENT_IOC_DISABLE, true);
}

void evlist__toggle_evsel(struct evlist *evlist, int idx, bool enable)
{
	struct evsel *evsel = &evlist->evsel[idx];

	for (int i = 0; evsel->fd && i < evsel->nr_cpus * evsel->nr_threads; i++)
		if (evsel->fd[i] >= 0)
			ioctl(evsel->fd[i], enable ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE,
			      0);
}

int evlist__pollfds(const struct evlist *evlist, struct pollfd **out)
{
	int n = 0;
	struct pollfd *pfd;

	for (int e = 0; e < evlist->nr; e++)
		n += evlist->evsel[e].nr_cpus * evlist->evsel[e].nr_threads;
	pfd = calloc((size_t)n + 1, sizeof(*pfd));
	if (!pfd)
		return -ENOMEM;
	n = 0;
	for (int e = 0; e < evlist->nr; e++) {
		const struct evsel *evsel = &evlist->evsel[e];

		for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++) {
			if (evsel->fd[i] < 0)
				continue;
			pfd[n].fd = evsel->fd[i];
			pfd[n].events = POLLIN;
			n++;
		}
	}
	*out = pfd;
	return n;
}

void evlist__exit(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr_rings; i++)
		ring__munmap(&evlist->rings[i]);
	for (int i = 0; i < evlist->nr_bw_rings; i++)
		ring__munmap(&evlist->bw_rings[i]);
	free(evlist->rings);
	free(evlist->bw_rings);
	for (int e = 0; e < evlist->nr; e++)
		evsel__exit(&evlist->evsel[e]);
	free(evlist->evsel);
	cpu_map__delete(evlist->cpus);
	cpu_map__delete(evlist->all_cpus);
	thread_map__delete(evlist->threads);
	memset(evlist, 0, sizeof(*evlist));
}

int evlist__sample_time_offset(const struct evlist *evlist)
{
	uint64_t st = evlist->evsel[0].attr.sample_type;

	if (!(st & PERF_SAMPLE_TIME))
		return -1;
	/* A SAMPLE begins IDENTIFIER, IP, TID, then TIME. */
	return (int)u64_fields(st, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID);
}

bool evlist__exclude_kernel(const struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++)
		if (!evlist->evsel[i].attr.exclude_kernel)
			return false;
	return true;
}
