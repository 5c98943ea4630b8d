// SPDX-License-Identifier: GPL-2.0-only
/*
 * Numbers in text (prec/number.h): the one hex-digit table, the strict
 * parser behind every sysfs value, and the libc-style sign prefix that the
 * perf-compatible readers share.
 */
#include <errno.h>

#include "prec/number.h"

int hex__digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool text__is_blank(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

void text__trim(const char **sp, size_t *lenp)
{
	const char *s = *sp;
	size_t len = *lenp;

	while (len && text__is_blank(*s)) {
		s++;
		len--;
	}
	while (len && text__is_blank(s[len - 1]))
		len--;
	*sp = s;
	*lenp = len;
}

static int digit_value(char c, unsigned int base)
{
	int d = hex__digit(c);

	return d >= 0 && (unsigned int)d < base ? d : -1;
}

int u64__parse(const char *s, size_t len, unsigned int base, uint64_t *val)
{
	uint64_t v = 0;
	size_t i;

	if (base != 10 && base != 16)
		return -EINVAL;
	text__trim(&s, &len);
	if (base == 16 && len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (!len)
		return -EINVAL;
	/* Validate every byte first so "99999999999999999999x" is garbage, not overflow. */
	for (i = 0; i < len; i++)
		if (digit_value(s[i], base) < 0)
			return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned int)digit_value(s[i], base);

		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*val = v;
	return 0;
}

int u32__parse(const char *s, size_t len, unsigned int base, uint32_t *val)
{
	uint64_t v;
	int err = u64__parse(s, len, base, &v);

	if (err)
		return err;
	if (v > UINT32_MAX)
		return -ERANGE;
	*val = (uint32_t)v;
	return 0;
}

size_t num__skip_sign(const char *s, size_t len, bool *neg)
{
	size_t i = 0;

	*neg = false;
	while (i < len && text__is_blank(s[i]))
		i++;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		*neg = s[i++] == '-';
	return i;
}
