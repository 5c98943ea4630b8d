// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the final options become once the machine is known, before any side
 * effect: the events they name, with this machine's facts and default event
 * (the -e parser looks none of them up), the -F and ring size the kernel
 * will take, the events' narrow config; and the fix to suggest for an
 * output path.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "targets/cpu_map.h"
#include "evlist/evlist.h"
#include "evlist/evlist_config.h"
#include "prec/log.h"
#include "options/options.h"
#include "events/parse_events.h"
#include "prec/sysinfo.h"
#include "targets/thread_map.h"
#include "evlist/aux_area.h"
#include "options/callchain.h"
#include "targets/caps.h"
#include "targets/target.h"
#include "entry.h"
#include "record_prepare.h"
#include "evlist/ring_size.h"
#include "evlist/vendor.h"
#include "prec/error.h"
#include "prec/kcore.h"
#include "synth/synth_config.h"
#include "bpf/off_cpu.h"
#include "live/status_line.h"
#include "output/output_config.h"

/* Whether perf's parser would have scanned the PMUs for these events: any
 * event but the default and the software ones (PMU_MAPPINGS order). */
bool event_specs__scan_pmus(const struct event_specs *specs)
{
	for (int i = 0; i < specs->nr; i++)
		if (specs->v[i].attr.type != PERF_TYPE_SOFTWARE && !specs->v[i].name_from_attr)
			return true;
	return false;
}

/* At most this many hybrid core PMUs (there are two today). */
#define MAX_HYBRID 8

int event_specs__for_machine(struct event_specs *specs, const struct sysinfo *si)
{
	struct default_event_pmu hybrid[MAX_HYBRID];
	struct default_event_env env = { 0 };
	struct sysinfo live = { 0 };
	int ret = 0;

	if (!si) {
		/* The events open on this machine, whatever tree the header
		 * describes. */
		sysinfo__read(&live, NULL);
		si = &live;
	}
	vendor__machine(&specs->machine, si, caps__can_profile_kernel());
	env.nr_hybrid = vendor__hybrid_pmus(si, hybrid, MAX_HYBRID);
	specs->machine.hybrid = env.nr_hybrid > 0;
	if (!specs->nr) {
		env.amd = specs->machine.amd;
		env.can_profile_kernel = specs->machine.can_profile_kernel;
		env.hybrid = hybrid;
		ret = parse_events__add_default(specs, &env);
	}
	sysinfo__exit(&live);
	return ret;
}

/* --group: perf's evlist__set_leader, every event in the first one's group
 * (explicit groups merge into it; the leader keeps its name and :S). */
static void event_specs__group_all(struct event_specs *specs)
{
	if (specs->nr < 2)
		return;
	for (int i = 1; i < specs->nr; i++) {
		specs->v[i].leader = 0;
		specs->v[i].nr_members = 1;
	}
	specs->v[0].leader = 0;
	specs->v[0].nr_members = specs->nr;
}

/*
 * Every -e with the --filter / --exclude-perf that follow it, then the
 * checks perf makes before opening anything. 0, or -EINVAL with one line.
 */
static int parse_options(struct event_specs *specs, const struct record_opts *opts,
			 struct prec_err *e)
{
	/* The probe answers which core PMUs of a hybrid machine count a cache event. */
	const struct parse_events_ctx live = { .supported = evlist__event_supported };
	char pidf[64];
	int f = 0, ret;

	for (int i = 0; i < opts->nr_events; i++) {
		if (aux_area__bpf_scriptlet(opts->events[i]))
			return prec_err__set(
				e, -EINVAL,
				"event '%s': prec does not compile BPF scriptlets (perf 6.1's -e FILE.c/.o, gone from later perf): load the program with bpftool, or record a tracepoint or uprobe event",
				opts->events[i]);
		ret = parse_events_ctx(specs, opts->events[i], &live, e);
		if (ret) {
			prec_err__prefix(e, "invalid event");
			return ret;
		}
		for (; f < opts->nr_filters && opts->filters[f].after_events == i + 1; f++) {
			const struct record_filter *rf = &opts->filters[f];

			snprintf(pidf, sizeof(pidf), "common_pid != %d", (int)getpid());
			ret = event_specs__add_filter(specs, rf->filter ? rf->filter : pidf,
						      rf->filter ? "--filter" : "--exclude-perf",
						      e);
			if (ret)
				return ret;
		}
	}
	if (opts->group) {
		event_specs__group_all(specs);
		/* One group per core PMU on a hybrid machine, as -e's own groups. */
		if (event_specs__split_hybrid_groups(specs, 0))
			return prec_err__set(e, -ENOMEM, "out of memory grouping the events");
	}
	for (int i = 0; i < specs->nr; i++) {
		const struct event_spec *spec = &specs->v[i];

		/* nr= (perf's max-events term) does not change what perf record
		 * opens or writes: only perf trace reads it. Accepted likewise. */
		if (spec->terms.set & EVENT_TERM_CALLGRAPH) {
			struct callchain_param cp;

			ret = callchain__parse(spec->terms.call_graph, &cp, e);
			if (ret) {
				prec_err__prefix(e, "event '%s'", spec->name);
				return ret;
			}
		}
		/* perf's message: a counting-only PMU cannot sample a task. */
		if (spec->counting_only && !opts->system_wide && !opts->cpu_list)
			return prec_err__set(
				e, -EINVAL,
				"Invalid event (%s) in per-thread mode, enable system wide with '-a'.",
				spec->name);
	}
	return aux_area__check(specs, opts->aux_snapshot, opts->aux_sample, e);
}

int event_specs__parse_options(struct event_specs *specs, const struct record_opts *opts,
			       struct prec_err *e)
{
	int ret = parse_options(specs, opts, e);

	if (ret && !prec_err__is_set(e)) /* out of memory too is one line */
		prec_err__set(e, ret, "cannot parse the events: %s", strerror(-ret));
	return ret;
}

/* perf's rules for -F: 'max' and values over the kernel's limit (lowered
 * to it, or with --strict-freq refused). */
int prepare__freq(const struct record_opts *opts, uint64_t *out, struct prec_err *e)
{
	uint64_t max = (uint64_t)sysinfo__sysctl_or("kernel/perf_event_max_sample_rate", 0);
	uint64_t freq = opts->freq;

	if (opts->freq_max) {
		pr_info("info: Using a maximum frequency rate of %llu Hz\n",
			(unsigned long long)max);
		*out = max ? max : PREC_DEFAULT_FREQ;
		return 0;
	}
	if (max && freq > max && opts->strict_freq)
		return prec_err__set(
			e, -EINVAL,
			"Maximum frequency rate (%llu Hz) exceeded: -F %llu with --strict-freq (use -F %llu or lower, or raise /proc/sys/kernel/perf_event_max_sample_rate)",
			(unsigned long long)max, (unsigned long long)freq, (unsigned long long)max);
	if (max && freq > max) {
		pr_info("warning: Maximum frequency rate (%llu Hz) exceeded, throttling from %llu Hz to %llu Hz.\n"
			"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
			"         The kernel will lower it when perf's interrupts take too long.\n",
			(unsigned long long)max, (unsigned long long)freq, (unsigned long long)max);
		freq = max;
	}
	*out = freq;
	return 0;
}

static void size_label(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "BKMG";
	int u = 0;

	while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

/* Ring data bytes per CPU for -m: rounded up to a power of two of pages,
 * with perf's message; 0 without -m (prepare__default_ring_bytes then). */
size_t prepare__ring_bytes(const struct record_opts *opts)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages, p2 = 1;
	char label[32];

	if (!opts->mmap_bytes)
		return 0;
	pages = opts->mmap_bytes / page;
	while (p2 < pages)
		p2 *= 2;
	if (p2 != pages) {
		size_label(label, sizeof(label), p2 * page);
		pr_info("rounding mmap pages size to %s (%zu pages)\n", label, p2);
	}
	return p2 * page;
}

size_t prepare__default_ring_bytes(const struct evlist *evlist, uint64_t mem_total_kb)
{
	bool per_thread = evlist->cpus->nr == 1 && evlist->cpus->cpu[0] == -1;
	struct ring_size_in in = {
		.page = (size_t)sysconf(_SC_PAGESIZE),
		.mlock_kb = (uint64_t)sysinfo__sysctl_or("kernel/perf_event_mlock_kb", 516),
		.may_lock_more = caps__can_lock_memory() || caps__paranoid() < 0,
		.bytes_per_sec = ring_size__evlist_rate(evlist),
		.mem_total_kb = mem_total_kb,
		.nr_rings = (unsigned)(per_thread ? evlist->threads->nr : evlist->cpus->nr),
	};
	size_t size = ring_size__pick(&in);

	if (size > ring_size__perf_default(in.page, in.mlock_kb))
		pr_verbose("rings of %zu KiB: the events' expected %llu KB/s per ring, for %d ms (perf: %zu KiB)\n",
			   size >> 10, (unsigned long long)(in.bytes_per_sec / 1000),
			   RING_SIZE_WINDOW_MS, ring_size__perf_default(in.page, in.mlock_kb) >> 10);
	return size;
}

/* fp,N's depth as the attr takes it: perf drops one past the sysctl
 * silently (the kernel's depth then); prec does the same, but says so. */
static uint32_t callchain_depth(const struct record_opts *opts)
{
	long max;

	if (!opts->callchain_max_stack || !opts->callchain_mode)
		return opts->callchain_max_stack;
	max = sysinfo__sysctl_or("kernel/perf_event_max_stack", 127);
	if (max <= 0 || opts->callchain_max_stack <= (uint32_t)max)
		return opts->callchain_max_stack;
	pr_warn("call-graph depth %u is above kernel.perf_event_max_stack: callchains keep %ld frames, as perf's (raise it with 'sysctl -w kernel.perf_event_max_stack=%u' for more)",
		opts->callchain_max_stack, max, opts->callchain_max_stack);
	return 0;
}

void evlist_config__init(struct evlist_config *cfg, const struct record_opts *opts, uint64_t freq,
			 int cgroup_fd)
{
	*cfg = (struct evlist_config){
		.has_cpu = opts->system_wide || opts->cpu_list,
		.workload_only = !opts->system_wide && !opts->cpu_list && !opts->pid_list &&
				 !opts->tid_list && !opts->uid_str,
		/* -t means just those threads, as perf: no children; per-thread
		 * rings cannot take inherited events (the kernel refuses). */
		.inherit = !opts->no_inherit && !opts->tid_list && !opts->per_thread,
		.delayed = opts->delay_ms != 0,
		.stream = opts->pipe_output,
		.cpu_list = opts->cpu_list,
		.cgroup_fd = cgroup_fd,
		.period = opts->period,
		.freq = freq,
		.user_freq = opts->user_freq,
		.no_samples = opts->no_samples,
		.use_clockid = opts->use_clockid,
		.clockid = opts->clockid,
		.no_sample_time = opts->per_thread && !opts->sample_time,
		.sample_addr = opts->sample_addr,
		.sample_data_src = opts->sample_data_src,
		.data_mmap = opts->data_mmap,
		.sample_cpu = opts->sample_cpu,
		.raw_samples = opts->raw_samples,
		.sample_weight = opts->sample_weight,
		.phys_data = opts->phys_data,
		.data_page_size = opts->data_page_size,
		.code_page_size = opts->code_page_size,
		.sample_identifier = opts->sample_identifier,
		.sample_period = opts->sample_period,
		.inherit_stat = opts->inherit_stat,
		.all_cgroups = opts->all_cgroups,
		.sample_transaction = opts->sample_transaction,
		.running_time = opts->running_time,
		.branch_filter = opts->branch_filter,
		.user_regs = opts->user_regs,
		.intr_regs = opts->intr_regs,
		.callchain_mode = opts->callchain_mode,
		.callchain_dump = opts->callchain_dump,
		.callchain_max_stack = callchain_depth(opts),
		.user_callchains = opts->user_callchains,
		.kernel_callchains = opts->kernel_callchains,
		.overwrite = opts->overwrite,
		.no_buffering = opts->no_buffering,
		.all_user = opts->all_user,
		.all_kernel = opts->all_kernel,
		.switch_events = opts->switch_events,
		.namespaces = opts->namespaces,
		.buildid_mmap = opts->buildid_mmap,
		.no_bpf_event = opts->no_bpf_event,
		.text_poke = opts->kcore,
	};
}

void target_config__init(struct target_config *cfg, const struct record_opts *opts)
{
	*cfg = (struct target_config){
		.system_wide = opts->system_wide,
		.cpu_list = opts->cpu_list,
		.pid_list = opts->pid_list,
		.tid_list = opts->tid_list,
		.uid_str = opts->uid_str,
		.per_thread = opts->per_thread,
		.cgroup = opts->cgroup,
		.command = opts->argc > 0,
	};
}

void synth_config__init(struct synth_config *cfg, const struct record_opts *opts)
{
	*cfg = (struct synth_config){
		.tasks = (opts->synth & RECORD_SYNTH_TASK) != 0,
		.mmaps = (opts->synth & RECORD_SYNTH_MMAP) != 0,
		.cgroups = opts->all_cgroups && (opts->synth & RECORD_SYNTH_CGROUP),
		.data_mmap = opts->data_mmap,
		.namespaces = opts->namespaces,
		.buildid_mmap = opts->buildid_mmap,
		.no_bpf_event = opts->no_bpf_event,
		.tail = opts->tail_synthesize,
		.nr_threads = opts->nr_threads_synthesize,
		.proc_map_timeout_ms = opts->proc_map_timeout_ms,
		.buildid_dir = opts->buildid_dir,
	};
}

void off_cpu_config__init(struct off_cpu_config *cfg, const struct record_opts *opts)
{
	*cfg = (struct off_cpu_config){
		.thresh_ns = opts->off_cpu_thresh_ns,
		.needs_cgroup = opts->all_cgroups,
		.use_clockid = opts->use_clockid,
		.clockid = opts->clockid,
	};
}

/* --kcore's source: perf's machine root_dir/proc (the tests' sysroot). */
void prepare__kcore_dir(const char *sysroot, char *buf, size_t len)
{
	snprintf(buf, len, "%s/proc", sysroot ? sysroot : "");
}

/* --kcore, before anything is created: kcore must be readable, and kallsyms
 * must show the addresses that say which parts of it to copy. */
int prepare__kcore_check(const char *sysroot, struct prec_err *e)
{
	char dir[PATH_MAX];
	int ret;

	prepare__kcore_dir(sysroot, dir, sizeof(dir));
	ret = kcore__check(dir);
	if (!ret)
		return 0;
	return prec_err__set(
		e, ret, "--kcore: cannot use %s/kcore: %s (%s)", dir,
		ret == -EADDRNOTAVAIL ? "kallsyms shows no kernel addresses" : strerror(-ret),
		ret == -ENOENT ?
			"this kernel has no /proc/kcore, CONFIG_PROC_KCORE is not set: record without --kcore" :
		ret == -EADDRNOTAVAIL ? "run as root with sysctl kernel.kptr_restrict=0" :
		ret == -EACCES || ret == -EPERM ?
					"kcore needs root (CAP_SYS_RAWIO): run prec as root" :
					"record without --kcore");
}

void status_line_config__init(struct status_line_config *c, const struct record_opts *opts)
{
	*c = (struct status_line_config){
		.quiet = opts->quiet,
		.comp = opts->comp_level > 0,
		.rotating = opts->switch_output,
	};
}

void output_config__init(struct output_config *cfg, const struct record_opts *opts)
{
	*cfg = (struct output_config){
		.path = opts->output,
		.pipe = opts->pipe_output,
		.kcore = opts->kcore,
		.comp_level = opts->comp_level,
		.nr_cblocks = opts->nr_cblocks,
		.switch_output = opts->switch_output,
		.switch_size = opts->switch_size,
		.switch_time_ms = opts->switch_time_ms,
		.switch_max_files = opts->switch_max_files,
		.timestamp_filename = opts->timestamp_filename,
		.max_size = opts->max_size,
		.branch_stack = opts->branch_filter != 0,
		.vmlinux = opts->vmlinux,
		.no_buildid = opts->no_buildid,
		.no_buildid_cache = opts->no_buildid_cache,
		.buildid_all = opts->buildid_all,
		.buildid_mmap = opts->buildid_mmap,
		.keep_names = !opts->no_keep_names,
		.names_cache_max = opts->names_cache_max,
		.buildid_dir = opts->buildid_dir,
		/* options__validate resolved perf's "system". */
		.debuginfod_urls = opts->debuginfod ? opts->debuginfod_urls : NULL,
	};
}
