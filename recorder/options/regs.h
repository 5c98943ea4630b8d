#ifndef PREC_RECORDER_OPTIONS_REGS_H
#define PREC_RECORDER_OPTIONS_REGS_H
/* Register names for --user-regs / -I and branch filters for -j, as perf. */
#include <stddef.h>

#include "prec/error.h"
#include <stdint.h>

/* The mask perf samples when no register is named (the general registers). */
uint64_t regs__default_mask(void);

/*
 * Parses "ax,bx,r8" (case-insensitive) into a PERF_REG mask. Pure. Returns 0,
 * or -EINVAL with one line in e naming the bad register and listing the
 * available ones; -EOPNOTSUPP on an architecture prec has no table for.
 */
int regs__parse(const char *list, uint64_t *mask, struct prec_err *e);

/*
 * Parses -j's filter list ("any_call,u") into branch_sample_type bits, adding
 * "any" when only privilege levels are named, as perf. Pure. 0 or -EINVAL.
 */
int branch_filter__parse(const char *list, uint64_t *bits, struct prec_err *e);

#endif
