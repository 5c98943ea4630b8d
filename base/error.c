// SPDX-License-Identifier: GPL-2.0-only
/* The error object (prec/error.h): one line, built on the heap, printed once
 * by whoever owns the failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prec/error.h"
#include "prec/log.h"

static int err_code(int code)
{
	return code < 0 ? code : -EINVAL;
}

int prec_err__vset(struct prec_err *e, int code, const char *fmt, va_list ap)
{
	char *msg = NULL;

	code = err_code(code);
	if (!e)
		return code;
	prec_err__clear(e);
	e->code = code;
	if (vasprintf(&msg, fmt, ap) < 0) {
		e->no_mem = true;
		return code;
	}
	e->msg = msg;
	return code;
}

int prec_err__set(struct prec_err *e, int code, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = prec_err__vset(e, code, fmt, ap);
	va_end(ap);
	return ret;
}

int prec_err__prefix(struct prec_err *e, const char *fmt, ...)
{
	char *prefix = NULL, *line = NULL;
	va_list ap;
	int n;

	if (!prec_err__is_set(e))
		return e ? e->code : 0;
	va_start(ap, fmt);
	n = vasprintf(&prefix, fmt, ap);
	va_end(ap);
	if (n < 0 || asprintf(&line, "%s: %s", prefix, prec_err__msg(e)) < 0) {
		free(prefix);
		return e->code; /* the line without its prefix still says why */
	}
	free(prefix);
	free(e->msg);
	e->msg = line;
	e->no_mem = false;
	return e->code;
}

bool prec_err__is_set(const struct prec_err *e)
{
	return e && (e->code || e->msg || e->no_mem);
}

const char *prec_err__msg(const struct prec_err *e)
{
	if (!prec_err__is_set(e))
		return "";
	if (e->msg)
		return e->msg;
	if (e->no_mem)
		return "out of memory (free some memory and retry)";
	return strerror(-e->code);
}

void prec_err__print(struct prec_err *e, const char *fallback)
{
	if (!prec_err__is_set(e))
		return;
	if (!e->msg && !e->no_mem && fallback)
		pr_err("%s: %s", fallback, strerror(-e->code));
	else
		pr_err("%s", prec_err__msg(e));
	prec_err__clear(e);
}

void prec_err__clear(struct prec_err *e)
{
	if (!e)
		return;
	free(e->msg);
	e->msg = NULL;
	e->code = 0;
	e->no_mem = false;
}
