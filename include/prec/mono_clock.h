/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_MONO_CLOCK_H
#define PREC_MONO_CLOCK_H
/*
 * The one reader of the monotonic clock for intervals (base/mono_clock.c):
 * periods, deadlines and timeouts inside prec, never a sample's time (that
 * is -k's clock, prec/clock.h). Readings are nanoseconds in a uint64_t, so
 * no caller does timespec arithmetic of its own.
 */
#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

/* Nanoseconds of CLOCK_MONOTONIC. coarse: CLOCK_MONOTONIC_COARSE, a vDSO
 * read of the last tick (a few ms behind), for checks made every drain
 * pass. */
uint64_t mono_clock__ns(bool coarse);

/* Nanoseconds from since_ns (a precise mono_clock__ns reading) to now; 0
 * when since_ns is later. */
uint64_t mono_clock__elapsed_ns(uint64_t since_ns);

/* The precise reading ms milliseconds from now: a deadline for
 * mono_clock__left. */
uint64_t mono_clock__deadline_ns(uint64_t ms);

/* The time from now to deadline_ns into *left (a ppoll or nanosleep
 * timeout); false, with *left zero, once now is past the deadline. */
bool mono_clock__left(uint64_t deadline_ns, struct timespec *left);

/* ns as a timespec (seconds and the nanoseconds below one). Pure. */
struct timespec mono_clock__timespec(uint64_t ns);

/* Initializes c so that pthread_cond_timedwait takes an absolute
 * mono_clock__timespec(mono_clock__deadline_ns(ms)). 0 or an errno value. */
int mono_clock__cond_init(pthread_cond_t *c);

#endif
