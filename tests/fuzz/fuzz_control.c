// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for --control (built and run by the suite, see
 * CMakeLists.txt here): the input is --control's argument (up to its first
 * NUL) for control_spec__parse, each line of it for control_cmd__parse,
 * and the whole of it as what a harness writes into an fd: channel, read
 * and run by control__ready (no events, no ack channel). Checks: one line
 * of err on failure, an argument inside its line and only where perf reads
 * one, the channel never stops polling while it is open.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/evlist/evlist.h"
#include "prec/log.h"
#include "recorder/live/control.h"

static void check_spec(const uint8_t *data, size_t size)
{
	struct control_spec spec;
	char *s = malloc(size + 1);
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	if (!s)
		return;
	memcpy(s, data, size);
	s[size] = '\0';
	prec_err__clear(&e);
	if (control_spec__parse(s, &spec, &e)) {
		if (!prec_err__is_set(&e) || strchr(prec_err__msg(&e), '\n'))
			abort();
	} else if (spec.fifo ? !spec.ctl_path[0] : spec.ctl_fd < 0) {
		abort();
	}
	free(s);
}

static void check_lines(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p), arg_len;
		const char *arg;
		bool bad;
		enum control_cmd cmd = control_cmd__parse(p, len, &arg, &arg_len, &bad);

		if (arg && (arg <= p || arg + arg_len != p + len || arg[-1] != ' ' || bad))
			abort();
		if ((arg || bad) && cmd != CONTROL_ENABLE && cmd != CONTROL_DISABLE &&
		    cmd != CONTROL_EVLIST)
			abort();
		if (cmd == CONTROL_EVLIST && control_evlist__flag(arg, arg_len) < -EINVAL)
			abort();
		p += len + 1;
	}
}

/* The bytes through a pipe into the live channel, its writer kept open. */
static void check_channel(const uint8_t *data, size_t size)
{
	struct evlist ev = { 0 };
	struct control c;
	struct control_spec spec = { .ctl_fd = -1, .ack_fd = -1 };
	int p[2];

	if (size > 4096 || pipe(p))
		return;
	spec.ctl_fd = p[0];
	if (write(p[1], data, size) == (ssize_t)size && !control__open(&c, &spec, &ev, NULL)) {
		if (size && !control__ready(&c, POLLIN))
			abort();
		control__exit(&c);
	}
	close(p[0]);
	close(p[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);

	log__set_level(LOG_QUIET);
	check_spec(data, nul ? (size_t)(nul - data) : size);
	check_lines(data, size);
	check_channel(data, size);
	return 0;
}
