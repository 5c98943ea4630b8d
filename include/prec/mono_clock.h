/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_MONO_CLOCK_H
#define PREC_MONO_CLOCK_H
/*
 * The one reader of the monotonic clock for intervals (base/mono_clock.c):
 * periods, deadlines and timeouts inside prec, never a sample's time.
 */
#include <stdbool.h>
#include <stdint.h>

/* Nanoseconds of CLOCK_MONOTONIC. coarse: CLOCK_MONOTONIC_COARSE, a vDSO
 * read of the last tick (a few ms behind), for checks made every drain
 * pass. */
uint64_t mono_clock__ns(bool coarse);

#endif
