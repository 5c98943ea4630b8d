// SPDX-License-Identifier: GPL-2.0-only
/*
 * One event: its attr as perf record configures it for the options and the
 * target (evsel__config), and its fds on every CPU, opened with perf
 * record's fallbacks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "targets/cpu_map.h"
#include "evlist/evlist_config.h"
#include "evlist/evsel.h"
#include "prec/log.h"
#include "events/parse_events.h"
#include "prec/perf_file.h"
#include "targets/caps.h"
#include "options/callchain.h"
#include "targets/sys.h"
#include "options/regs.h"
#include "evlist/vendor.h"

int evsel__rename_from_attr(struct evsel *evsel, const char *base)
{
	char buf[128];
	char *name;

	event_name__from_attr(buf, sizeof(buf), base, &evsel->attr);
	name = strdup(buf);
	if (!name)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = name;
	return 0;
}

/*
 * perf 6.1's evsel__precise_ip_fallback, tried first on any error: one
 * precise level lower; when 0 fails too, back to where it started (the
 * other fallbacks then change the event and the descent starts again).
 */
static bool evsel__precise_fallback(struct evsel *evsel)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (!evsel->precise_max)
		return false;
	if (!attr->precise_ip) {
		attr->precise_ip = evsel->precise_ip_original;
		return false;
	}
	if (!evsel->precise_ip_original)
		evsel->precise_ip_original = attr->precise_ip;
	attr->precise_ip--;
	pr_debug("%s: decreasing precise_ip by one (%u)\n", evsel->name, attr->precise_ip);
	return true;
}

/*
 * perf 6.1's evsel__detect_missing_features, for an EINVAL at the first
 * open, in its order, limited to what prec asks for (first perf 6.13's
 * inherit with SAMPLE_READ, new in 6.12 kernels): kernels before 6.0
 * lack read_format LOST, before 5.12 WEIGHT_STRUCT (sample WEIGHT instead),
 * and a PMU may not take exclude_guest/exclude_host (cleared, unless :G/:H
 * asked for them).
 */
static bool evsel__missing_feature(struct evsel *evsel)
{
	struct perf_event_attr *attr = &evsel->attr;

	/* perf 6.13's first: kernels before 6.12 refuse inherit with SAMPLE_READ. */
	if (attr->inherit && (attr->sample_type & PERF_SAMPLE_READ)) {
		attr->inherit = 0;
		pr_warn("%s: this kernel cannot sample-read inherited events: recording without inherit (the threads the command starts are not counted)",
			evsel->name);
		return true;
	}
	if (attr->read_format & PERF_FORMAT_LOST) {
		attr->read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		pr_debug("%s: switching off PERF_FORMAT_LOST support\n", evsel->name);
		return true;
	}
	if (attr->sample_type & PERF_SAMPLE_WEIGHT_STRUCT) {
		attr->sample_type &= ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT;
		attr->sample_type |= PERF_SAMPLE_WEIGHT;
		pr_debug("%s: switching off weight struct support\n", evsel->name);
		return true;
	}
	if ((attr->exclude_guest || attr->exclude_host) && !evsel->exclude_GH) {
		attr->exclude_guest = 0;
		attr->exclude_host = 0;
		pr_debug("%s: switching off exclude_guest, exclude_host\n", evsel->name);
		return true;
	}
	return false;
}

/*
 * perf 6.1's evsel__increase_rlimit, for EMFILE: the open-file soft limit
 * goes up to the hard one, then (where privileged) both to the hard one +
 * 1000. Returns true when a limit was raised; *step counts the two.
 */
static bool evsel__raise_nofile(int *step)
{
	struct rlimit l;

	if (*step >= 2 || getrlimit(RLIMIT_NOFILE, &l))
		return false;
	if (*step == 0) {
		l.rlim_cur = l.rlim_max;
	} else {
		if (l.rlim_max == RLIM_INFINITY)
			return false;
		l.rlim_cur = l.rlim_max + 1000;
		l.rlim_max = l.rlim_cur;
	}
	if (setrlimit(RLIMIT_NOFILE, &l))
		return false;
	(*step)++;
	pr_debug("Too many open files: RLIMIT_NOFILE raised to %llu\n",
		 (unsigned long long)l.rlim_cur);
	return true;
}

/*
 * perf 6.1's evsel__fallback: the hardware cycles event, and only it, falls
 * back to cpu-clock when the kernel has no PMU for it (ENOENT, ENXIO,
 * ENODEV); any other hardware or cache event is refused (evlist's advice
 * names the machine's lack), since recording cpu-clock in its place would
 * give numbers that mean something else. Then the paranoid fallback (user
 * space only). Returns true when the attr was changed and opening should be
 * tried again.
 */
static bool evsel__fallback(struct evsel *evsel, int err)
{
	struct perf_event_attr *attr = &evsel->attr;

	if ((err == ENOENT || err == ENODEV || err == ENXIO) && attr->type == PERF_TYPE_HARDWARE &&
	    attr->config == PERF_COUNT_HW_CPU_CYCLES) {
		attr->type = PERF_TYPE_SOFTWARE;
		attr->config = PERF_COUNT_SW_CPU_CLOCK;
		/* perf 6.1's text, word for word, under -v only. */
		pr_verbose("Warning:\nThe cycles event is not supported, trying to fall back to cpu-clock-ticks\n");
		evsel__rename_from_attr(evsel, "cpu-clock");
		return true;
	}
	if (err == EACCES && !attr->exclude_kernel && caps__paranoid() > 1) {
		int paranoid = caps__paranoid();
		const char *sep = strchr(evsel->name, ':') || strchr(evsel->name, '/') ? "" : ":";
		char buf[160];
		char *name;

		/* Excluding the kernel from an event that already excludes user
		 * space leaves nothing to sample: perf refuses, and so does prec
		 * (evlist says what to change). */
		if (attr->exclude_user)
			return false;
		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
		snprintf(buf, sizeof(buf), "%s%su", evsel->name, sep);
		name = strdup(buf);
		if (name) {
			free(evsel->name);
			evsel->name = name;
		}
		pr_verbose("Warning:\nkernel.perf_event_paranoid=%d, trying to fall back to excluding kernel and hypervisor  samples\n",
			   paranoid);
		return true;
	}
	return false;
}

/* Whether the event opens on cpu (its PMU's CPUs only, on hybrid machines). */
static bool evsel__on_cpu(const struct evsel *evsel, int cpu)
{
	const struct cpu_map *m = evsel->pmu_cpus;

	if (!m || cpu < 0)
		return true;
	for (int i = 0; i < m->nr; i++)
		if (m->cpu[i] == cpu)
			return true;
	return false;
}

static int evsel__alloc(struct evsel *evsel, int nr_cpus, int nr_threads)
{
	size_t n = (size_t)nr_cpus * (size_t)nr_threads;

	if (evsel->fd)
		return 0;
	evsel->fd = malloc(n * sizeof(*evsel->fd));
	evsel->id = calloc(n, sizeof(*evsel->id));
	if (!evsel->fd || !evsel->id)
		return -ENOMEM;
	evsel->nr_cpus = nr_cpus;
	evsel->nr_threads = nr_threads;
	for (size_t i = 0; i < n; i++)
		evsel->fd[i] = -1;
	return 0;
}

int evsel__open(struct evsel *evsel, const struct evsel *leader, const int *cpus, int nr_cpus,
		const int *threads, int nr_threads, int *failed_cpu, int *failed_thread)
{
	int ret = evsel__alloc(evsel, nr_cpus, nr_threads);
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	int opened, nofile_step = 0;

	if (ret)
		return ret;
	evsel->open_cpus = cpus;
	evsel->open_tids = threads;
	if (evsel->cgroup_fd >= 0)
		flags |= PERF_FLAG_PID_CGROUP;
	if (evsel->precise_max && !evsel->attr.precise_ip)
		evsel->attr.precise_ip = 3;
retry:
	opened = 0;
	for (int t = 0; t < nr_threads; t++) {
		int gone = 0;

		for (int c = 0; c < nr_cpus; c++) {
			int pid = evsel->cgroup_fd >= 0 ? evsel->cgroup_fd : threads[t];
			int group_fd = leader ? EVSEL_FD(leader, c, t) : -1;
			int fd;

			if (!evsel__on_cpu(evsel, cpus[c]))
				continue;
			if (leader && group_fd < 0)
				continue; /* the leader's thread was gone */
			fd = sys_perf_event_open(&evsel->attr, pid, cpus[c], group_fd, flags);

			if (fd < 0) {
				int err = errno;

				/* A thread that exited since the list was made: skip it,
				 * as perf does, while other threads remain. */
				if (err == ESRCH && threads[t] != -1 && nr_threads > 1) {
					gone = 1;
					break;
				}
				evsel__close(evsel);
				if (evsel__precise_fallback(evsel))
					goto retry;
				if (err == EMFILE && evsel__raise_nofile(&nofile_step))
					goto retry;
				if (err == EINVAL && !opened && evsel__missing_feature(evsel))
					goto retry;
				if (evsel__fallback(evsel, err))
					goto retry;
				*failed_cpu = cpus[c];
				*failed_thread = threads[t];
				return -err;
			}
			opened++;
			EVSEL_FD(evsel, c, t) = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &EVSEL_ID(evsel, c, t)) < 0) {
				ret = -errno;
				evsel__close(evsel);
				*failed_cpu = cpus[c];
				*failed_thread = threads[t];
				return ret;
			}
		}
		if (gone) {
			for (int c = 0; c < nr_cpus; c++) {
				if (EVSEL_FD(evsel, c, t) >= 0)
					close(EVSEL_FD(evsel, c, t));
				EVSEL_FD(evsel, c, t) = -1;
				EVSEL_ID(evsel, c, t) = 0;
			}
		}
	}
	for (int i = 0; i < nr_cpus * nr_threads; i++)
		if (evsel->fd[i] >= 0)
			return 0;
	/* Every thread was gone. */
	*failed_cpu = cpus[0];
	*failed_thread = threads[0];
	return -ESRCH;
}

void evsel__close(struct evsel *evsel)
{
	for (int i = 0; evsel->fd && i < evsel->nr_cpus * evsel->nr_threads; i++) {
		if (evsel->fd[i] >= 0)
			close(evsel->fd[i]);
		evsel->fd[i] = -1;
	}
}

void evsel__exit(struct evsel *evsel)
{
	evsel__close(evsel);
	free(evsel->fd);
	free(evsel->id);
	free(evsel->name);
	cpu_map__delete(evsel->pmu_cpus);
	cpu_map__delete(evsel->own_cpus);
	evsel->pmu_cpus = NULL;
	evsel->own_cpus = NULL;
	evsel->open_cpus = NULL;
	evsel->open_tids = NULL;
	evsel->fd = NULL;
	evsel->id = NULL;
	evsel->name = NULL;
}

/* ---- The attr: perf record's evsel__config for the options and the target ---- */

/* The sample contents perf record's flags ask for (-d, -R, -W, -b, --user-regs...). */
static void evsel__config_sample(struct evsel *evsel, const struct evlist_config *cfg,
				 bool tracking)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (cfg->sample_addr)
		attr->sample_type |= PERF_SAMPLE_ADDR;
	if (cfg->data_mmap)
		attr->mmap_data = tracking;
	if (cfg->sample_data_src)
		attr->sample_type |= PERF_SAMPLE_DATA_SRC;
	if (cfg->sample_cpu)
		attr->sample_type |= PERF_SAMPLE_CPU;
	if (cfg->raw_samples)
		attr->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (cfg->sample_weight)
		attr->sample_type |= vendor__weight_bit(vendor__build_arch());
	if (cfg->phys_data)
		attr->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (cfg->data_page_size)
		attr->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (cfg->code_page_size)
		attr->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	if (cfg->sample_identifier)
		attr->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (cfg->sample_period)
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	if (cfg->inherit_stat) {
		attr->inherit_stat = 1;
		attr->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	if (cfg->sample_transaction)
		attr->sample_type |= PERF_SAMPLE_TRANSACTION;
	/* perf: on every event, though only a sample's READ carries them. */
	if (cfg->running_time)
		attr->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (cfg->no_samples) {
		/* perf -n: the event counts, never samples. */
		attr->sample_freq = 0;
		attr->sample_period = 0;
	}
	if (cfg->all_cgroups)
		attr->sample_type |= PERF_SAMPLE_CGROUP;
	/* --overwrite: every event a flight recorder (an overwrite term may
	 * still turn one back, as the terms come after this). */
	if (cfg->overwrite)
		attr->write_backward = 1;
	if (cfg->no_buffering) {
		attr->watermark = 0;
		attr->wakeup_events = 1;
	}
	if (cfg->all_user) {
		attr->exclude_kernel = 1;
		attr->exclude_user = 0;
	}
	if (cfg->all_kernel) {
		attr->exclude_user = 1;
		attr->exclude_kernel = 0;
	}
	if (cfg->branch_filter) {
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = cfg->branch_filter;
	}
	{
		/* A configured depth without -g or --call-graph records none. */
		struct callchain_param cp = {
			.mode = (enum callchain_mode)cfg->callchain_mode,
			.dump_size = cfg->callchain_dump,
			.max_stack = cfg->callchain_mode ? cfg->callchain_max_stack : 0,
		};

		callchain__config(attr, &cp, regs__default_mask(), cfg->user_callchains,
				  cfg->kernel_callchains);
	}
	if (cfg->user_regs) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER;
		attr->sample_regs_user = cfg->user_regs;
	}
	if (cfg->intr_regs) {
		attr->sample_type |= PERF_SAMPLE_REGS_INTR;
		attr->sample_regs_intr = cfg->intr_regs;
	}
	if (tracking) {
		attr->context_switch = cfg->switch_events;
		attr->namespaces = cfg->namespaces;
		attr->cgroup = cfg->all_cgroups;
	}
}

/* The attr every event starts from: perf record's evsel__config. */
static void evsel__config_base(struct evsel *evsel, const struct evlist_config *cfg, bool tracking)
{
	struct perf_event_attr *attr = &evsel->attr;

	attr->size = PREC_ATTR_SIZE;
	attr->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	/* perf: one ring per thread needs no ordering, so no time unless -T. */
	if (cfg->no_sample_time)
		attr->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
	if (cfg->has_cpu)
		attr->sample_type |= PERF_SAMPLE_CPU;
	attr->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	attr->disabled = 1;
	attr->inherit = cfg->inherit;
	/* Only a forked workload is enabled by its exec; other targets are
	 * enabled once the side-band is written. */
	attr->enable_on_exec = cfg->workload_only && !cfg->delayed;
	attr->sample_id_all = 1;
	if (cfg->period) {
		attr->freq = 0;
		attr->sample_period = cfg->period;
	} else if (!attr->freq && attr->sample_period && !cfg->user_freq) {
		/* Tracepoints and breakpoints come with perf's period of 1 (and
		 * their own sample bits): every hit is a sample unless -c/-F. */
	} else {
		attr->freq = 1;
		attr->sample_freq = cfg->freq;
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	}
	if (cfg->use_clockid) {
		attr->use_clockid = 1;
		attr->clockid = cfg->clockid;
	}
	evsel__config_sample(evsel, cfg, tracking);
	if (tracking) {
		/* One event carries the side-band the reader needs to resolve IPs. */
		attr->mmap = 1;
		attr->mmap2 = 1;
		attr->comm = 1;
		attr->comm_exec = 1;
		attr->task = 1;
		/* perf: with text_poke, ksymbol goes to the system-wide dummy. */
		attr->ksymbol = !cfg->text_poke;
		attr->bpf_event = !cfg->no_bpf_event;
		/* --buildid-mmap: the kernel's MMAP2 records carry build-ids. */
		attr->build_id = cfg->buildid_mmap;
	}
}

/* The -e string's own terms, over prec's defaults (perf's apply_config_terms). */
static void evsel__apply_terms(struct evsel *evsel, const struct event_terms *t,
			       const struct evlist_config *cfg)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (t->set & (EVENT_TERM_CALLGRAPH | EVENT_TERM_STACKSIZE | EVENT_TERM_MAX_STACK)) {
		/* The event's own call graph replaces the global one. */
		struct callchain_param cp = { .mode = (enum callchain_mode)cfg->callchain_mode,
					      .dump_size = cfg->callchain_dump ?
								   cfg->callchain_dump :
								   CALLCHAIN_DEFAULT_DUMP };

		/* The call graph was checked when the events were parsed. */
		if (t->set & EVENT_TERM_CALLGRAPH)
			callchain__parse(t->call_graph, &cp, NULL);
		if (t->set & EVENT_TERM_STACKSIZE)
			cp.dump_size = (uint32_t)((t->stack_size + 7) & ~7ULL);
		if (t->set & EVENT_TERM_MAX_STACK)
			cp.max_stack = (uint32_t)t->max_stack;
		attr->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
						 PERF_SAMPLE_STACK_USER);
		attr->exclude_callchain_user = 0;
		attr->sample_stack_user = 0;
		callchain__config(attr, &cp, regs__default_mask(), cfg->user_callchains,
				  cfg->kernel_callchains);
		if (cp.mode == CALLCHAIN_DWARF)
			attr->mmap_data = attr->mmap; /* as -d, on the tracking event */
	}

	if (t->set & EVENT_TERM_PERIOD) {
		attr->sample_period = t->period;
		attr->freq = 0;
		attr->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	}
	if (t->set & EVENT_TERM_FREQ) {
		attr->sample_freq = t->freq;
		attr->freq = 1;
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	}
	if (t->set & EVENT_TERM_INHERIT)
		attr->inherit = t->inherit;
	if (t->set & EVENT_TERM_OVERWRITE)
		attr->write_backward = t->overwrite;
	if (t->set & EVENT_TERM_TIME) {
		if (t->time)
			attr->sample_type |= PERF_SAMPLE_TIME;
		else
			attr->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
	}
	if ((t->set & EVENT_TERM_BRANCH_TYPE) && t->branch_sample_type) {
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = t->branch_sample_type;
	}
}

/* The rules perf 6.1 applies per event by machine (vendor.h). */
static void evsel__config_machine(struct evsel *evsel, const struct event_spec *spec,
				  const struct event_machine *m, const struct evlist_config *cfg,
				  bool *warned)
{
	struct perf_event_attr *attr = &evsel->attr;
	uint64_t regs = vendor__fp_leaf_regs(vendor__build_arch());

	/* perf's arch__add_leaf_frame_record_* hook: the global fp call graph. */
	if (cfg->callchain_mode == CALLCHAIN_FP && regs) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER;
		attr->sample_regs_user |= regs;
	}
	/* arch__post_evsel_config, once per recording. */
	if (!*warned && vendor__ibs_l3miss(m, attr, spec->pmu_name)) {
		pr_warn("Hw internally resets sampling period when L3 Miss Filtering is enabled and tagged operation does not cause L3 Miss. This causes sampling period skew (%s)",
			evsel->name);
		*warned = true;
	}
}

void evsel__config(struct evsel *evsel, const struct event_spec *spec,
		   const struct event_machine *m, const struct evlist_config *cfg, bool tracking,
		   bool *warned)
{
	evsel__config_base(evsel, cfg, tracking);
	evsel__apply_terms(evsel, &spec->terms, cfg);
	evsel__config_machine(evsel, spec, m, cfg, warned);
	/* perf 6.1 keeps only what its off_cpu_write fills in. */
	if (event_spec__is_off_cpu(spec))
		evsel->attr.sample_type &= OFF_CPU_SAMPLE_TYPES;
}

void evsel__config_dummy(struct evsel *evsel, const struct evlist_config *cfg)
{
	struct perf_event_attr *attr = &evsel->attr;

	/* perf's evlist__add_dummy, before its evsel__config: a period of 1
	 * that a -c or -F the user gave replaces, as on any other event. */
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_DUMMY;
	attr->freq = 0;
	attr->sample_period = 1;
	evsel__config_base(evsel, cfg, true);
	attr->exclude_guest = 0;
	attr->exclude_host = 0;
	if (cfg->workload_only) {
		attr->enable_on_exec = 1;
	} else {
		attr->disabled = 0;
		attr->enable_on_exec = 0;
		evsel->immediate = true;
	}
}


int evsel__config_text_poke(struct evsel *evsel, const struct evlist_config *cfg)
{
	struct perf_event_attr *attr = &evsel->attr;
	int ret = cpu_map__online(&evsel->own_cpus);

	if (ret)
		return ret;
	/* perf's evlist__add_aux_dummy, before its evsel__config: so -c/-F,
	 * --all-kernel and the sample flags still apply, as they do there. */
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_DUMMY;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->exclude_guest = 1;
	attr->freq = 0;
	attr->sample_period = 1;
	evsel__config_base(evsel, cfg, false);
	/* no_aux_samples: no call chain, branch stack or registers. */
	attr->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK |
					 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
					 PERF_SAMPLE_REGS_INTR);
	attr->exclude_callchain_user = attr->exclude_callchain_kernel = 0;
	attr->sample_regs_user = attr->sample_regs_intr = attr->branch_sample_type = 0;
	attr->sample_stack_user = attr->sample_max_stack = 0;
	/* Text is patched at any time on any CPU, by any task: TIME always
	 * (even --per-thread), from the moment it is open. */
	attr->sample_type |= PERF_SAMPLE_TIME;
	attr->text_poke = 1;
	attr->ksymbol = 1;
	attr->disabled = 0;
	attr->enable_on_exec = 0;
	evsel->immediate = true;
	evsel->system_wide = true;
	evsel->cgroup_fd = -1;
	return 0;
}
