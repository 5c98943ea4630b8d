// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command line -> struct record_opts. Table-driven, perf record's option names
 * and meanings; never prints, never exits: errors come back as one line.
 */
#include <errno.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "prec/clock.h"
#include "prec/options.h"
#include "callchain.h"
#include "output_opts.h"
#include "unwind/regs.h"

enum opt_id {
	OPT_OUTPUT,
	OPT_EVENT,
	OPT_FREQ,
	OPT_COUNT,
	OPT_MMAP_PAGES,
	OPT_VERBOSE,
	OPT_CLOCKID,
	OPT_UID,
	OPT_CGROUP,
	OPT_DELAY,
	OPT_FLAG, /* a bool of record_opts, found by offset */
	OPT_STRING, /* a const char * of record_opts, found by offset */
	OPT_BRANCH_ANY,
	OPT_BRANCH_FILTER,
	OPT_USER_REGS,
	OPT_INTR_REGS,
	OPT_FILTER,
	OPT_EXCLUDE_PERF,
	OPT_COMPRESS,
	OPT_THREADS,
	OPT_CALLGRAPH_FP,
	OPT_CALLGRAPH,
	OPT_UNWIND,
	OPT_REALTIME,
	OPT_AFFINITY,
	OPT_AIO,
	OPT_OUTPUT_MGMT, /* output_opts.c; flag_off holds its enum output_opt */
	OPT_AUX, /* -S, --aux-sample (recorder/aux_area.h) */
	OPT_LATER, /* a perf record option a later version of prec adds */
};

struct opt_def {
	char short_name; /* 0 when none */
	size_t flag_off; /* OPT_FLAG, OPT_STRING: offsetof(struct record_opts, the field) */
	const char *long_name;
	enum opt_id id;
	int has_arg; /* 0 none, 1 required, 2 optional (only as --opt=val) */
	const char *arg_name;
	const char *help;
};

/* A bool of record_opts set by the option; a string it points at argv. */
#define FLAG(c, name, field, help) { c, offsetof(struct record_opts, field), name, OPT_FLAG, 0, NULL, help }
#define STRING(c, name, field, arg, help) \
	{ c, offsetof(struct record_opts, field), name, OPT_STRING, 1, arg, help }

static const struct opt_def opt_table[] = {
	{ 'o', 0, "output", OPT_OUTPUT, 1, "file", "output file name (default perf.data)" },
	{ 'e', 0, "event", OPT_EVENT, 1, "event", "event selector (repeatable, comma lists)" },
	{ 'F', 0, "freq", OPT_FREQ, 1, "freq|max", "profile at this frequency (default 4000)" },
	{ 'c', 0, "count", OPT_COUNT, 1, "n", "event period to sample" },
	{ 'm', 0, "mmap-pages", OPT_MMAP_PAGES, 1, "pages|size",
	  "ring buffer data pages per CPU (power of two) or a size with B/K/M/G" },
	FLAG('q', "quiet", quiet, "don't print any message but errors"),
	{ 'v', 0, "verbose", OPT_VERBOSE, 0, NULL, "be more verbose (repeat for more)" },
	FLAG('h', "help", help, "show this help"),
	FLAG(0, "version", version, "show the version"),
	{ 'k', 0, "clockid", OPT_CLOCKID, 1, "clockid",
	  "clock for sample times: monotonic, monotonic_raw, realtime, boottime, tai, or a number" },

	FLAG('a', "all-cpus", system_wide, "system-wide collection from all CPUs"),
	STRING('C', "cpu", cpu_list, "cpu", "list of CPUs to monitor (e.g. 0-2,5)"),
	STRING('p', "pid", pid_list, "pid", "record events on existing process ids (comma list)"),
	STRING('t', "tid", tid_list, "tid", "record events on existing thread ids (comma list)"),
	{ 'u', 0, "uid", OPT_UID, 1, "user", "record events in threads owned by this user" },
	FLAG(0, "per-thread", per_thread, "use per-thread rings (events on any CPU)"),
	FLAG('i', "no-inherit", no_inherit, "child tasks do not inherit counters"),
	{ 'G', 0, "cgroup", OPT_CGROUP, 1, "name", "monitor only this cgroup (with -a or -C)" },
	{ 'D', 0, "delay", OPT_DELAY, 1, "msecs", "start sampling after this delay (-1: disabled)" },

	FLAG('T', "timestamp", sample_time, "record the sample time (always on, as in perf record)"),
	FLAG('P', "period", sample_period, "record the sample period"),
	FLAG('d', "data", sample_addr, "record the sample addresses"),
	FLAG(0, "sample-cpu", sample_cpu, "record the sample cpu"),
	FLAG('R', "raw-samples", raw_samples, "collect raw sample records from all opened counters"),
	FLAG('W', "weight", sample_weight, "enable weighted sampling"),
	FLAG(0, "phys-data", phys_data, "record the sample physical addresses"),
	FLAG(0, "data-page-size", data_page_size, "record the sampled data address data page size"),
	FLAG(0, "code-page-size", code_page_size, "record the sampled code address page size"),
	FLAG('s', "stat", inherit_stat, "per thread counts"),
	FLAG('n', "no-samples", no_samples, "don't sample"),
	FLAG(0, "switch-events", switch_events, "record context switch events"),
	FLAG(0, "sample-identifier", sample_identifier, "record the sample identifier"),
	FLAG(0, "namespaces", namespaces, "record namespaces events"),
	FLAG(0, "all-cgroups", all_cgroups, "record cgroup events"),
	FLAG(0, "user-callchains", user_callchains, "only record the user part of call chains"),
	FLAG(0, "kernel-callchains", kernel_callchains, "only record the kernel part of call chains"),
	FLAG(0, "all-user", all_user, "configure all used events to run in user space"),
	FLAG(0, "all-kernel", all_kernel, "configure all used events to run in kernel space"),
	{ 'z', 0, "compression-level", OPT_COMPRESS, 2, "n",
	  "compress the ring data with zstd at level n (1..22, default 1)" },
	{ 'g', 0, NULL, OPT_CALLGRAPH_FP, 0, NULL, "enables call-graph recording (frame pointers)" },
	{ 0, 0, "call-graph", OPT_CALLGRAPH, 1, "mode", "fp, dwarf[,size] or lbr" },
	{ 0, 0, "unwind", OPT_UNWIND, 1, "when",
	  "with --call-graph dwarf: 'record' unwinds user stacks while recording (small files), 'report' leaves it to perf report" },
	{ 'b', 0, "branch-any", OPT_BRANCH_ANY, 0, NULL, "sample any taken branches" },
	{ 'j', 0, "branch-filter", OPT_BRANCH_FILTER, 1, "filter", "branch stack filter modes" },
	{ 0, 0, "user-regs", OPT_USER_REGS, 2, "regs", "sample user registers (=ax,bx,... or all)" },
	{ 'I', 0, "intr-regs", OPT_INTR_REGS, 2, "regs", "sample registers at interrupt (=ax,bx,... or all)" },
	FLAG(0, "list-events", list_events, "list the events this machine supports (also 'prec list')"),
	{ 0, 0, "filter", OPT_FILTER, 1, "filter", "event filter for the tracepoint -e before it" },
	{ 0, 0, "exclude-perf", OPT_EXCLUDE_PERF, 0, NULL, "don't record prec's own events (tracepoints before it)" },
	/* Build-id and output options; the OPT_LATER ones (perf record options not
	 * implemented) are refused, never ignored. */
	{ 'B', offsetof(struct record_opts, no_buildid), "no-buildid", OPT_FLAG, 0, NULL,
	  "do not collect build-ids (no HEADER_BUILD_ID, no build-id cache)" },
	{ 'N', offsetof(struct record_opts, no_buildid_cache), "no-buildid-cache", OPT_FLAG, 0,
	  NULL, "do not update the build-id cache (~/.debug)" },
	{ 'S', 0, "snapshot", OPT_AUX, 2, "opts",
	  "AUX area tracing snapshot mode (needs an AUX area event such as intel_pt//)" },
	{ 0, 0, "aux-sample", OPT_AUX, 2, "opts",
	  "sample AUX area data (needs an AUX area event in the group)" },
	FLAG(0, "off-cpu", off_cpu, "off-CPU analysis (needs perf's BPF program; refused with the alternative)"),
	STRING(0, "clang-path", clang_path, "clang path",
	       "clang binary to compile BPF scriptlets (-e FILE.c) with"),
	STRING(0, "clang-opt", clang_opt, "clang options",
	       "options passed to clang when compiling BPF scriptlets"),
	{ 'r', 0, "realtime", OPT_REALTIME, 1, "prio",
	  "drain with this SCHED_FIFO priority (1..99)" },
	{ 0, OUTPUT_OPT_MMAP_FLUSH, "mmap-flush", OPT_OUTPUT_MGMT, 1, "size",
	  "drain a ring only when it holds this much (B/K/M/G; default 1 byte)" },
	{ 0, OUTPUT_OPT_SWITCH, "switch-output", OPT_OUTPUT_MGMT, 2, "signal|size|time",
	  "rotate the output on SIGUSR2, at a size (100M) or a period (30s, 5m)" },
	{ 0, OUTPUT_OPT_MAX_FILES, "switch-max-files", OPT_OUTPUT_MGMT, 1, "n",
	  "keep at most n rotated files (the oldest go)" },
	{ 0, offsetof(struct record_opts, timestamp_filename), "timestamp-filename", OPT_FLAG, 0,
	  NULL, "append a timestamp to the output file name" },
	{ 0, OUTPUT_OPT_MAX_SIZE, "max-size", OPT_OUTPUT_MGMT, 1, "size",
	  "stop recording when the output reaches this size (B/K/M/G)" },
	{ 0, offsetof(struct record_opts, overwrite), "overwrite", OPT_FLAG, 0, NULL,
	  "flight recorder: overwritable rings, written at the end and on SIGUSR2" },
	{ 0, offsetof(struct record_opts, tail_synthesize), "tail-synthesize", OPT_FLAG, 0, NULL,
	  "synthesize the side-band at the end of the recording" },
	{ 0, offsetof(struct record_opts, no_buffering), "no-buffering", OPT_FLAG, 0, NULL,
	  "collect data without buffering (a wakeup per record)" },
	{ 0, offsetof(struct record_opts, buildid_all), "buildid-all", OPT_FLAG, 0, NULL,
	  "collect build-ids of every mapped DSO, not only those samples hit" },
	{ 0, offsetof(struct record_opts, buildid_mmap), "buildid-mmap", OPT_FLAG, 0, NULL,
	  "build-ids in MMAP2 records (no HEADER_BUILD_ID, no build-id cache)" },
	FLAG(0, "strict-freq", strict_freq, "fail if the -F frequency cannot be used (no throttling)"),
	FLAG(0, "group", group, "put all the events into one group, as if written {a,b,...}"),
	FLAG(0, "running-time", running_time, "record running/enabled time of read (:S) events"),
	FLAG(0, "transaction", sample_transaction, "sample transaction flags (special events only)"),
	FLAG(0, "timestamp-boundary", timestamp_boundary, "record the time of the first/last samples"),
	FLAG(0, "dry-run", dry_run, "parse and check the options, then exit: record nothing"),
	STRING(0, "switch-output-event", switch_output_event, "event", "rotate the output at each record of this event"),
	{ 0, 0, "aio", OPT_AIO, 2, "n",
	  "write the data with n asynchronous writes in flight (1..4, default 1)" },
	{ 0, 0, "affinity", OPT_AFFINITY, 1, "node|cpu",
	  "while reading a ring, run on its NUMA node (node) or its CPU (cpu)" },
	{ 0, 0, "threads", OPT_THREADS, 2, "spec",
	  "drain in parallel, one thread per stream: cpu, core, package, numa or masks CPUS/AFFINITY[:...]; writes a perf.data directory" },
	STRING(0, "control", control, "fifo:ctl[,ack]|fd:ctl[,ack]",
	       "take enable, disable, snapshot, stop, ping, evlist commands from a FIFO or fd, acked on ack"),
	{ 0, OUTPUT_OPT_SYNTH, "synth", OPT_OUTPUT_MGMT, 1, "no|all|task|mmap|cgroup",
	  "which side-band of existing tasks to synthesize (comma list; default all)" },
	{ 0, OUTPUT_OPT_SYNTH_THREADS, "num-thread-synthesize", OPT_OUTPUT_MGMT, 1, "n",
	  "threads reading /proc beside the recording (default: prec's CPUs, at most 8)" },
	{ 0, OUTPUT_OPT_PROC_MAP_TIMEOUT, "proc-map-timeout", OPT_OUTPUT_MGMT, 1, "ms",
	  "give up reading one process's maps after this long (default 500)" },
	FLAG(0, "no-bpf-event", no_bpf_event, "do not record BPF program loads (no BPF side-band)"),
	FLAG(0, "kcore", kcore, "copy /proc/kcore's kernel text into a perf.data directory"),
	STRING(0, "vmlinux", vmlinux, "file", "vmlinux pathname (its build-id cached)"),
	{ 0, OUTPUT_OPT_DEBUGINFOD, "debuginfod", OPT_OUTPUT_MGMT, 2, "urls",
	  "fetch hit DSOs' debug info from $DEBUGINFOD_URLS or these URLs into the build-id cache" },
};

#undef FLAG
#undef STRING

#define NR_OPTS (sizeof(opt_table) / sizeof(opt_table[0]))

static const struct opt_def *opt__find_short(char c)
{
	for (size_t i = 0; i < NR_OPTS; i++)
		if (opt_table[i].short_name == c)
			return &opt_table[i];
	return NULL;
}

/*
 * An exact long name, or (as perf's parser) a prefix of exactly one.
 * *ambiguous is set when a prefix fits several.
 */
static const struct opt_def *opt__find_long(const char *name, size_t len, bool *ambiguous)
{
	const struct opt_def *found = NULL;

	*ambiguous = false;
	for (size_t i = 0; i < NR_OPTS; i++) {
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

static void opt__label(const struct opt_def *o, char *buf, size_t len)
{
	if (o->short_name && o->long_name)
		snprintf(buf, len, "-%c/--%s", o->short_name, o->long_name);
	else if (o->long_name)
		snprintf(buf, len, "--%s", o->long_name);
	else
		snprintf(buf, len, "-%c", o->short_name);
}

/* The one line for a value the option does not take; -EINVAL. */
static int bad_value(char *err, size_t errlen, const char *label, const char *arg,
		     const char *hint)
{
	snprintf(err, errlen, "invalid %s value '%s' (%s)", label, arg, hint);
	return -EINVAL;
}

/* -e, and the --filter / --exclude-perf that apply to the -e before them. */
static int opt__append(struct record_opts *opts, const struct opt_def *o, const char *arg,
		       const char *label, char *err, size_t errlen)
{
	struct record_filter *f;
	char **ev;

	if (o->id == OPT_EVENT) {
		ev = realloc(opts->events, (opts->nr_events + 1) * sizeof(*ev));
		if (!ev)
			return -ENOMEM;
		opts->events = ev;
		opts->events[opts->nr_events++] = (char *)arg;
		return 0;
	}
	if (!opts->nr_events) {
		snprintf(err, errlen, "%s should follow a -e tracepoint option", label);
		return -EINVAL;
	}
	f = realloc(opts->filters, (opts->nr_filters + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	opts->filters = f;
	f[opts->nr_filters].after_events = opts->nr_events;
	f[opts->nr_filters].filter = o->id == OPT_FILTER ? arg : NULL;
	opts->nr_filters++;
	return 0;
}

/* The options that shape what a sample holds: branches, registers, call graphs. */
static int opt__apply_sampling(struct record_opts *opts, const struct opt_def *o, const char *arg,
			       const char *label, char *err, size_t errlen)
{
	switch (o->id) {
	case OPT_BRANCH_ANY:
		opts->branch_filter = PERF_SAMPLE_BRANCH_ANY;
		return 0;
	case OPT_BRANCH_FILTER:
		return branch_filter__parse(arg, &opts->branch_filter, err, errlen);
	case OPT_USER_REGS:
	case OPT_INTR_REGS: {
		uint64_t *mask = o->id == OPT_USER_REGS ? &opts->user_regs : &opts->intr_regs;

		if (!arg) {
			*mask = regs__default_mask();
			if (!*mask) {
				snprintf(err, errlen, "%s: register sampling is not supported on this architecture yet",
					 label);
				return -EINVAL;
			}
			return 0;
		}
		return regs__parse(arg, mask, err, errlen) ? -EINVAL : 0;
	}
	case OPT_CALLGRAPH_FP:
		opts->callchain_mode = CALLCHAIN_FP;
		opts->callchain_dump = CALLCHAIN_DEFAULT_DUMP;
		return 0;
	case OPT_CALLGRAPH: {
		struct callchain_param p = { 0 };

		if (callchain__parse(arg, &p, err, errlen))
			return -EINVAL;
		opts->callchain_mode = (int)p.mode;
		opts->callchain_dump = p.dump_size;
		return 0;
	}
	case OPT_UNWIND:
		if (strcmp(arg, "record") && strcmp(arg, "report")) {
			snprintf(err, errlen, "unknown --unwind value '%s' (use record or report)", arg);
			return -EINVAL;
		}
		opts->unwind_record = !strcmp(arg, "record");
		return 0;
	default:
		return -EINVAL;
	}
}

/* How the drain runs: -r, --affinity, --aio. Each value on its own; perf
 * takes -r 100 and fails later, and silently turns --aio=abc into 1,
 * --aio=5 into 4 and --affinity=x into the default: here each is refused. */
static int opt__apply_drain(struct record_opts *opts, const struct opt_def *o, const char *arg,
			    const char *label, char *err, size_t errlen)
{
	uint64_t v = 1;

	switch (o->id) {
	case OPT_REALTIME:
		/* 0 is perf's "not set". */
		if (output_opts__size_plain(arg, &v) || v > 99)
			return bad_value(err, errlen, label, arg,
					 "give a SCHED_FIFO priority from 1 to 99");
		opts->realtime_prio = (int)v;
		return 0;
	case OPT_AFFINITY:
		if (!strcmp(arg, "node"))
			opts->affinity = RECORD_AFFINITY_NODE;
		else if (!strcmp(arg, "cpu"))
			opts->affinity = RECORD_AFFINITY_CPU;
		else if (!strcmp(arg, "sys"))
			opts->affinity = RECORD_AFFINITY_SYS;
		else
			return bad_value(err, errlen, label, arg,
					 "use node or cpu; sys, the default, leaves it to the scheduler");
		return 0;
	case OPT_AIO:
		if (arg && (output_opts__size_plain(arg, &v) || v < 1 || v > PREC_AIO_MAX))
			return bad_value(err, errlen, label, arg,
					 "give the writes in flight, 1 to 4");
		opts->nr_cblocks = (int)v;
		return 0;
	default:
		return -EINVAL;
	}
}

static int opt__apply(struct record_opts *opts, const struct opt_def *o, const char *arg,
		      char *err, size_t errlen)
{
	char label[48];
	int ret;

	opt__label(o, label, sizeof(label));
	switch (o->id) {
	case OPT_OUTPUT:
		if (!*arg) {
			snprintf(err, errlen, "empty %s file name", label);
			return -EINVAL;
		}
		opts->output = arg;
		return 0;
	case OPT_EVENT:
	case OPT_FILTER:
	case OPT_EXCLUDE_PERF:
		return opt__append(opts, o, arg, label, err, errlen);
	case OPT_FREQ:
		opts->user_freq = true;
		/* perf 6.1 compares with strcasecmp: MAX and Max are 'max' too. */
		if (!strcasecmp(arg, "max")) {
			opts->freq_max = true;
			opts->freq = 0;
			return 0;
		}
		ret = output_opts__size_plain(arg, &opts->freq);
		if (ret || opts->freq == 0)
			return bad_value(err, errlen, label, arg,
					 "give a frequency in Hz above 0, or 'max'");
		opts->freq_max = false;
		return 0;
	case OPT_COUNT:
		ret = output_opts__size_plain(arg, &opts->period);
		if (ret || opts->period == 0)
			return bad_value(err, errlen, label, arg, "give a sample period above 0");
		return 0;
	case OPT_MMAP_PAGES:
		return output_opts__mmap_pages(arg, &opts->mmap_bytes, err, errlen);
	case OPT_VERBOSE:
		opts->verbose++;
		return 0;
	case OPT_CLOCKID:
		if (clockid__parse(arg, &opts->clockid)) {
			snprintf(err, errlen,
				 "unknown clockid '%s' (use monotonic, monotonic_raw, realtime, boottime, tai, or a number)",
				 arg);
			return -EINVAL;
		}
		opts->use_clockid = true;
		return 0;
	case OPT_UID:
		if (!*arg) {
			snprintf(err, errlen, "empty -u/--uid value (give a user name or uid)");
			return -EINVAL;
		}
		opts->uid_str = arg;
		return 0;
	case OPT_CGROUP:
		/* perf skips an empty name (that event is not filtered) or refuses
		 * it ("must define events before cgroups" without -e); an empty
		 * variable must not silently widen -G to every cgroup. */
		if (!*arg) {
			snprintf(err, errlen,
				 "empty -G/--cgroup name (give a cgroup path relative to the cgroup2 mount, e.g. -G system.slice; leave -G out to record all cgroups)");
			return -EINVAL;
		}
		opts->cgroup = arg;
		return 0;
	case OPT_DELAY: {
		char *end;
		long v;

		errno = 0;
		v = strtol(arg, &end, 10);
		if (!*arg || *end || errno || v < -1)
			return bad_value(err, errlen, label, arg,
					 "give milliseconds, or -1 to start disabled");
		opts->delay_ms = v;
		return 0;
	}
	case OPT_FLAG:
		*(bool *)((char *)opts + o->flag_off) = true;
		return 0;
	case OPT_STRING:
		*(const char **)((char *)opts + o->flag_off) = arg;
		return 0;
	case OPT_BRANCH_ANY:
	case OPT_BRANCH_FILTER:
	case OPT_USER_REGS:
	case OPT_INTR_REGS:
	case OPT_CALLGRAPH_FP:
	case OPT_CALLGRAPH:
	case OPT_UNWIND:
		return opt__apply_sampling(opts, o, arg, label, err, errlen);
	case OPT_COMPRESS: {
		uint64_t v = 1;

		if (arg && (output_opts__size_plain(arg, &v) || v < 1 || v > 22))
			return bad_value(err, errlen, label, arg, "give a zstd level from 1 to 22");
		opts->comp_level = (int)v;
		return 0;
	}
	case OPT_THREADS:
		/* The spec is read against the machine's topology later. */
		opts->threads = true;
		opts->threads_spec = arg ? arg : "";
		return 0;
	case OPT_REALTIME:
	case OPT_AFFINITY:
	case OPT_AIO:
		return opt__apply_drain(opts, o, arg, label, err, errlen);
	case OPT_OUTPUT_MGMT:
		return output_opts__apply((enum output_opt)o->flag_off, arg, opts, err, errlen);
	case OPT_AUX:
		if (o->short_name == 'S') {
			opts->aux_snapshot = true;
			opts->aux_snapshot_opts = arg;
		} else {
			opts->aux_sample = true;
			opts->aux_sample_opts = arg;
		}
		return 0;
	case OPT_LATER:
		snprintf(err, errlen, "option %s is not supported yet", label);
		return -EINVAL;
	}
	return -EINVAL;
}

static int parse_long(struct record_opts *opts, int argc, char **argv, int *i, char *err,
		      size_t errlen)
{
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	bool ambiguous;
	const struct opt_def *o = opt__find_long(name, len, &ambiguous);
	const char *arg = NULL;

	if (ambiguous) {
		snprintf(err, errlen, "ambiguous option '--%.*s' (spell it out; see 'prec --help')",
			 (int)len, name);
		return -EINVAL;
	}
	if (!o) {
		snprintf(err, errlen, "unknown option '--%.*s' (see 'prec --help')", (int)len, name);
		return -EINVAL;
	}
	if (o->id == OPT_LATER)
		return opt__apply(opts, o, NULL, err, errlen);
	if (o->has_arg == 0 && eq) {
		snprintf(err, errlen, "option '--%s' takes no value", o->long_name);
		return -EINVAL;
	}
	if (o->has_arg == 2 && eq)
		arg = eq + 1;
	if (o->has_arg == 1) {
		if (eq) {
			arg = eq + 1;
		} else if (*i + 1 < argc) {
			arg = argv[++*i];
		} else {
			snprintf(err, errlen, "option '--%s' needs a value (%s)", o->long_name,
				 o->arg_name);
			return -EINVAL;
		}
	}
	return opt__apply(opts, o, arg, err, errlen);
}

/* A cluster like "-qv", "-F1000" or "-o" "file". */
static int parse_short(struct record_opts *opts, int argc, char **argv, int *i, char *err,
		       size_t errlen)
{
	const char *p = argv[*i] + 1;

	for (; *p; p++) {
		const struct opt_def *o = opt__find_short(*p);
		const char *arg = NULL;

		if (!o) {
			snprintf(err, errlen, "unknown option '-%c' (see 'prec --help')", *p);
			return -EINVAL;
		}
		if (o->id == OPT_AUX) /* -S or -Sopts, as perf's optional value */
			return opt__apply(opts, o, p[1] ? p + 1 : NULL, err, errlen);
		if (o->id == OPT_COMPRESS) {
			/* -z, -z3, or -z 3: digits after -z are its level (perf would
			 * take them as the command; a command named "3" is unlikely). */
			if (p[1])
				arg = p + 1;
			else if (*i + 1 < argc && argv[*i + 1][0] >= '0' && argv[*i + 1][0] <= '9')
				arg = argv[++*i];
			return opt__apply(opts, o, arg, err, errlen);
		}
		if (o->id != OPT_LATER && o->has_arg == 1) {
			if (p[1]) {
				arg = p + 1;
			} else if (*i + 1 < argc) {
				arg = argv[++*i];
			} else {
				snprintf(err, errlen, "option '-%c' needs a value (%s)", *p,
					 o->arg_name);
				return -EINVAL;
			}
			return opt__apply(opts, o, arg, err, errlen);
		}
		int ret = opt__apply(opts, o, NULL, err, errlen);

		if (ret)
			return ret;
	}
	return 0;
}

int options__parse(struct record_opts *opts, int argc, char **argv, char *err, size_t errlen)
{
	int i = 1;
	int ret;

	memset(opts, 0, sizeof(*opts));
	err[0] = '\0';
	/* "perf record ..." becomes "prec record ..." or "prec ...". */
	if (i < argc && !strcmp(argv[i], "record"))
		i++;
	else if (i < argc && !strcmp(argv[i], "list")) {
		/* "perf list" becomes "prec list". */
		opts->list_events = true;
		return 0;
	}
	for (; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || a[1] == '\0')
			break; /* the command starts here: its options are its own */
		if (a[1] == '-')
			ret = parse_long(opts, argc, argv, &i, err, errlen);
		else
			ret = parse_short(opts, argc, argv, &i, err, errlen);
		if (ret)
			goto fail;
	}
	if (i < argc) {
		opts->argc = argc - i;
		opts->argv = argv + i;
	}
	return 0;
fail:
	options__exit(opts);
	return ret;
}

void options__exit(struct record_opts *opts)
{
	free(opts->events);
	free(opts->filters);
	opts->events = NULL;
	opts->filters = NULL;
	opts->nr_events = opts->nr_filters = 0;
}

void options__usage(void)
{
	printf("\n Usage: prec [record] [<options>] [--] <command> [<args>]\n\n");
	for (size_t i = 0; i < NR_OPTS; i++) {
		const struct opt_def *o = &opt_table[i];
		char left[64];

		if (o->id == OPT_LATER)
			continue;
		if (o->short_name && o->long_name)
			snprintf(left, sizeof(left), "-%c, --%s%s%s%s", o->short_name,
				 o->long_name, o->arg_name ? " <" : "", o->arg_name ? o->arg_name : "",
				 o->arg_name ? ">" : "");
		else if (o->long_name)
			snprintf(left, sizeof(left), "    --%s%s%s%s", o->long_name,
				 o->arg_name ? " <" : "", o->arg_name ? o->arg_name : "",
				 o->arg_name ? ">" : "");
		else
			snprintf(left, sizeof(left), "-%c", o->short_name);
		printf("    %-30s %s\n", left, o->help);
	}
	printf("\n Options of perf record not listed here are refused with 'not supported yet'.\n");
}
