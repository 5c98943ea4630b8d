// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's CPU list syntax (prec/cpulist.h): the one parser, shared by
 * -C, the online/possible lists and every sysfs cpulist file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prec/cpulist.h"
#include "prec/number.h"

/*
 * Reads one CPU number at s[*pos]. Leading zeros are fine (the kernel's own
 * parser takes them); anything at or above limit is refused before it can
 * overflow.
 */
static int cpulist__num(const char *s, size_t len, size_t *pos, uint32_t limit, uint32_t *cpu)
{
	uint32_t v = 0;
	size_t i = *pos;

	if (i >= len || s[i] < '0' || s[i] > '9')
		return -EINVAL;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		v = v * 10 + (uint32_t)(s[i] - '0');
		if (v >= limit)
			return -ERANGE;
	}
	*pos = i;
	*cpu = v;
	return 0;
}

/*
 * One pass over a trimmed list: validates it and finds the highest CPU; with
 * bits set, also marks every CPU. Run twice so the bitmap is sized exactly.
 */
static int cpulist__walk(const char *s, size_t len, uint32_t limit, uint64_t *bits, uint32_t *maxp)
{
	uint32_t a, b, max = 0;
	size_t pos = 0;
	int err;

	for (;;) {
		err = cpulist__num(s, len, &pos, limit, &a);
		if (err)
			return err;
		b = a;
		if (pos < len && s[pos] == '-') {
			pos++;
			err = cpulist__num(s, len, &pos, limit, &b);
			if (err)
				return err;
			if (b < a)
				return -EINVAL;
		}
		if (b > max)
			max = b;
		if (bits)
			for (uint32_t c = a; c <= b; c++)
				bits[c / 64] |= UINT64_C(1) << (c % 64);
		if (pos == len)
			break;
		if (s[pos] != ',')
			return -EINVAL;
		pos++;
	}
	*maxp = max;
	return 0;
}

int cpulist__parse_limit(const char *s, size_t len, uint32_t limit, struct cpulist *cl)
{
	uint32_t max;
	uint64_t *bits;
	int err;

	memset(cl, 0, sizeof(*cl));
	if (limit > CPULIST_CPU_LIMIT)
		limit = CPULIST_CPU_LIMIT;
	text__trim(&s, &len);
	if (!len)
		return -ENODATA;
	err = cpulist__walk(s, len, limit, NULL, &max);
	if (err)
		return err;
	bits = calloc(max / 64 + 1, sizeof(*bits));
	if (!bits)
		return -ENOMEM;
	err = cpulist__walk(s, len, limit, bits, &max);
	if (err) { /* cannot happen: the first pass accepted the same bytes */
		free(bits);
		return err;
	}
	cl->bits = bits;
	cl->nr_bits = max + 1;
	return 0;
}

int cpulist__parse(const char *s, size_t len, struct cpulist *cl)
{
	return cpulist__parse_limit(s, len, CPULIST_CPU_LIMIT, cl);
}

void cpulist__exit(struct cpulist *cl)
{
	if (!cl)
		return;
	free(cl->bits);
	cl->bits = NULL;
	cl->nr_bits = 0;
}

uint32_t cpulist__count(const struct cpulist *cl)
{
	uint32_t n = 0;

	if (!cl->bits)
		return 0;
	for (uint32_t w = 0; w < (cl->nr_bits + 63) / 64; w++)
		n += (uint32_t)__builtin_popcountll(cl->bits[w]);
	return n;
}

int cpulist__max(const struct cpulist *cl)
{
	/* nr_bits is highest + 1 by construction; an empty list has no bits. */
	return cl->bits && cl->nr_bits ? (int)cl->nr_bits - 1 : -1;
}

int cpulist__has(const struct cpulist *cl, uint32_t cpu)
{
	if (!cl->bits || cpu >= cl->nr_bits)
		return 0;
	return (cl->bits[cpu / 64] >> (cpu % 64)) & 1;
}

int cpulist__next(const struct cpulist *cl, uint32_t from)
{
	for (uint32_t c = from; c < cl->nr_bits; c++)
		if (cpulist__has(cl, c))
			return (int)c;
	return -1;
}
