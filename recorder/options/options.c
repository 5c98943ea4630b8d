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
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "prec/clock.h"
#include "options/options.h"
#include "options/callchain.h"
#include "options/options_output.h"
#include "options/regs.h"
#include "options/options_int.h"
#include "options/perfconfig.h"

/* The one line for a value the option does not take; -EINVAL. */
static int bad_value(struct prec_err *e, const char *label, const char *arg, const char *hint)
{
	return prec_err__set(e, -EINVAL, "invalid %s value '%s' (%s)", label, arg, hint);
}

/* --off-cpu-thresh MS: whole milliseconds, kept as nanoseconds. */
static int parse_off_cpu_thresh(struct record_opts *opts, const char *arg, const char *label,
				struct prec_err *e)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!*arg || *end || errno || *arg == '-' || v > UINT64_MAX / 1000000)
		return bad_value(e, label, arg,
				 "give whole milliseconds, e.g. --off-cpu-thresh 100");
	opts->off_cpu_thresh_ns = v * 1000000;
	opts->off_cpu_thresh_set = true;
	return 0;
}

/* -e, and the --filter / --exclude-perf that apply to the -e before them. */
static int opt__append(struct record_opts *opts, const struct opt_def *o, const char *arg,
		       const char *label, struct prec_err *e)
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
	if (!opts->nr_events)
		return prec_err__set(e, -EINVAL, "%s should follow a -e tracepoint option", label);
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
			       const char *label, struct prec_err *e)
{
	switch (o->id) {
	case OPT_BRANCH_ANY:
		opts->branch_filter = PERF_SAMPLE_BRANCH_ANY;
		return 0;
	case OPT_BRANCH_FILTER:
		return branch_filter__parse(arg, &opts->branch_filter, e);
	case OPT_USER_REGS:
	case OPT_INTR_REGS: {
		uint64_t *mask = o->id == OPT_USER_REGS ? &opts->user_regs : &opts->intr_regs;

		if (!arg) {
			*mask = regs__default_mask();
			if (!*mask)
				return prec_err__set(
					e, -EINVAL,
					"%s: register sampling is not supported on this architecture yet",
					label);
			return 0;
		}
		return regs__parse(arg, mask, e) ? -EINVAL : 0;
	}
	case OPT_CALLGRAPH_FP:
		/* perf: -g keeps a mode --call-graph chose, else perf's configured
		 * call-graph.record-mode, else fp. */
		if (opts->callchain_mode == CALLCHAIN_NONE) {
			opts->callchain_mode = opts->callchain_default ? opts->callchain_default :
									 CALLCHAIN_FP;
			opts->callchain_dump = opts->callchain_default_dump ?
						       opts->callchain_default_dump :
						       CALLCHAIN_DEFAULT_DUMP;
		}
		return 0;
	case OPT_CALLGRAPH: {
		struct callchain_param p = { 0 };

		if (callchain__parse(arg, &p, e))
			return -EINVAL;
		opts->callchain_mode = (int)p.mode;
		opts->callchain_dump = p.dump_size;
		if (p.has_max_stack)
			opts->callchain_max_stack = p.max_stack;
		if (p.mode == CALLCHAIN_DWARF)
			opts->callchain_sample_addr = true;
		return 0;
	}
	case OPT_UNWIND:
		if (strcmp(arg, "record") && strcmp(arg, "report"))
			return prec_err__set(e, -EINVAL,
					     "unknown --unwind value '%s' (use record or report)",
					     arg);
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
			    const char *label, struct prec_err *e)
{
	uint64_t v = 1;

	switch (o->id) {
	case OPT_REALTIME:
		/* 0 is perf's "not set". */
		if (output_opts__size_plain(arg, &v) || v > 99)
			return bad_value(e, label, arg, "give a SCHED_FIFO priority from 1 to 99");
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
			return bad_value(
				e, label, arg,
				"use node or cpu; sys, the default, leaves it to the scheduler");
		return 0;
	case OPT_AIO:
		if (arg && (output_opts__size_plain(arg, &v) || v < 1 || v > PREC_AIO_MAX))
			return bad_value(e, label, arg, "give the writes in flight, 1 to 4");
		opts->nr_cblocks = (int)v;
		opts->aio_from_config = false;
		return 0;
	default:
		return -EINVAL;
	}
}

/* What the rings' data becomes: -z, --threads; and -S/--aux-sample, whose
 * AUX area data would join it (recorder/evlist/aux_area.h judges them). */
static int opt__apply_output(struct record_opts *opts, const struct opt_def *o, const char *arg,
			     const char *label, struct prec_err *e)
{
	uint64_t v = 1;

	switch (o->id) {
	case OPT_COMPRESS:
		if (arg && (output_opts__size_plain(arg, &v) || v < 1 || v > 22))
			return bad_value(e, label, arg, "give a zstd level from 1 to 22");
		opts->comp_level = (int)v;
		return 0;
	case OPT_THREADS:
		/* The spec is read against the machine's topology later. */
		opts->threads = true;
		opts->threads_spec = arg ? arg : "";
		return 0;
	case OPT_AUX:
		if (o->short_name == 'S') {
			opts->aux_snapshot = true;
			opts->aux_snapshot_opts = arg;
		} else {
			opts->aux_sample = true;
			opts->aux_sample_opts = arg;
		}
		return 0;
	default:
		return -EINVAL;
	}
}

static int opt__apply(struct record_opts *opts, const struct opt_def *o, const char *arg,
		      struct prec_err *e)
{
	char label[48];
	int ret;

	opt__label(o, label, sizeof(label));
	switch (o->id) {
	case OPT_OUTPUT:
		if (!*arg)
			return prec_err__set(e, -EINVAL, "empty %s file name", label);
		opts->output = arg;
		return 0;
	case OPT_EVENT:
	case OPT_FILTER:
	case OPT_EXCLUDE_PERF:
		return opt__append(opts, o, arg, label, e);
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
			return bad_value(e, label, arg, "give a frequency in Hz above 0, or 'max'");
		opts->freq_max = false;
		return 0;
	case OPT_COUNT:
		ret = output_opts__size_plain(arg, &opts->period);
		if (ret || opts->period == 0 || opts->period > INT64_MAX)
			return bad_value(
				e, label, arg,
				"give a sample period from 1 to 9223372036854775807, the largest the kernel takes");
		return 0;
	case OPT_MMAP_PAGES:
		return output_opts__mmap_pages(arg, &opts->mmap_bytes, e);
	case OPT_VERBOSE:
		opts->verbose++;
		return 0;
	case OPT_CLOCKID:
		if (clockid__parse(arg, &opts->clockid))
			return prec_err__set(
				e, -EINVAL,
				"unknown clockid '%s' (use monotonic, monotonic_raw, realtime, boottime, tai, or a number)",
				arg);
		opts->use_clockid = true;
		return 0;
	case OPT_UID:
		if (!*arg)
			return prec_err__set(e, -EINVAL,
					     "empty -u/--uid value (give a user name or uid)");
		opts->uid_str = arg;
		return 0;
	case OPT_CGROUP:
		/* perf skips an empty name (that event is not filtered) or refuses
		 * it ("must define events before cgroups" without -e); an empty
		 * variable must not silently widen -G to every cgroup. */
		if (!*arg)
			return prec_err__set(
				e, -EINVAL,
				"empty -G/--cgroup name (give a cgroup path relative to the cgroup2 mount, e.g. -G system.slice; leave -G out to record all cgroups)");
		opts->cgroup = arg;
		return 0;
	case OPT_DELAY: {
		char *end;
		long v;

		errno = 0;
		v = strtol(arg, &end, 10);
		if (!*arg || *end || errno || v < -1)
			return bad_value(e, label, arg,
					 "give milliseconds, or -1 to start disabled");
		opts->delay_ms = v;
		return 0;
	}
	case OPT_OFF_CPU_THRESH:
		return parse_off_cpu_thresh(opts, arg, label, e);
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
		return opt__apply_sampling(opts, o, arg, label, e);
	case OPT_COMPRESS:
	case OPT_THREADS:
	case OPT_AUX:
		return opt__apply_output(opts, o, arg, label, e);
	case OPT_REALTIME:
	case OPT_AFFINITY:
	case OPT_AIO:
		return opt__apply_drain(opts, o, arg, label, e);
	case OPT_OUTPUT_MGMT:
		/* The synthesis options have their own file (options_synth.c). */
		if (o->flag_off == OUTPUT_OPT_SYNTH || o->flag_off == OUTPUT_OPT_SYNTH_THREADS ||
		    o->flag_off == OUTPUT_OPT_PROC_MAP_TIMEOUT)
			return output_opts__apply_synth((enum output_opt)o->flag_off, arg, opts, e);
		return output_opts__apply((enum output_opt)o->flag_off, arg, opts, e);
	}
	return -EINVAL;
}

static int parse_long(struct record_opts *opts, int argc, char **argv, int *i, struct prec_err *e)
{
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	bool ambiguous;
	const struct opt_def *o = opt__find_long(name, len, &ambiguous);
	const char *arg = NULL;

	if (ambiguous)
		return prec_err__set(e, -EINVAL,
				     "ambiguous option '--%.*s' (spell it out; see 'prec --help')",
				     (int)len, name);
	if (!o)
		return prec_err__set(e, -EINVAL, "unknown option '--%.*s' (see 'prec --help')",
				     (int)len, name);
	if (o->has_arg == 0 && eq)
		return prec_err__set(e, -EINVAL, "option '--%s' takes no value", o->long_name);
	if (o->has_arg == 2 && eq)
		arg = eq + 1;
	if (o->has_arg == 1) {
		if (eq) {
			arg = eq + 1;
		} else if (*i + 1 < argc) {
			arg = argv[++*i];
		} else {
			return prec_err__set(e, -EINVAL, "option '--%s' needs a value (%s)",
					     o->long_name, o->arg_name);
		}
	}
	return opt__apply(opts, o, arg, e);
}

/* A cluster like "-qv", "-F1000" or "-o" "file". */
static int parse_short(struct record_opts *opts, int argc, char **argv, int *i, struct prec_err *e)
{
	const char *p = argv[*i] + 1;

	for (; *p; p++) {
		const struct opt_def *o = opt__find_short(*p);
		const char *arg = NULL;

		if (!o)
			return prec_err__set(e, -EINVAL, "unknown option '-%c' (see 'prec --help')",
					     *p);
		if (o->id == OPT_AUX) /* -S or -Sopts, as perf's optional value */
			return opt__apply(opts, o, p[1] ? p + 1 : NULL, e);
		if (o->id == OPT_COMPRESS) {
			/* -z, -z3, or -z 3: digits after -z are its level (perf would
			 * take them as the command; a command named "3" is unlikely). */
			if (p[1])
				arg = p + 1;
			else if (*i + 1 < argc && argv[*i + 1][0] >= '0' && argv[*i + 1][0] <= '9')
				arg = argv[++*i];
			return opt__apply(opts, o, arg, e);
		}
		if (o->has_arg == 1) {
			if (p[1]) {
				arg = p + 1;
			} else if (*i + 1 < argc) {
				arg = argv[++*i];
			} else {
				return prec_err__set(e, -EINVAL, "option '-%c' needs a value (%s)",
						     *p, o->arg_name);
			}
			return opt__apply(opts, o, arg, e);
		}
		int ret = opt__apply(opts, o, NULL, e);

		if (ret)
			return ret;
	}
	return 0;
}

int options__parse(struct record_opts *opts, int argc, char **argv, struct prec_err *e)
{
	return options__parse_with(opts, NULL, argc, argv, e);
}

int options__parse_with(struct record_opts *opts, const struct perfconfig *cfg, int argc,
			char **argv, struct prec_err *e)
{
	int i = 1;
	int ret;

	memset(opts, 0, sizeof(*opts));
	if (cfg) /* perf's configuration first: the command line wins */
		perfconfig__apply(cfg, opts);
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
			ret = parse_long(opts, argc, argv, &i, e);
		else
			ret = parse_short(opts, argc, argv, &i, e);
		if (ret)
			goto fail;
		/* As perf's -h: the words after it name the options to show. */
		if (opts->help) {
			i++;
			break;
		}
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

