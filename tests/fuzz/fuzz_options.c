// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the command line (built and run by the suite, see
 * CMakeLists.txt here). The input is split at NUL bytes into argv[1..];
 * argv[0] is "prec". Checks the contract: never exits, one line of err on
 * failure with nothing left allocated, and on success a workload argv that is
 * the NULL-terminated tail of the input, or no command and something to
 * record (a target, or the whole system as perf does).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prec/record.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2];
	struct record_opts opts;
	char err[256];
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

	ret = options__parse(&opts, argc, argv, err, sizeof(err));
	if (ret) {
		if (ret != -EINVAL && ret != -ENOMEM)
			abort();
		if (ret == -EINVAL && (!err[0] || strlen(err) >= sizeof(err)))
			abort();
		if (opts.events || opts.nr_events)
			abort();
	} else {
		if (err[0])
			abort();
		if (opts.argc) {
			if (opts.argv + opts.argc != argv + argc || opts.argv[opts.argc] != NULL)
				abort();
		} else if (!opts.help && !opts.version && !opts.list_events &&
			   !opts.system_wide && !opts.pid_list && !opts.tid_list && !opts.uid_str &&
			   !opts.cpu_list) {
			abort(); /* no command: a target, or the whole system as perf */
		}
		for (int i = 0; i < opts.nr_events; i++) {
			/* each -e value points into the caller's argv strings */
			if ((const char *)opts.events[i] < buf ||
			    (const char *)opts.events[i] > buf + size)
				abort();
		}
		if (opts.freq_max && opts.freq)
			abort();
		if (opts.output && !opts.output[0])
			abort(); /* "-" is the pipe; "" is refused */
	}
	options__exit(&opts);
	free(buf);
	return 0;
}
