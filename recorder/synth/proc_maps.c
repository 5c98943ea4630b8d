// SPDX-License-Identifier: GPL-2.0-only
/* /proc/PID/maps line parser (proc_maps.h). */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "synth/proc_maps.h"
#include "prec/number.h"

/* A cursor over one line: end is where the line stops (newline, NUL, len). */
struct cur {
	const char *p, *end;
};

/* 1..max_digits hex digits (leading zeros count: the kernel pads). */
static int get_hex(struct cur *c, uint64_t *out, unsigned int max_digits)
{
	uint64_t v = 0;
	unsigned int n = 0;
	int d;

	while (c->p < c->end && (d = hex__digit(*c->p)) >= 0) {
		if (++n > max_digits)
			return -EINVAL;
		v = (v << 4) | (uint64_t)d;
		c->p++;
	}
	if (!n)
		return -EINVAL;
	*out = v;
	return 0;
}

static int get_dec(struct cur *c, uint64_t *out)
{
	uint64_t v = 0;
	unsigned int n = 0;

	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		unsigned int d = (unsigned int)(*c->p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
		n++;
		c->p++;
	}
	if (!n)
		return -EINVAL;
	*out = v;
	return 0;
}

static int expect(struct cur *c, char ch)
{
	if (c->p >= c->end || *c->p != ch)
		return -EINVAL;
	c->p++;
	return 0;
}

static int get_perm(struct cur *c, char set, uint32_t bit, uint32_t *prot)
{
	if (c->p >= c->end)
		return -EINVAL;
	if (*c->p == set)
		*prot |= bit;
	else if (*c->p != '-')
		return -EINVAL;
	c->p++;
	return 0;
}

int proc_maps__parse_line(const char *buf, size_t len, struct proc_map *map)
{
	static const char deleted[] = " (deleted)";
	const size_t dlen = sizeof(deleted) - 1;
	struct cur c = { buf, buf };
	uint64_t maj, min;

	if (!buf)
		return -EINVAL;
	while (c.end < buf + len && *c.end != '\n' && *c.end != '\0')
		c.end++;

	memset(map, 0, sizeof(*map));
	if (get_hex(&c, &map->start, 16) || expect(&c, '-') || get_hex(&c, &map->end, 16) ||
	    expect(&c, ' ') || map->end < map->start)
		return -EINVAL;
	if (get_perm(&c, 'r', PROT_READ, &map->prot) || get_perm(&c, 'w', PROT_WRITE, &map->prot) ||
	    get_perm(&c, 'x', PROT_EXEC, &map->prot) || c.p >= c.end)
		return -EINVAL;
	if (*c.p == 'p')
		map->flags = MAP_PRIVATE;
	else if (*c.p == 's')
		map->flags = MAP_SHARED;
	else
		return -EINVAL;
	c.p++;
	if (expect(&c, ' ') || get_hex(&c, &map->pgoff, 16) || expect(&c, ' ') ||
	    get_hex(&c, &maj, 8) || expect(&c, ':') || get_hex(&c, &min, 8) || expect(&c, ' ') ||
	    get_dec(&c, &map->ino))
		return -EINVAL;
	map->maj = (uint32_t)maj;
	map->min = (uint32_t)min;

	if (c.p == c.end) /* anonymous: the line ends at the inode */
		return 0;
	if (*c.p != ' ')
		return -EINVAL;
	while (c.p < c.end && *c.p == ' ')
		c.p++;
	map->name = c.p;
	map->name_len = (size_t)(c.end - c.p);
	if (!map->name_len)
		map->name = NULL;
	map->deleted = map->name_len > dlen &&
		       !memcmp(map->name + map->name_len - dlen, deleted, dlen);
	return 0;
}
