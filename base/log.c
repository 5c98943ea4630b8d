// SPDX-License-Identifier: GPL-2.0-only
/* The one message channel (include/prec/log.h). */
#include <stdio.h>
#include <stdlib.h>

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

/* The message in buf, or in a malloc'ed string when it does not fit (*heap
 * then set, to be freed); NULL only when even that fails. */
static char *format(char *buf, size_t len, char **heap, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	*heap = NULL;
	va_copy(again, ap);
	n = vsnprintf(buf, len, fmt, ap);
	if (n >= 0 && (size_t)n >= len) {
		*heap = malloc((size_t)n + 1);
		if (*heap)
			vsnprintf(*heap, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	return *heap ? *heap : buf;
}

void pr_err(const char *fmt, ...)
{
	char buf[1024], *heap, *msg;
	va_list ap;

	/* Whole, however long: the reason and the fix come last, after what
	 * the user typed (a long path, a long --filter). */
	va_start(ap, fmt);
	msg = format(buf, sizeof(buf), &heap, fmt, ap);
	va_end(ap);
	/* One line, whatever the user typed into the quoted parts. */
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	/* Errors are printed even under -q: a failure must never be silent. */
	fprintf(stderr, "prec: %s\n", msg);
	free(heap);
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
