/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_OUTPUT_OPTS_H
#define PREC_RECORDER_OUTPUT_OPTS_H
/* --switch-output, --switch-max-files, --max-size, --mmap-flush,
 * --debuginfod, --names-cache-max and -m values, and the number syntax the other options
 * share. Pure. */
#include <stddef.h>

#include "prec/error.h"
#include <stdint.h>

struct record_opts;

enum output_opt {
	OUTPUT_OPT_SWITCH,
	OUTPUT_OPT_MAX_FILES,
	OUTPUT_OPT_MAX_SIZE,
	OUTPUT_OPT_MMAP_FLUSH,
	OUTPUT_OPT_SYNTH, /* options_synth.c: --synth, */
	OUTPUT_OPT_SYNTH_THREADS, /* --num-thread-synthesize, */
	OUTPUT_OPT_PROC_MAP_TIMEOUT, /* --proc-map-timeout */
	OUTPUT_OPT_DEBUGINFOD, /* --debuginfod[=URLS]: what the build-id cache fetches */
	OUTPUT_OPT_NAMES_CACHE_MAX, /* --names-cache-max: prec's JIT ELFs in the cache */
};

/* A size: digits with an optional B/K/M/G unit (bare: bytes), as --max-size
 * takes it. 0, -EINVAL, -ERANGE. */
int output_opts__size(const char *s, uint64_t *bytes);

/* A plain count: digits only, no sign, no unit. 0, -EINVAL, -ERANGE. */
int output_opts__size_plain(const char *s, uint64_t *v);

/* -m: a page count or a size with B/K/M/G (any case), as bytes of whole
 * pages (the power-of-two rounding comes later). 0, or -EINVAL with one line. */
int output_opts__mmap_pages(const char *s, uint64_t *bytes, struct prec_err *e);

/* One of the options above with its value into opts. 0, or -EINVAL with one line. */
int output_opts__apply(enum output_opt which, const char *arg, struct record_opts *opts,
		       struct prec_err *e);

/* options_synth.c: OUTPUT_OPT_SYNTH and the two after it, with value arg.
 * 0, or -EINVAL with one line in e. */
int output_opts__apply_synth(enum output_opt which, const char *arg, struct record_opts *opts,
			     struct prec_err *e);

#endif
