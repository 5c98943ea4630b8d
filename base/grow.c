// SPDX-License-Identifier: GPL-2.0-only
/* The growth rule (prec/grow.h): doubling, bounded, overflow-checked. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prec/grow.h"

int grow__array(void *bufp, size_t *cap, size_t need, size_t elem, size_t min_cap, size_t max)
{
	void **pp = bufp;
	size_t n = *cap;
	void *p;

	if (need <= *cap)
		return 0;
	if (need > max || !elem || need > SIZE_MAX / elem)
		return -E2BIG;
	if (n < min_cap)
		n = min_cap;
	if (!n)
		n = 8;
	while (n < need)
		n = n > SIZE_MAX / 2 ? SIZE_MAX : n * 2;
	if (n > max)
		n = max;
	if (n > SIZE_MAX / elem)
		n = SIZE_MAX / elem;
	p = realloc(*pp, n * elem);
	if (!p)
		return -ENOMEM;
	*pp = p;
	*cap = n;
	return 0;
}

int grow__array_zero(void *bufp, size_t *cap, size_t need, size_t elem, size_t min_cap,
		     size_t max)
{
	size_t old = *cap;
	int ret = grow__array(bufp, cap, need, elem, min_cap, max);

	if (!ret && *cap > old)
		memset((char *)*(void **)bufp + old * elem, 0, (*cap - old) * elem);
	return ret;
}
