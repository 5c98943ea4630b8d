// SPDX-License-Identifier: GPL-2.0-only
/* The events of a recording: attrs as perf record sets them, fds, rings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <poll.h>

#include "prec/cpu_map.h"
#include "prec/thread_map.h"
#include "prec/evlist.h"
#include "prec/log.h"
#include "prec/parse_events.h"
#include "prec/perf_file.h"
#include "prec/record.h"
#include "caps.h"
#include "callchain.h"
#include "unwind/regs.h"
#include "vendor.h"

/* The sample contents perf record's flags ask for (-d, -R, -W, -b, --user-regs...). */
static void evsel__config_sample(struct evsel *evsel, const struct record_opts *opts,
				 bool tracking)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (opts->sample_addr) {
		attr->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		attr->mmap_data = tracking;
	}
	if (opts->sample_cpu)
		attr->sample_type |= PERF_SAMPLE_CPU;
	if (opts->raw_samples)
		attr->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (opts->sample_weight)
		attr->sample_type |= vendor__weight_bit(vendor__build_arch());
	if (opts->phys_data)
		attr->sample_type |= PERF_SAMPLE_PHYS_ADDR;
	if (opts->data_page_size)
		attr->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE;
	if (opts->code_page_size)
		attr->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE;
	if (opts->sample_identifier)
		attr->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (opts->sample_period)
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	if (opts->inherit_stat) {
		attr->inherit_stat = 1;
		attr->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	if (opts->no_samples) {
		/* perf -n: the event counts, never samples. */
		attr->sample_freq = 0;
		attr->sample_period = 0;
	}
	if (opts->all_cgroups)
		attr->sample_type |= PERF_SAMPLE_CGROUP;
	/* --overwrite: every event a flight recorder (an overwrite term may
	 * still turn one back, as the terms come after this). */
	if (opts->overwrite)
		attr->write_backward = 1;
	if (opts->no_buffering) {
		attr->watermark = 0;
		attr->wakeup_events = 1;
	}
	if (opts->all_user) {
		attr->exclude_kernel = 1;
		attr->exclude_user = 0;
	}
	if (opts->all_kernel) {
		attr->exclude_user = 1;
		attr->exclude_kernel = 0;
	}
	if (opts->branch_filter) {
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = opts->branch_filter;
	}
	{
		struct callchain_param cp = { .mode = (enum callchain_mode)opts->callchain_mode,
					      .dump_size = opts->callchain_dump };

		callchain__config(attr, &cp, regs__default_mask(), opts->user_callchains,
				  opts->kernel_callchains);
	}
	if (opts->user_regs) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER;
		attr->sample_regs_user = opts->user_regs;
	}
	if (opts->intr_regs) {
		attr->sample_type |= PERF_SAMPLE_REGS_INTR;
		attr->sample_regs_intr = opts->intr_regs;
	}
	if (tracking) {
		attr->context_switch = opts->switch_events;
		attr->namespaces = opts->namespaces;
		attr->cgroup = opts->all_cgroups;
	}
}

/* How the recording is targeted: decides enable_on_exec, inherit, CPU bits. */
struct target_kind {
	bool has_cpu; /* -a or -C: per-CPU events for any task */
	bool workload_only; /* only a forked command: enable at its exec */
	bool inherit;
};

static void evsel__config(struct evsel *evsel, const struct record_opts *opts,
			  const struct target_kind *tk, bool tracking)
{
	struct perf_event_attr *attr = &evsel->attr;

	attr->size = PREC_ATTR_SIZE;
	attr->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	/* perf: one ring per thread needs no ordering, so no time unless -T. */
	if (opts->per_thread && !opts->sample_time)
		attr->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
	if (tk->has_cpu)
		attr->sample_type |= PERF_SAMPLE_CPU;
	attr->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	attr->disabled = 1;
	attr->inherit = tk->inherit;
	/* Only a forked workload is enabled by its exec; other targets are
	 * enabled once the side-band is written. */
	attr->enable_on_exec = tk->workload_only && !opts->delay_ms;
	attr->sample_id_all = 1;
	if (opts->period) {
		attr->freq = 0;
		attr->sample_period = opts->period;
	} else if (!attr->freq && attr->sample_period && !opts->user_freq) {
		/* Tracepoints and breakpoints come with perf's period of 1 (and
		 * their own sample bits): every hit is a sample unless -c/-F. */
	} else {
		attr->freq = 1;
		attr->sample_freq = opts->freq;
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	}
	if (opts->use_clockid) {
		attr->use_clockid = 1;
		attr->clockid = opts->clockid;
	}
	evsel__config_sample(evsel, opts, tracking);
	if (tracking) {
		/* One event carries the side-band the reader needs to resolve IPs. */
		attr->mmap = 1;
		attr->mmap2 = 1;
		attr->comm = 1;
		attr->comm_exec = 1;
		attr->task = 1;
		attr->ksymbol = 1;
		attr->bpf_event = 1;
		/* --buildid-mmap: the kernel's MMAP2 records carry build-ids. */
		attr->build_id = opts->buildid_mmap;
	}
}

/* The -e string's own terms, over prec's defaults (perf's apply_config_terms). */
static void evsel__apply_terms(struct evsel *evsel, const struct event_terms *t,
			       const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (t->set & (EVENT_TERM_CALLGRAPH | EVENT_TERM_STACKSIZE | EVENT_TERM_MAX_STACK)) {
		/* The event's own call graph replaces the global one. */
		struct callchain_param cp = { .mode = (enum callchain_mode)opts->callchain_mode,
					      .dump_size = opts->callchain_dump ?
								   opts->callchain_dump :
								   CALLCHAIN_DEFAULT_DUMP };
		char err[160];

		if (t->set & EVENT_TERM_CALLGRAPH)
			callchain__parse(t->call_graph, &cp, err, sizeof(err)); /* checked by record.c */
		if (t->set & EVENT_TERM_STACKSIZE)
			cp.dump_size = (uint32_t)((t->stack_size + 7) & ~7ULL);
		if (t->set & EVENT_TERM_MAX_STACK)
			cp.max_stack = (uint32_t)t->max_stack;
		attr->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
						 PERF_SAMPLE_STACK_USER);
		attr->exclude_callchain_user = 0;
		attr->sample_stack_user = 0;
		callchain__config(attr, &cp, regs__default_mask(), opts->user_callchains,
				  opts->kernel_callchains);
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

/*
 * Groups as perf configures them: only the leader starts disabled and is
 * enabled at exec; with leader sampling (:S) the leader's samples read the
 * whole group (READ, PERF_FORMAT_GROUP, no inherit) and the members, unless
 * they have their own period or frequency, do not sample at all.
 */
static void evlist__config_groups(struct evlist *evlist, const struct event_specs *specs)
{
	for (int i = 0; i < specs->nr; i++) {
		struct evsel *evsel = &evlist->evsel[i];
		const struct event_spec *spec = &specs->v[i];
		struct evsel *leader = &evlist->evsel[spec->leader];
		bool leader_sampling = specs->v[spec->leader].sample_read &&
				       specs->v[spec->leader].nr_members > 1;

		evsel->leader = spec->leader;
		evsel->nr_members = spec->nr_members;
		evsel->group_name = spec->group_name;
		evsel->filter = spec->filter;
		evsel->weak_group = spec->weak_group;
		if (leader_sampling) {
			evsel->attr.read_format |= PERF_FORMAT_GROUP;
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

/*
 * perf's tracking dummy for -a/-C and -D: it records the side-band from the
 * moment it is opened (immediately enabled, or at exec for a delayed workload),
 * while the sampling events may start later.
 */
static void dummy__config(struct evsel *evsel, const struct record_opts *opts,
			  const struct target_kind *tk)
{
	struct perf_event_attr *attr = &evsel->attr;

	evsel__config(evsel, opts, tk, true);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_DUMMY;
	attr->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	attr->freq = 0;
	attr->sample_period = 1;
	attr->exclude_guest = 0;
	attr->exclude_host = 0;
	if (tk->workload_only) {
		attr->enable_on_exec = 1;
	} else {
		attr->disabled = 0;
		attr->enable_on_exec = 0;
		evsel->immediate = true;
	}
}

static size_t id_hdr_size(uint64_t sample_type)
{
	size_t size = 0;

	if (sample_type & PERF_SAMPLE_TID)
		size += 8;
	if (sample_type & PERF_SAMPLE_TIME)
		size += 8;
	if (sample_type & PERF_SAMPLE_ID)
		size += 8;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		size += 8;
	if (sample_type & PERF_SAMPLE_CPU)
		size += 8;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		size += 8;
	return size;
}

/* Whether cpu is in the sorted map m. */
static bool cpu_map__has(const struct cpu_map *m, int cpu)
{
	for (int i = 0; i < m->nr; i++)
		if (m->cpu[i] == cpu)
			return true;
	return false;
}

/*
 * perf 6.1's evlist__fix_hybrid_cpus for the events bound to a PMU's CPUs
 * (the hybrid default events): one none of whose CPUs is recorded is left
 * out, with perf's warning; -C CPUs outside its PMU are skipped, with
 * perf's warning. Fills view with the events that stay (it points into
 * specs, groups renumbered; *kept is what to free). 0, or -EINVAL when
 * none stays, -ENOMEM.
 */
static int specs__on_cpus(const struct event_specs *specs, const struct cpu_map *cpus,
			  const char *cpu_list, struct event_specs *view, struct event_spec **kept)
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
		pr_err("cannot record the default event on CPUs %s: none of them is a CPU of a core PMU (pick CPUs of cpu_core or cpu_atom)",
		       cpu_list ? cpu_list : "(none)");
		ret = -EINVAL;
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

/* The rules perf 6.1 applies per event by machine (vendor.h). */
static void evsel__config_machine(struct evsel *evsel, const struct event_spec *spec,
				  const struct event_machine *m, const struct record_opts *opts,
				  bool *warned)
{
	struct perf_event_attr *attr = &evsel->attr;
	uint64_t regs = vendor__fp_leaf_regs(vendor__build_arch());

	/* arch__add_leaf_frame_record_opts: the global fp call graph. */
	if (opts->callchain_mode == CALLCHAIN_FP && regs) {
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

int evlist__init(struct evlist *evlist, const struct event_specs *specs_in,
		 const struct record_opts *opts, struct cpu_map *cpus, struct thread_map *threads)
{
	struct target_kind tk = {
		.has_cpu = opts->system_wide || opts->cpu_list,
		.workload_only = !opts->system_wide && !opts->cpu_list && !opts->pid_list &&
				 !opts->tid_list && !opts->uid_str,
		/* -t means just those threads, as perf: no children; per-thread
		 * rings cannot take inherited events (the kernel refuses). */
		.inherit = !opts->no_inherit && !opts->tid_list && !opts->per_thread,
	};
	bool dummy = tk.has_cpu || opts->delay_ms;
	struct event_specs view;
	const struct event_specs *specs = &view;
	struct event_spec *kept = NULL;
	bool same_type = true, warned = false;
	int nr, ret;

	memset(evlist, 0, sizeof(*evlist));
	evlist->cpus = cpus;
	evlist->threads = threads;
	evlist->workload_only = tk.workload_only;
	evlist->has_cpu = tk.has_cpu;
	evlist->machine = specs_in->machine;
	ret = specs__on_cpus(specs_in, cpus, opts->cpu_list, &view, &kept);
	if (ret)
		return ret;
	nr = specs->nr + (dummy ? 1 : 0);
	evlist->evsel = calloc((size_t)nr, sizeof(*evlist->evsel));
	if (!evlist->evsel) {
		free(kept);
		return -ENOMEM;
	}
	for (int i = 0; i < nr; i++) {
		struct evsel *evsel = &evlist->evsel[i];

		evsel->idx = i;
		evsel->leader = i;
		evsel->nr_members = 1;
		evsel->cgroup_fd = opts->cgroup_fd;
		if (i == specs->nr) {
			evsel->name = strdup("dummy:HG");
			if (!evsel->name)
				goto nomem;
			evlist->nr++;
			dummy__config(evsel, opts, &tk);
			continue;
		}
		const struct event_spec *spec = &specs->v[i];

		evsel->attr = spec->attr;
		evsel->precise_max = spec->precise_max;
		evsel->name_from_attr = spec->name_from_attr;
		evsel->exclude_GH = spec->exclude_GH;
		evsel->pmu_name = spec->pmu_name;
		evsel->name = strdup(spec->name);
		if (!evsel->name ||
		    (spec->cpus && cpu_map__parse(&evsel->pmu_cpus, spec->cpus) == -ENOMEM))
			goto nomem;
		evlist->nr++;
		evsel__config(evsel, opts, &tk, i == 0 && !dummy);
		evsel__apply_terms(evsel, &spec->terms, opts);
		evsel__config_machine(evsel, spec, &specs_in->machine, opts, &warned);
	}
	evlist__config_groups(evlist, specs);
	free(kept);
	for (int i = 1; i < nr; i++)
		if (evlist->evsel[i].attr.sample_type != evlist->evsel[0].attr.sample_type)
			same_type = false;
	if (nr > 1) {
		/* Several events: every record says which one it is, where readers
		 * find it without knowing the event (IDENTIFIER); ID too when the
		 * layouts agree, as perf writes it then. */
		for (int i = 0; i < nr; i++)
			evlist->evsel[i].attr.sample_type |=
				PERF_SAMPLE_IDENTIFIER | (same_type ? PERF_SAMPLE_ID : 0);
	} else if (opts->pipe_output) {
		/* perf samples ID in a stream even for one event: the stream's
		 * reader matches records to HEADER_ATTR's ids. */
		evlist->evsel[0].attr.sample_type |= PERF_SAMPLE_ID;
	}
	evlist->id_hdr_size = id_hdr_size(evlist->evsel[0].attr.sample_type);
	return 0;
nomem:
	free(kept);
	return -ENOMEM;
}

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
			snprintf(buf, len,
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

int evlist__open(struct evlist *evlist)
{
	const struct cpu_map *cpus = evlist->cpus;
	const struct thread_map *threads = evlist->threads;

	for (int i = 0; i < evlist->nr; i++) {
		struct evsel *evsel = &evlist->evsel[i];
		int cpu = -1, tid = -1;
		const struct evsel *leader = evsel->leader != i ? &evlist->evsel[evsel->leader] : NULL;
		int ret = evsel__open(evsel, leader, cpus->cpu, cpus->nr, threads->pid, threads->nr,
				      &cpu, &tid);

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

static void evlist__mmap_error(int ret, int cpu, size_t data_bytes)
{
	if (ret == -EPERM)
		pr_err("cannot map %zu KiB ring buffers per CPU: %s (raise /proc/sys/kernel/perf_event_mlock_kb or use a smaller -m)",
		       data_bytes >> 10, strerror(-ret));
	else
		pr_err("cannot map the ring buffer of CPU %d: %s (try a smaller -m)", cpu,
		       strerror(-ret));
}

/* Per-CPU rings normally; one ring per thread when the CPU is "any" (--per-thread). */
static bool evlist__per_thread(const struct evlist *evlist)
{
	return evlist->cpus->nr == 1 && evlist->cpus->cpu[0] == -1;
}

/*
 * One kind of ring: the forward rings the drain loop empties, or the
 * backward (overwrite) ones read at the end. Every open fd of an event of
 * that kind on a CPU (or thread) writes into one ring: the first owns the
 * mapping, the others are redirected to it.
 */
static int evlist__mmap_kind(struct evlist *evlist, size_t data_bytes, bool backward,
			     struct ring *rings, int *nr_rings)
{
	bool per_thread = evlist__per_thread(evlist);
	int nr_threads = evlist->threads->nr;
	int nr = per_thread ? nr_threads : evlist->cpus->nr;

	for (int m = 0; m < nr; m++) {
		int ring_fd = -1;
		int cpu = per_thread ? -1 : evlist->cpus->cpu[m];

		for (int e = 0; e < evlist->nr; e++) {
			struct evsel *evsel = &evlist->evsel[e];
			int c0 = per_thread ? 0 : m, c1 = per_thread ? 1 : m + 1;
			int t0 = per_thread ? m : 0, t1 = per_thread ? m + 1 : nr_threads;

			if (!!evsel->attr.write_backward != backward)
				continue;
			for (int c = c0; c < c1; c++) {
				for (int t = t0; t < t1; t++) {
					int fd = EVSEL_FD(evsel, c, t);
					int ret;

					if (fd < 0)
						continue;
					if (ring_fd < 0) {
						ret = ring__mmap(&rings[*nr_rings], fd, cpu, data_bytes,
								 backward);
						if (ret) {
							evlist__mmap_error(ret, cpu, data_bytes);
							return ret;
						}
						(*nr_rings)++;
						ring_fd = fd;
						continue;
					}
					if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fd) < 0) {
						ret = -errno;
						pr_err("cannot redirect event '%s' to the ring of CPU %d: %s",
						       evsel->name, cpu, strerror(-ret));
						return ret;
					}
				}
			}
		}
	}
	return 0;
}

int evlist__mmap(struct evlist *evlist, size_t data_bytes)
{
	int nr = evlist__per_thread(evlist) ? evlist->threads->nr : evlist->cpus->nr;
	int ret;

	evlist->rings = calloc((size_t)nr, sizeof(*evlist->rings));
	evlist->bw_rings = calloc((size_t)nr, sizeof(*evlist->bw_rings));
	if (!evlist->rings || !evlist->bw_rings)
		return -ENOMEM;
	ret = evlist__mmap_kind(evlist, data_bytes, false, evlist->rings, &evlist->nr_rings);
	if (!ret)
		ret = evlist__mmap_kind(evlist, data_bytes, true, evlist->bw_rings,
					&evlist->nr_bw_rings);
	return ret;
}

void evlist__pause_backward(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr_bw_rings; i++)
		ioctl(evlist->bw_rings[i].fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
}

void evlist__resume_backward(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr_bw_rings; i++)
		ioctl(evlist->bw_rings[i].fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
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
	thread_map__delete(evlist->threads);
	memset(evlist, 0, sizeof(*evlist));
}

int evlist__sample_time_offset(const struct evlist *evlist)
{
	uint64_t st = evlist->evsel[0].attr.sample_type;
	int off = 0;

	if (!(st & PERF_SAMPLE_TIME))
		return -1;
	if (st & PERF_SAMPLE_IDENTIFIER)
		off += 8;
	if (st & PERF_SAMPLE_IP)
		off += 8;
	if (st & PERF_SAMPLE_TID)
		off += 8;
	return off;
}

bool evlist__exclude_kernel(const struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++)
		if (!evlist->evsel[i].attr.exclude_kernel)
			return false;
	return true;
}
