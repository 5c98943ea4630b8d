// SPDX-License-Identifier: GPL-2.0-only
/*
 * The synthesis options (--synth, --num-thread-synthesize,
 * --proc-map-timeout) -> struct record_opts, for options.c's table: perf's
 * --synth word list, and the two counts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "options/options.h"
#include "options/options_output.h"

int options__parse_synth(const char *s)
{
	int bits = 0;

	for (const char *p = s;; p++) {
		size_t n = strcspn(p, ",");

		if (n == 2 && !strncasecmp(p, "no", 2))
			return 0;
		if (n == 4 && !strncasecmp(p, "none", 4))
			return 0;
		if (n == 3 && !strncasecmp(p, "all", 3))
			return RECORD_SYNTH_ALL;
		if (n == 4 && !strncasecmp(p, "task", 4))
			bits |= RECORD_SYNTH_TASK;
		else if (n == 4 && !strncasecmp(p, "mmap", 4))
			bits |= RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP;
		else if (n == 6 && !strncasecmp(p, "cgroup", 6))
			bits |= RECORD_SYNTH_CGROUP;
		else
			return -EINVAL;
		p += n;
		if (!*p)
			return bits;
	}
}

int output_opts__apply_synth(enum output_opt which, const char *arg, struct record_opts *opts,
			     struct prec_err *e)
{
	const char *label = which == OUTPUT_OPT_SYNTH ? "--synth" :
			    which == OUTPUT_OPT_SYNTH_THREADS ? "--num-thread-synthesize" :
								"--proc-map-timeout";
	uint64_t v = 0;
	int bits;

	if (which == OUTPUT_OPT_SYNTH) {
		bits = options__parse_synth(arg);
		if (bits < 0)
			return prec_err__set(e, -EINVAL, "invalid %s value '%s' (%s)", label, arg,
					     "use no, all, or a comma list of task, mmap, cgroup");
		opts->synth_given = true;
		opts->synth = bits;
		return 0;
	}
	if (output_opts__size_plain(arg, &v) || v < 1 || v > (which == OUTPUT_OPT_SYNTH_THREADS ? 4096 : 3600000))
		return prec_err__set(
			e, -EINVAL, "invalid %s value '%s' (%s)", label, arg,
			which == OUTPUT_OPT_SYNTH_THREADS ?
				"give a number of threads, at least 1" :
				"give milliseconds, at least 1 (perf's default is 500)");
	if (which == OUTPUT_OPT_SYNTH_THREADS)
		opts->nr_threads_synthesize = (unsigned)v;
	else
		opts->proc_map_timeout_ms = (unsigned)v;
	return 0;
}
