// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the command line (built and run by the suite, see
 * CMakeLists.txt here). The input is split at NUL bytes into argv[1..];
 * argv[0] is "prec". Checks the contract of options__parse then options__validate (on a fixed standard output):
 * never exits, one line of err on failure, nothing left allocated by a failed
 * parse, a workload argv that is the NULL-terminated tail of the input, and
 * after validate the defaults resolved.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/options/options.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2];
	static const struct options_env env; /* stdout a plain file */
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	char *buf = malloc(size + 1);
	size_t start = 0;
	int argc = 0, ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "prec";
	for (size_t i = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;

	ret = options__parse(&opts, argc, argv, &e);
	if (ret) {
		if (ret != -EINVAL && ret != -ENOMEM)
			abort();
		if (ret == -EINVAL && (!prec_err__is_set(&e)))
			abort();
		if (opts.events || opts.nr_events)
			abort();
		goto out;
	}
	if (prec_err__is_set(&e))
		abort();
	if (opts.argc && (opts.argv + opts.argc != argv + argc || opts.argv[opts.argc] != NULL))
		abort();
	for (int i = 0; i < opts.nr_events; i++) {
		/* each -e value points into the caller's argv strings */
		if ((const char *)opts.events[i] < buf || (const char *)opts.events[i] > buf + size)
			abort();
	}
	if (opts.freq_max && opts.freq)
		abort();
	if (opts.output && !opts.output[0])
		abort();
	if (opts.help || opts.version || opts.list_events)
		goto out;
	ret = options__validate(&opts, &env, &e);
	if (ret) {
		if (ret != -EINVAL || !prec_err__is_set(&e))
			abort();
		goto out;
	}
	/* Final: an output path, a rate, a target. */
	if (!opts.output || opts.pipe_output != !strcmp(opts.output, "-"))
		abort();
	if (!opts.period && !opts.freq && !opts.freq_max)
		abort();
	if (!opts.argc && !opts.system_wide && !opts.cpu_list && !opts.pid_list &&
	    !opts.tid_list && !opts.uid_str)
		abort();
out:
	options__exit(&opts);
	free(buf);
	return 0;
}
