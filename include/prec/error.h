/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_ERROR_H
#define PREC_ERROR_H
/*
 * The one error convention below record.c and main.c: a function that can
 * fail returns -errno (0 on success) and, when it can explain the failure,
 * fills the caller's struct prec_err with the one line a user reads
 * ("<what failed>: <why> (<how to fix>)"). It never prints: the caller that
 * owns the error (record.c or main.c) prints it once with prec_err__print.
 * A failure that fills nothing is printed from its errno. Out of memory
 * while building the message still prints a line: the message is then the
 * static text "out of memory".
 */
#include <stdbool.h>

struct prec_err {
	int code; /* the -errno last set; 0 none */
	char *msg; /* the line (heap), or NULL when only code is known */
	bool no_mem; /* building msg failed: print "out of memory" */
};

#define PREC_ERR_INIT { 0, NULL, false }

/*
 * Sets e (may be NULL: then only code is returned) to code (a -errno; a
 * positive or zero code is taken as -EINVAL) and the formatted line,
 * replacing what e held. Returns the code as stored, so a function ends
 * with `return prec_err__set(e, -EINVAL, "...")`.
 */
int prec_err__set(struct prec_err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The same with a va_list. */
#include <stdarg.h>
int prec_err__vset(struct prec_err *e, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * Prepends "<prefix>: " to e's line (a caller adding what it was doing);
 * when e has no line, the line becomes "<prefix>: <strerror(code)>".
 * Returns e's code. Nothing when e is NULL or holds no error.
 */
int prec_err__prefix(struct prec_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Whether e holds an error. */
bool prec_err__is_set(const struct prec_err *e);

/* e's line: its message, "out of memory", or strerror of its code; ""
 * when it holds none. Valid until e changes. */
const char *prec_err__msg(const struct prec_err *e);

/* Prints e's line once with pr_err (nothing when it holds none) and
 * clears it. fallback (may be NULL) is the line for an e that has a code
 * but no message: "<fallback>: <strerror>". */
void prec_err__print(struct prec_err *e, const char *fallback);

/* Frees e's line and clears it; e may be NULL. */
void prec_err__clear(struct prec_err *e);

#endif
