/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_NUMBER_H
#define PREC_NUMBER_H
/*
 * The one reader of numbers in text (base/number.c): hex digits, strict
 * unsigned values as sysfs prints them, and the whitespace/sign prefix that
 * libc's strto* functions accept, for the readers that must agree with perf's
 * atoi/strtoull. Pure functions over length-bounded buffers.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The value of hex digit c (either case), or -1 for any other byte. */
int hex__digit(char c);

/* True for the bytes C's isspace() accepts in the "C" locale. */
bool text__is_blank(char c);

/* Narrows [*sp, *sp + *lenp) to its middle without leading or trailing blanks. */
void text__trim(const char **sp, size_t *lenp);

/*
 * Strict unsigned parse of s[0..len): optional surrounding whitespace, then
 * digits only (base 10), or hex digits with an optional 0x/0X (base 16).
 * No sign, no empty value, no embedded NUL. Returns 0, -EINVAL for anything
 * else (including base other than 10/16), -ERANGE past UINT64_MAX; *val is
 * untouched on failure.
 */
int u64__parse(const char *s, size_t len, unsigned int base, uint64_t *val);

/* u64__parse with an upper bound of UINT32_MAX (-ERANGE past it). */
int u32__parse(const char *s, size_t len, unsigned int base, uint32_t *val);

/*
 * The prefix libc's strtol/strtoull skip before the digits: blanks, then one
 * optional '+' or '-'. Returns the index of the first byte after it (<= len)
 * and sets *neg for a '-'.
 */
size_t num__skip_sign(const char *s, size_t len, bool *neg);

#endif
