/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_OPTIONS_INT_H
#define PREC_RECORDER_OPTIONS_INT_H
/*
 * The option table shared by the parser (options.c), its listing
 * (options_help.c) and the generated man page and completion (doc/): one row
 * per perf record option prec takes.
 */
#include <stdbool.h>
#include <stddef.h>

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
	OPT_OFF_CPU_THRESH,
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
	OPT_AUX, /* -S, --aux-sample (recorder/evlist/aux_area.h) */
};

/* The sections of --help and of the man page's OPTIONS, in their order. */
enum opt_group {
	OPT_GROUP_NONE, /* no row may have it: the doc test fails on one */
	OPT_GROUP_EVENTS,
	OPT_GROUP_TARGET,
	OPT_GROUP_SAMPLING,
	OPT_GROUP_CALLGRAPH,
	OPT_GROUP_SIDEBAND,
	OPT_GROUP_BUILDID,
	OPT_GROUP_OUTPUT,
	OPT_GROUP_AUX,
	OPT_GROUP_CONTROL,
	OPT_GROUP_PERF,
	OPT_GROUP_GENERAL,
	OPT_GROUP_NR,
};

struct opt_def {
	char short_name; /* 0 when none */
	size_t flag_off; /* OPT_FLAG, OPT_STRING: offsetof(struct record_opts, the field) */
	const char *long_name;
	enum opt_id id;
	int has_arg; /* 0 none, 1 required, 2 optional (only as --opt=val) */
	const char *arg_name;
	const char *help;
	enum opt_group group;
	/*
	 * How the shell completes the value: the words the parser accepts when
	 * the set is fixed (space separated), or @file, @command, @event, @user,
	 * @pid; NULL when the value is the user's to type.
	 */
	const char *complete;
};

/* Each group's title; [OPT_GROUP_NONE] is NULL. */
extern const char *const opt_group_title[OPT_GROUP_NR];

/* Every option, in --help order. */
extern const struct opt_def opt_table[];
extern const size_t opt_table_nr;

/* The row of a short option; NULL none. */
const struct opt_def *opt__find_short(char c);

/*
 * An exact long name, or (as perf's parser) a prefix of exactly one;
 * *ambiguous is set when a prefix fits several. NULL none.
 */
const struct opt_def *opt__find_long(const char *name, size_t len, bool *ambiguous);

/* "-c/--name", "--name" or "-c": how the user finds the option in --help. */
void opt__label(const struct opt_def *o, char *buf, size_t len);

/* options_help.c */

/* Fills out[opt_table_nr] with the rows in --help order: by group, then as
 * perf sorts (short name case-blind, rows without one last, long name). */
void opt__help_order(const struct opt_def **out);

/* The left column of the row's help line ("-F, --freq <freq|max>",
 * "    --aio[=<n>]") into buf; returns its length. */
int opt__usage_left(const struct opt_def *o, char *buf, size_t len);

#endif
