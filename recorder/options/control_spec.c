// SPDX-License-Identifier: GPL-2.0-only
/* --control's argument, perf's syntax (control_spec.h): pure, fuzzed. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/control_spec.h"

static const char spec_fix[] =
	"give fifo:CTL[,ACK] with FIFO paths, or fd:CTL[,ACK] with open file descriptors, e.g. --control fifo:ctl.fifo,ack.fifo";

static int spec__fail(struct prec_err *e, const char *str, const char *why)
{
	/* One line, whatever the argument holds. */
	return prec_err__set(e, -EINVAL, "--control '%.*s': %s (%s)", (int)strcspn(str, "\n\r"),
			     str, why, spec_fix);
}

/* One fd number of fd:, all of [s, end): strtoul base 0 as perf, nothing
 * after it, within int. 0 or -EINVAL. */
static int spec__fd(const char *s, const char *end, int *fd)
{
	char num[32], *stop;
	unsigned long v;

	if (end == s || (size_t)(end - s) >= sizeof(num) || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	memcpy(num, s, (size_t)(end - s));
	num[end - s] = '\0';
	errno = 0;
	v = strtoul(num, &stop, 0);
	if (*stop || errno || v > INT_MAX)
		return -EINVAL;
	*fd = (int)v;
	return 0;
}

int control_spec__parse(const char *str, struct control_spec *spec, struct prec_err *e)
{
	const char *comma;

	memset(spec, 0, sizeof(*spec));
	spec->ctl_fd = spec->ack_fd = -1;
	if (!strncmp(str, "fd:", 3)) {
		str += 3;
		comma = strchr(str, ',');
		if (spec__fd(str, comma ? comma : str + strlen(str), &spec->ctl_fd) ||
		    (comma && spec__fd(comma + 1, comma + 1 + strlen(comma + 1), &spec->ack_fd)))
			return spec__fail(e, str - 3, "not a file descriptor number");
		return 0;
	}
	if (strncmp(str, "fifo:", 5))
		return spec__fail(e, str, "neither fifo: nor fd:");
	spec->fifo = true;
	str += 5;
	comma = strchr(str, ',');
	if (!*str || str == comma)
		return spec__fail(e, str - 5, "no command FIFO named");
	if ((size_t)(comma ? comma - str : (ptrdiff_t)strlen(str)) >= sizeof(spec->ctl_path) ||
	    (comma && strlen(comma + 1) >= sizeof(spec->ack_path)))
		return spec__fail(e, str - 5, "path too long");
	if (comma) {
		memcpy(spec->ctl_path, str, (size_t)(comma - str));
		strcpy(spec->ack_path, comma + 1); /* "" (fifo:CTL,) is none, as perf */
	} else {
		strcpy(spec->ctl_path, str);
	}
	return 0;
}
