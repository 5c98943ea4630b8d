/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_CLOCK_H
#define PREC_CLOCK_H
/*
 * -k/--clockid: the clock names perf accepts, the clock's resolution
 * (CLOCKID feature) and a reference reading of it beside the time of day
 * (CLOCK_DATA feature), so readers can turn sample times into wall time.
 * The one reader of -k's clock (sysinfo/clock.c); intervals inside prec use
 * prec/mono_clock.h.
 */
#include <stdint.h>

/*
 * Parses a clock as perf does: a name (monotonic, monotonic_raw, realtime,
 * boottime, tai, or mono, raw, real, boot; case-insensitive, an optional
 * "CLOCK_" prefix) or a number. Pure. Returns 0 and *clockid, or -EINVAL.
 */
int clockid__parse(const char *str, int *clockid);

/* perf's name of a clock id ("monotonic_raw"), or NULL for a number only. */
const char *clockid__name(int clockid);

/* Reads the clock clockid (any, not only -k's) into *ns. Returns 0, or
 * -errno when the kernel does not know the clock. */
int clock__now_ns(int clockid, uint64_t *ns);

/*
 * Reads the clock's resolution, then the time of day and the clock back to
 * back. Returns 0, or -errno when the kernel does not know the clock.
 */
int clock__snapshot(int clockid, uint64_t *res_ns, uint64_t *tod_ns, uint64_t *clock_ns);

#endif
