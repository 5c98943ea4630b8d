// SPDX-License-Identifier: GPL-2.0-only
/* The one message channel (include/prec/log.h). */
#include <stdio.h>

#include "prec/log.h"

static int log_threshold = LOG_NORMAL;

void log__set_level(int level)
{
	log_threshold = level;
}

int log__level(void)
{
	return log_threshold;
}

static void vlog(int level, const char *prefix, const char *fmt, va_list ap)
{
	if (level > log_threshold)
		return;
	if (prefix)
		fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
}

void pr_err(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* One line, whatever the user typed into the quoted parts. */
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	/* Errors are printed even under -q: a failure must never be silent. */
	fprintf(stderr, "prec: %s\n", buf);
}

void pr_warn(const char *fmt, ...)
{
	va_list ap;

	if (log_threshold < LOG_NORMAL)
		return;
	va_start(ap, fmt);
	vlog(LOG_NORMAL, "prec: warning: ", fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void pr_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_NORMAL, NULL, fmt, ap);
	va_end(ap);
}

void pr_verbose(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_VERBOSE, NULL, fmt, ap);
	va_end(ap);
}

void pr_debug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_DEBUG, NULL, fmt, ap);
	va_end(ap);
}
