// SPDX-License-Identifier: GPL-2.0-only
/*
 * The option table: each perf record option prec takes, its value, help
 * line, --help section and completion, and the lookups by name
 * (options_int.h). options_help.c prints it; doc/ generates from it.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "options/options.h"
#include "options/options_int.h"
#include "options/options_output.h"

/*
 * A bool of record_opts set by the option; a string it points at argv (with
 * STRING_C, its completion). grp is the --help section, without OPT_GROUP_.
 */
#define FLAG(c, name, field, grp, help)                                                     \
	{ c, offsetof(struct record_opts, field), name, OPT_FLAG, 0, NULL, help,            \
	  .group = OPT_GROUP_##grp }
#define STRING(c, name, field, grp, arg, help)                                              \
	{ c, offsetof(struct record_opts, field), name, OPT_STRING, 1, arg, help,           \
	  .group = OPT_GROUP_##grp }
#define STRING_C(c, name, field, grp, arg, help, comp)                                      \
	{ c, offsetof(struct record_opts, field), name, OPT_STRING, 1, arg, help,           \
	  .group = OPT_GROUP_##grp, .complete = comp }

const char *const opt_group_title[OPT_GROUP_NR] = {
	[OPT_GROUP_EVENTS] = "Event selection",
	[OPT_GROUP_TARGET] = "Target",
	[OPT_GROUP_SAMPLING] = "Sampling",
	[OPT_GROUP_CALLGRAPH] = "Call graphs",
	[OPT_GROUP_SIDEBAND] = "Side-band",
	[OPT_GROUP_BUILDID] = "Build-ids and debug info",
	[OPT_GROUP_OUTPUT] = "Output",
	[OPT_GROUP_AUX] = "AUX area and BPF",
	[OPT_GROUP_CONTROL] = "Control",
	[OPT_GROUP_PERF] = "Performance",
	[OPT_GROUP_GENERAL] = "Messages and help",
};

const struct opt_def opt_table[] = {
	{ 'o', 0, "output", OPT_OUTPUT, 1, "file", "output file name (default perf.data)",
	  .group = OPT_GROUP_OUTPUT, .complete = "@file" },
	{ 'e', 0, "event", OPT_EVENT, 1, "event", "event selector (repeatable, comma lists)",
	  .group = OPT_GROUP_EVENTS, .complete = "@event" },
	{ 'F', 0, "freq", OPT_FREQ, 1, "freq|max", "profile at this frequency (default 4000)",
	  .group = OPT_GROUP_SAMPLING, .complete = "max" },
	{ 'c', 0, "count", OPT_COUNT, 1, "n", "event period to sample",
	  .group = OPT_GROUP_SAMPLING },
	{ 'm', 0, "mmap-pages", OPT_MMAP_PAGES, 1, "pages|size",
	  "ring buffer data pages per CPU (power of two) or a size with B/K/M/G",
	  .group = OPT_GROUP_PERF },
	FLAG('q', "quiet", quiet, GENERAL, "don't print any message but errors"),
	{ 'v', 0, "verbose", OPT_VERBOSE, 0, NULL, "be more verbose (repeat for more)",
	  .group = OPT_GROUP_GENERAL },
	FLAG('h', "help", help, GENERAL, "show this help"),
	FLAG(0, "version", version, GENERAL, "show the version"),
	{ 'k', 0, "clockid", OPT_CLOCKID, 1, "clockid",
	  "clock for sample times: monotonic, monotonic_raw, realtime, boottime, tai, or a number",
	  .group = OPT_GROUP_SAMPLING, .complete = "monotonic monotonic_raw realtime boottime tai" },

	FLAG('a', "all-cpus", system_wide, TARGET, "system-wide collection from all CPUs"),
	STRING('C', "cpu", cpu_list, TARGET, "cpu", "list of CPUs to monitor (e.g. 0-2,5)"),
	STRING_C('p', "pid", pid_list, TARGET, "pid", "record events on existing process ids (comma list)",
		 "@pid"),
	STRING_C('t', "tid", tid_list, TARGET, "tid", "record events on existing thread ids (comma list)",
		 "@pid"),
	{ 'u', 0, "uid", OPT_UID, 1, "user", "record events in threads owned by this user",
	  .group = OPT_GROUP_TARGET, .complete = "@user" },
	FLAG(0, "per-thread", per_thread, TARGET, "use per-thread rings (events on any CPU)"),
	FLAG('i', "no-inherit", no_inherit, TARGET, "child tasks do not inherit counters"),
	{ 'G', 0, "cgroup", OPT_CGROUP, 1, "name", "monitor only this cgroup (with -a or -C)",
	  .group = OPT_GROUP_TARGET },
	{ 'D', 0, "delay", OPT_DELAY, 1, "msecs", "start sampling after this delay (-1: disabled)",
	  .group = OPT_GROUP_CONTROL },

	FLAG('T', "timestamp", sample_time, SAMPLING, "record the sample time (always on, as in perf record)"),
	FLAG('P', "period", sample_period, SAMPLING, "record the sample period"),
	FLAG('d', "data", sample_addr, SAMPLING, "record the sample addresses"),
	FLAG(0, "sample-cpu", sample_cpu, SAMPLING, "record the sample cpu"),
	FLAG(0, "sample-mem-info", sample_data_src, SAMPLING,
	     "record the data source for memory operations (implied by -d)"),
	FLAG('R', "raw-samples", raw_samples, SAMPLING, "collect raw sample records from all opened counters"),
	FLAG('W', "weight", sample_weight, SAMPLING, "enable weighted sampling"),
	FLAG(0, "phys-data", phys_data, SAMPLING, "record the sample physical addresses"),
	FLAG(0, "data-page-size", data_page_size, SAMPLING, "record the sampled data address data page size"),
	FLAG(0, "code-page-size", code_page_size, SAMPLING, "record the sampled code address page size"),
	FLAG('s', "stat", inherit_stat, SAMPLING, "per thread counts"),
	FLAG('n', "no-samples", no_samples, SAMPLING, "don't sample"),
	FLAG(0, "switch-events", switch_events, SIDEBAND, "record context switch events"),
	FLAG(0, "latency", latency, SIDEBAND,
	     "record what perf report --latency needs (context switches; not with -a)"),
	FLAG(0, "sample-identifier", sample_identifier, SAMPLING, "record the sample identifier"),
	FLAG(0, "namespaces", namespaces, SIDEBAND, "record namespaces events"),
	FLAG(0, "data-mmap", data_mmap, SIDEBAND, "record the mappings of data, not only of code (implied by -d)"),
	FLAG(0, "no-data-mmap", no_data_mmap, SIDEBAND, "with -d: do not record the mappings of data"),
	FLAG(0, "all-cgroups", all_cgroups, SIDEBAND, "record cgroup events"),
	FLAG(0, "user-callchains", user_callchains, CALLGRAPH, "only record the user part of call chains"),
	FLAG(0, "kernel-callchains", kernel_callchains, CALLGRAPH, "only record the kernel part of call chains"),
	FLAG(0, "all-user", all_user, EVENTS, "configure all used events to run in user space"),
	FLAG(0, "all-kernel", all_kernel, EVENTS, "configure all used events to run in kernel space"),
	{ 'z', 0, "compression-level", OPT_COMPRESS, 2, "n",
	  "compress the ring data with zstd at level n (1..22, default 1)",
	  .group = OPT_GROUP_OUTPUT },
	{ 'g', 0, NULL, OPT_CALLGRAPH_FP, 0, NULL, "enables call-graph recording (frame pointers)",
	  .group = OPT_GROUP_CALLGRAPH },
	{ 0, 0, "call-graph", OPT_CALLGRAPH, 1, "mode", "fp, dwarf[,size] or lbr",
	  .group = OPT_GROUP_CALLGRAPH, .complete = "fp dwarf lbr" },
	{ 0, 0, "unwind", OPT_UNWIND, 1, "when",
	  "with --call-graph dwarf: 'record' unwinds user stacks while recording (small files), 'report' leaves it to perf report",
	  .group = OPT_GROUP_CALLGRAPH, .complete = "record report" },
	{ 'b', 0, "branch-any", OPT_BRANCH_ANY, 0, NULL, "sample any taken branches",
	  .group = OPT_GROUP_SAMPLING },
	{ 'j', 0, "branch-filter", OPT_BRANCH_FILTER, 1, "filter", "branch stack filter modes",
	  .group = OPT_GROUP_SAMPLING, .complete = "any any_call any_ret ind_call ind_jmp call cond call_stack u k hv in_tx no_tx abort_tx no_flags no_cycles save_type hw_index priv_save counter" },
	{ 0, 0, "user-regs", OPT_USER_REGS, 2, "regs", "sample user registers (=ax,bx,...; all without a value)",
	  .group = OPT_GROUP_SAMPLING },
	{ 'I', 0, "intr-regs", OPT_INTR_REGS, 2, "regs", "sample registers at interrupt (=ax,bx,...; all without a value)",
	  .group = OPT_GROUP_SAMPLING },
	FLAG(0, "list-events", list_events, EVENTS, "list the events this machine supports (also 'prec list')"),
	{ 0, 0, "filter", OPT_FILTER, 1, "filter", "filter for the -e before it: a tracepoint's, or a BPF sample filter",
	  .group = OPT_GROUP_EVENTS },
	STRING_C(0, "setup-filter", setup_filter, EVENTS, "pin|unpin",
		 "pin the BPF sample filter so users without CAP_BPF can use --filter (root), or unpin it; records nothing",
		 "pin unpin"),
	{ 0, 0, "exclude-perf", OPT_EXCLUDE_PERF, 0, NULL, "don't record prec's own events (tracepoints before it)",
	  .group = OPT_GROUP_EVENTS },
	/* Build-id and output options. */
	{ 'B', offsetof(struct record_opts, no_buildid), "no-buildid", OPT_FLAG, 0, NULL,
	  "do not collect build-ids (no HEADER_BUILD_ID, no build-id cache)",
	  .group = OPT_GROUP_BUILDID },
	{ 'N', offsetof(struct record_opts, no_buildid_cache), "no-buildid-cache", OPT_FLAG, 0,
	  NULL, "do not update the build-id cache (~/.debug)", .group = OPT_GROUP_BUILDID },
	{ 'S', 0, "snapshot", OPT_AUX, 2, "opts",
	  "AUX area tracing snapshot mode (needs an AUX area event such as intel_pt//)",
	  .group = OPT_GROUP_AUX },
	{ 0, 0, "aux-sample", OPT_AUX, 2, "opts",
	  "sample AUX area data (needs an AUX area event in the group)", .group = OPT_GROUP_AUX },
	FLAG(0, "off-cpu", off_cpu, AUX, "off-CPU analysis: where tasks block, and for how long (BPF)"),
	{ 0, 0, "off-cpu-thresh", OPT_OFF_CPU_THRESH, 1, "ms",
	  "with --off-cpu: a block this long or longer is a sample of its own (default 500)",
	  .group = OPT_GROUP_AUX },
	STRING_C(0, "clang-path", clang_path, AUX, "clang path",
	       "clang binary to compile BPF scriptlets (-e FILE.c) with", "@command"),
	STRING(0, "clang-opt", clang_opt, AUX, "clang options",
	       "options passed to clang when compiling BPF scriptlets"),
	{ 'r', 0, "realtime", OPT_REALTIME, 1, "prio",
	  "drain with this SCHED_FIFO priority (1..99)", .group = OPT_GROUP_PERF },
	{ 0, OUTPUT_OPT_MMAP_FLUSH, "mmap-flush", OPT_OUTPUT_MGMT, 1, "size",
	  "drain a ring only when it holds this much (B/K/M/G; default 1 byte)",
	  .group = OPT_GROUP_PERF },
	{ 0, OUTPUT_OPT_SWITCH, "switch-output", OPT_OUTPUT_MGMT, 2, "signal|size|time",
	  "rotate the output on SIGUSR2, at a size (100M) or a period (30s, 5m)",
	  .group = OPT_GROUP_OUTPUT, .complete = "signal" },
	{ 0, OUTPUT_OPT_MAX_FILES, "switch-max-files", OPT_OUTPUT_MGMT, 1, "n",
	  "keep at most n rotated files (the oldest go)", .group = OPT_GROUP_OUTPUT },
	{ 0, offsetof(struct record_opts, timestamp_filename), "timestamp-filename", OPT_FLAG, 0,
	  NULL, "append a timestamp to the output file name", .group = OPT_GROUP_OUTPUT },
	{ 0, OUTPUT_OPT_MAX_SIZE, "max-size", OPT_OUTPUT_MGMT, 1, "size",
	  "stop recording when the output reaches this size (B/K/M/G)", .group = OPT_GROUP_OUTPUT },
	{ 0, offsetof(struct record_opts, overwrite), "overwrite", OPT_FLAG, 0, NULL,
	  "flight recorder: overwritable rings, written at the end and on SIGUSR2",
	  .group = OPT_GROUP_OUTPUT },
	{ 0, offsetof(struct record_opts, tail_synthesize), "tail-synthesize", OPT_FLAG, 0, NULL,
	  "synthesize the side-band at the end of the recording", .group = OPT_GROUP_SIDEBAND },
	{ 0, offsetof(struct record_opts, no_buffering), "no-buffering", OPT_FLAG, 0, NULL,
	  "collect data without buffering (a wakeup per record)", .group = OPT_GROUP_PERF },
	{ 0, offsetof(struct record_opts, buildid_all), "buildid-all", OPT_FLAG, 0, NULL,
	  "collect build-ids of every mapped DSO, not only those samples hit",
	  .group = OPT_GROUP_BUILDID },
	{ 0, offsetof(struct record_opts, buildid_mmap), "buildid-mmap", OPT_FLAG, 0, NULL,
	  "build-ids in MMAP2 records (no HEADER_BUILD_ID, no build-id cache)",
	  .group = OPT_GROUP_BUILDID },
	FLAG(0, "strict-freq", strict_freq, SAMPLING, "fail if the -F frequency cannot be used (no throttling)"),
	FLAG(0, "group", group, EVENTS, "put all the events into one group, as if written {a,b,...}"),
	FLAG(0, "running-time", running_time, SAMPLING, "record running/enabled time of read (:S) events"),
	FLAG(0, "transaction", sample_transaction, SAMPLING, "sample transaction flags (special events only)"),
	FLAG(0, "timestamp-boundary", timestamp_boundary, OUTPUT, "record the time of the first/last samples"),
	FLAG(0, "dry-run", dry_run, CONTROL, "parse and check the options, then exit: record nothing"),
	STRING_C(0, "switch-output-event", switch_output_event, OUTPUT, "event", "rotate the output at each record of this event",
		 "@event"),
	{ 0, 0, "aio", OPT_AIO, 2, "n",
	  "write the data with n asynchronous writes in flight (1..4, default 1)",
	  .group = OPT_GROUP_PERF },
	{ 0, 0, "affinity", OPT_AFFINITY, 1, "node|cpu",
	  "while reading a ring, run on its NUMA node (node) or its CPU (cpu)",
	  .group = OPT_GROUP_PERF, .complete = "node cpu" },
	{ 0, 0, "threads", OPT_THREADS, 2, "spec",
	  "drain in parallel, one thread per stream: cpu, core, package, numa or masks CPUS/AFFINITY[:...]; writes a perf.data directory",
	  .group = OPT_GROUP_PERF, .complete = "cpu core package numa" },
	STRING(0, "control", control, CONTROL, "fifo:ctl[,ack]|fd:ctl[,ack]",
	       "take enable, disable, snapshot, stop, ping, evlist commands from a FIFO or fd, acked on ack"),
	{ 0, OUTPUT_OPT_SYNTH, "synth", OPT_OUTPUT_MGMT, 1, "no|all|task|mmap|cgroup",
	  "which side-band of existing tasks to synthesize (comma list; default all)",
	  .group = OPT_GROUP_SIDEBAND, .complete = "no all task mmap cgroup" },
	{ 0, OUTPUT_OPT_SYNTH_THREADS, "num-thread-synthesize", OPT_OUTPUT_MGMT, 1, "n",
	  "threads reading /proc beside the recording (default: prec's CPUs, at most 8)",
	  .group = OPT_GROUP_SIDEBAND },
	{ 0, OUTPUT_OPT_PROC_MAP_TIMEOUT, "proc-map-timeout", OPT_OUTPUT_MGMT, 1, "ms",
	  "give up reading one process's maps after this long (default 500)",
	  .group = OPT_GROUP_SIDEBAND },
	FLAG(0, "no-bpf-event", no_bpf_event, SIDEBAND, "do not record BPF program loads (no BPF side-band)"),
	FLAG(0, "no-keep-names", no_keep_names, BUILDID,
	     "do not keep JIT code's names and mapped binaries for after the process is gone"),
	{ 0, OUTPUT_OPT_NAMES_CACHE_MAX, "names-cache-max", OPT_OUTPUT_MGMT, 1, "size",
	  "cap prec's JIT ELFs in the build-id cache, the oldest pruned (B/K/M/G; default 512M, 0 no cap)",
	  .group = OPT_GROUP_BUILDID },
	FLAG(0, "kcore", kcore, BUILDID, "copy /proc/kcore's kernel text into a perf.data directory"),
	STRING_C(0, "vmlinux", vmlinux, BUILDID, "file", "vmlinux pathname (its build-id cached)",
		 "@file"),
	{ 0, OUTPUT_OPT_DEBUGINFOD, "debuginfod", OPT_OUTPUT_MGMT, 2, "urls",
	  "fetch hit DSOs' debug info from $DEBUGINFOD_URLS or these URLs into the build-id cache",
	  .group = OPT_GROUP_BUILDID },
};

#undef FLAG
#undef STRING
#undef STRING_C

const size_t opt_table_nr = sizeof(opt_table) / sizeof(opt_table[0]);

const struct opt_def *opt__find_short(char c)
{
	for (size_t i = 0; i < opt_table_nr; i++)
		if (opt_table[i].short_name == c)
			return &opt_table[i];
	return NULL;
}

/*
 * An exact long name, or (as perf's parser) a prefix of exactly one.
 * *ambiguous is set when a prefix fits several.
 */
const struct opt_def *opt__find_long(const char *name, size_t len, bool *ambiguous)
{
	const struct opt_def *found = NULL;

	*ambiguous = false;
	for (size_t i = 0; i < opt_table_nr; i++) {
		const char *l = opt_table[i].long_name;

		if (!l || strncmp(l, name, len))
			continue;
		if (strlen(l) == len)
			return &opt_table[i];
		if (found)
			*ambiguous = true;
		found = &opt_table[i];
	}
	if (!len || *ambiguous)
		return NULL;
	return found;
}

void opt__label(const struct opt_def *o, char *buf, size_t len)
{
	if (o->short_name && o->long_name)
		snprintf(buf, len, "-%c/--%s", o->short_name, o->long_name);
	else if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
}
