// SPDX-License-Identifier: GPL-2.0-only
/*
 * The values of the output-management options and of -m, parsed as perf
 * record parses them: sizes with a B/K/M/G unit, times with s/m/h/d (so "10M"
 * is ten megabytes and "10m" ten minutes, as in perf); and the plain number
 * syntax every numeric option shares.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "options/options.h"
#include "options/options_output.h"

struct unit {
	char tag;
	uint64_t mult;
};

static const struct unit size_units[] = {
	{ 'B', 1 }, { 'K', 1ULL << 10 }, { 'M', 1ULL << 20 }, { 'G', 1ULL << 30 }, { 0, 0 },
};

static const struct unit time_units[] = {
	{ 's', 1000 }, { 'm', 60 * 1000 }, { 'h', 3600 * 1000 }, { 'd', 24 * 3600 * 1000 }, { 0, 0 },
};

/* Digits then one unit of units (or none when bare_mult is nonzero). */
static int parse_tagged(const char *s, const struct unit *units, uint64_t bare_mult,
			uint64_t *out)
{
	uint64_t v = 0, mult = bare_mult;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p) {
		mult = 0;
		for (const struct unit *u = units; u->tag; u++)
			if (*p == u->tag && !p[1])
				mult = u->mult;
	}
	if (!mult)
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int output_opts__size(const char *s, uint64_t *bytes)
{
	return parse_tagged(s, size_units, 1, bytes);
}

/* --switch-output[=signal|SIZE|TIME] (arg NULL: signal). 0, or -EINVAL with one line. */
static int output_opts__switch(const char *arg, struct record_opts *opts, struct prec_err *e)
{
	uint64_t v;

	opts->switch_output = true; /* implies --timestamp-filename (options__validate) */
	if (!arg || !strcmp(arg, "signal")) {
		opts->switch_signal = true;
		return 0;
	}
	if (!parse_tagged(arg, size_units, 0, &v) && v) {
		opts->switch_size = v;
		return 0;
	}
	if (!parse_tagged(arg, time_units, 0, &v) && v) {
		opts->switch_time_ms = v;
		return 0;
	}
	return prec_err__set(
		e, -EINVAL,
		"invalid --switch-output value '%s' (give signal, a size like 100M or a time like 30s, 5m, 1h)",
		arg);
}

/* A size above 0 for --name into *field. 0, or -EINVAL with one line. */
static int size_value(const char *arg, const char *name, const char *example, uint64_t *field,
		      struct prec_err *e)
{
	uint64_t v;

	if (output_opts__size(arg, &v) || !v)
		return prec_err__set(
			e, -EINVAL,
			"invalid --%s value '%s' (give a size like %s; units B, K, M, G)", name,
			arg, example);
	*field = v;
	return 0;
}

int output_opts__apply(enum output_opt which, const char *arg, struct record_opts *opts,
		       struct prec_err *e)
{
	uint64_t v = 0;

	switch (which) {
	case OUTPUT_OPT_SWITCH:
		return output_opts__switch(arg, opts, e);
	case OUTPUT_OPT_MAX_FILES:
		if (output_opts__size_plain(arg, &v) || v > 1000000)
			return prec_err__set(
				e, -EINVAL,
				"invalid --switch-max-files value '%s' (give a number of files)",
				arg);
		opts->switch_max_files = (int)v;
		return 0;
	case OUTPUT_OPT_MAX_SIZE:
		return size_value(arg, "max-size", "100M", &opts->max_size, e);
	case OUTPUT_OPT_MMAP_FLUSH:
		/* 0: perf's default (a ring is drained whenever it holds data). */
		if (!output_opts__size(arg, &v) && !v) {
			opts->mmap_flush = 0;
			return 0;
		}
		return size_value(arg, "mmap-flush", "16K", &opts->mmap_flush, e);
	case OUTPUT_OPT_DEBUGINFOD:
		/* perf's "system" (and no value): keep $DEBUGINFOD_URLS. */
		if (arg && !*arg)
			return prec_err__set(
				e, -EINVAL,
				"invalid --debuginfod value '' (give the server URLs, e.g. --debuginfod=https://debuginfod.debian.net, or no value for $DEBUGINFOD_URLS)");
		opts->debuginfod = true;
		opts->debuginfod_urls = arg && strcmp(arg, "system") ? arg : NULL;
		opts->debuginfod_from_config = false;
		return 0;
	case OUTPUT_OPT_NAMES_CACHE_MAX:
		/* 0: unbounded. */
		if (output_opts__size(arg, &v))
			return prec_err__set(
				e, -EINVAL,
				"invalid --names-cache-max value '%s' (give a size like 512M; units B, K, M, G; 0 for no limit)",
				arg);
		opts->names_cache_max = v;
		opts->names_cache_max_given = true;
		return 0;
	case OUTPUT_OPT_SYNTH:
	case OUTPUT_OPT_SYNTH_THREADS:
	case OUTPUT_OPT_PROC_MAP_TIMEOUT:
		break; /* options.c hands them to options_synth.c */
	}
	return -EINVAL;
}

int output_opts__size_plain(const char *s, uint64_t *v)
{
	static const struct unit none[] = { { 0, 0 } };

	return parse_tagged(s, none, 1, v);
}

/*
 * -m: a page count (rounded up to a power of two, as perf does) or a size with
 * a B/K/M/G suffix. Returns bytes of ring data.
 */
int output_opts__mmap_pages(const char *s, uint64_t *bytes, struct prec_err *e)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	size_t len = strlen(s);
	uint64_t v, pages;
	char num[32];
	uint64_t mult = 0;

	if (len == 0 || len >= sizeof(num))
		goto bad;
	switch (s[len - 1]) {
	case 'B': case 'b': mult = 1; break;
	case 'K': case 'k': mult = 1ULL << 10; break;
	case 'M': case 'm': mult = 1ULL << 20; break;
	case 'G': case 'g': mult = 1ULL << 30; break;
	}
	memcpy(num, s, len + 1);
	if (mult)
		num[len - 1] = '\0';
	if (output_opts__size_plain(num, &v) || v == 0)
		goto bad;
	if (mult) {
		if (v > (1ULL << 40) / mult)
			goto too_big;
		pages = (v * mult + page - 1) / page;
	} else {
		pages = v;
	}
	if (pages > (1ULL << 40) / page)
		goto too_big;
	*bytes = pages * page;
	return 0;
bad:
	return prec_err__set(
		e, -EINVAL,
		"invalid -m/--mmap-pages value '%s' (give a page count like 128 or a size like 512K)",
		s);
too_big:
	return prec_err__set(e, -EINVAL, "-m/--mmap-pages value '%s' is too large", s);
}
