/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_GROW_H
#define PREC_GROW_H
/*
 * The one growth rule for every growable array (base/grow.c): double the
 * capacity until it holds what is needed, never past a bound the caller
 * names, and fail cleanly (the array untouched) rather than overflow.
 */
#include <stddef.h>
#include <stdint.h>

/*
 * Bounds that are limits of the data itself, for callers to name:
 * GROW_PIDS_MAX  the kernel's PID_MAX_LIMIT on 64-bit machines: every pid
 *                and tid is below it, so an array of distinct ones holds fewer
 * GROW_MEMORY    no limit of the data's own: the array copies what is in
 *                memory already (ring bytes, records made from them) or what
 *                perf itself reads whole; only the address space bounds it
 */
#define GROW_PIDS_MAX (1u << 22)
#define GROW_MEMORY SIZE_MAX

/*
 * Makes *bufp (an array of elem-byte elements, *cap of them) hold at least
 * need elements: nothing when it does; else realloc to the first doubling
 * of *cap (at least min_cap, 8 when 0) that does, cut to max. On success
 * *bufp and *cap are updated (new elements are not zeroed) and 0 is
 * returned; -E2BIG when need > max (or the bytes overflow), -ENOMEM when
 * realloc fails: then *bufp and *cap are as they were.
 */
int grow__array(void *bufp, size_t *cap, size_t need, size_t elem, size_t min_cap, size_t max);

/* grow__array for an array of *p's type: GROW(&arr, &cap, need, max). */
#define GROW(pp, capp, need, max) grow__array((pp), (capp), (need), sizeof(**(pp)), 0, (max))

/* The same, the new elements zeroed (from the old *cap to the new). */
int grow__array_zero(void *bufp, size_t *cap, size_t need, size_t elem, size_t min_cap,
		     size_t max);

#endif
