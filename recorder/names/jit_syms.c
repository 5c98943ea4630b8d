// SPDX-License-Identifier: GPL-2.0-only
/*
 * One process's JIT symbol table: the symbols in the order added, their
 * names in one arena, a hash of start addresses for moves, and the sorted,
 * overlap-free view built on demand (jit_syms.h says who wins and what each
 * operation costs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "names/jit_syms.h"
#include "prec/grow.h"

struct jit_syms_entry {
	uint64_t addr, size;
	uint32_t name_off, name_len; /* name in the arena, NUL after it */
};

#define HASH_EMPTY UINT32_MAX

void jit_syms__init(struct jit_syms *t)
{
	memset(t, 0, sizeof(*t));
}

void jit_syms__exit(struct jit_syms *t)
{
	if (!t)
		return;
	free(t->entries);
	free(t->names);
	free(t->hash);
	free(t->sorted);
	jit_syms__init(t);
}

static uint32_t jit_syms__slot(const struct jit_syms *t, uint64_t addr)
{
	/* Fibonacci hashing: JIT addresses share their low and high bits. */
	return (uint32_t)((addr * 0x9E3779B97F4A7C15ULL) >> 32) & t->hash_mask;
}

/* The slot of addr: the one holding it, or the empty one where it goes. */
static uint32_t *jit_syms__find(const struct jit_syms *t, uint64_t addr)
{
	uint32_t i = jit_syms__slot(t, addr);

	while (t->hash[i] != HASH_EMPTY && t->entries[t->hash[i]].addr != addr)
		i = (i + 1) & t->hash_mask;
	return &t->hash[i];
}

/* Keeps the hash at most half full for nr entries (a power of two from 256,
 * at most twice JIT_SYMS_MAX), rebuilt in add order when it grows. */
static int jit_syms__hash_reserve(struct jit_syms *t, uint32_t nr)
{
	size_t slots = t->hash ? (size_t)t->hash_mask + 1 : 0, old = slots;

	if (grow__array(&t->hash, &slots, (size_t)nr * 2, sizeof(*t->hash), 256,
			2 * (size_t)JIT_SYMS_MAX))
		return -ENOMEM;
	if (slots == old)
		return 0;
	memset(t->hash, 0xff, slots * sizeof(*t->hash));
	t->hash_mask = (uint32_t)(slots - 1);
	for (uint32_t i = 0; i < t->nr; i++)
		*jit_syms__find(t, t->entries[i].addr) = i;
	return 0;
}

/* Appends an entry whose name is already in the arena; the range is checked. */
static int jit_syms__append(struct jit_syms *t, uint64_t addr, uint64_t size, uint32_t name_off,
			    uint32_t name_len)
{
	struct jit_syms_entry *e;
	int err;

	if (t->nr >= JIT_SYMS_MAX)
		return -ENOSPC;
	err = grow__array(&t->entries, &t->alloc, (size_t)t->nr + 1, sizeof(*e), 64, JIT_SYMS_MAX);
	if (err)
		return err;
	err = jit_syms__hash_reserve(t, t->nr + 1);
	if (err)
		return err;
	e = &t->entries[t->nr];
	e->addr = addr;
	e->size = size;
	e->name_off = name_off;
	e->name_len = name_len;
	*jit_syms__find(t, addr) = t->nr++;
	if (addr < t->max_end)
		t->unsorted = true;
	else
		t->max_end = addr + size;
	t->sorted_valid = false;
	return 0;
}

static int jit_syms__check_range(uint64_t addr, uint64_t size)
{
	uint64_t end;

	if (!size)
		return -EINVAL;
	if (__builtin_add_overflow(addr, size, &end))
		return -ERANGE;
	return 0;
}

int jit_syms__add(struct jit_syms *t, uint64_t addr, uint64_t size, const char *name,
		  size_t name_len)
{
	const char *nul = memchr(name, '\0', name_len);
	size_t off = t->names_len;
	int err;

	err = jit_syms__check_range(addr, size);
	if (err)
		return err;
	if (nul)
		name_len = (size_t)(nul - name);
	if (name_len > JIT_SYMS_NAME_MAX)
		name_len = JIT_SYMS_NAME_MAX;
	if (!name_len)
		return -EINVAL;
	if (t->nr >= JIT_SYMS_MAX)
		return -ENOSPC;
	if (off + name_len + 1 > JIT_SYMS_NAMES_MAX)
		return -E2BIG;
	err = grow__array(&t->names, &t->names_alloc, off + name_len + 1, 1, 64,
			  JIT_SYMS_NAMES_MAX);
	if (err)
		return err;
	/* The arena keeps the name only once the entry is in. */
	memcpy(t->names + off, name, name_len);
	t->names[off + name_len] = '\0';
	err = jit_syms__append(t, addr, size, (uint32_t)off, (uint32_t)name_len);
	if (err)
		return err;
	t->names_len = off + name_len + 1;
	return 0;
}

int jit_syms__move(struct jit_syms *t, uint64_t old_addr, uint64_t new_addr, uint64_t size)
{
	const struct jit_syms_entry *old;
	uint32_t idx;
	int err;

	if (!t->nr)
		return -ENOENT;
	idx = *jit_syms__find(t, old_addr);
	if (idx == HASH_EMPTY)
		return -ENOENT;
	err = jit_syms__check_range(new_addr, size);
	if (err)
		return err;
	old = &t->entries[idx];
	return jit_syms__append(t, new_addr, size, old->name_off, old->name_len);
}

/* The sweep's helpers: starts sorted by address, a max-heap of entry indices. */
struct jit_syms_start {
	uint64_t addr;
	uint32_t idx;
};

static int jit_syms__start_cmp(const void *a, const void *b)
{
	const struct jit_syms_start *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void jit_syms__heap_push(uint32_t *h, size_t *n, uint32_t v)
{
	size_t i = (*n)++, parent;

	for (; i && h[parent = (i - 1) / 2] < v; i = parent)
		h[i] = h[parent];
	h[i] = v;
}

static void jit_syms__heap_pop(uint32_t *h, size_t *n)
{
	uint32_t v = h[--(*n)];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && h[c + 1] > h[c])
			c++;
		if (h[c] <= v)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = v;
}

/*
 * Adds [from, to) of entry idx to the view; a piece right after one of the
 * same name joins it (a symbol split by an overlap and healed, a move next
 * to its source, one function compiled twice): the name is all a reader
 * gets from it.
 */
static int jit_syms__emit(struct jit_syms *t, size_t *alloc, uint64_t from, uint64_t to,
			  uint32_t idx)
{
	const struct jit_syms_entry *e = &t->entries[idx];
	const char *name = t->names + e->name_off;
	struct jit_sym *s;

	if (t->nr_sorted) {
		s = &t->sorted[t->nr_sorted - 1];
		if (s->addr + s->size == from && s->name_len == e->name_len &&
		    (s->name == name || !memcmp(s->name, name, e->name_len))) {
			s->size = to - s->addr;
			return 0;
		}
	}
	/* Pieces lie between two of the entries' ends: fewer than 2 per entry. */
	if (grow__array(&t->sorted, alloc, (size_t)t->nr_sorted + 1, sizeof(*s), 64,
			2 * (size_t)JIT_SYMS_MAX))
		return -ENOMEM;
	s = &t->sorted[t->nr_sorted++];
	s->addr = from;
	s->size = to - from;
	s->name = name;
	s->name_len = e->name_len;
	return 0;
}

/*
 * Later wins: walk the addresses where a symbol starts or ends; between two
 * of them the winner is the latest symbol covering them, the top of a heap
 * ordered by add index. Ended symbols leave the heap when they reach its
 * top: below a live one they cannot win.
 */
static int jit_syms__sweep(struct jit_syms *t, size_t *alloc)
{
	struct jit_syms_start *starts = malloc((size_t)t->nr * sizeof(*starts));
	uint32_t *heap = malloc((size_t)t->nr * sizeof(*heap));
	size_t i = 0, nh = 0;
	uint64_t cur = 0, next;
	int err = -ENOMEM;

	if (!starts || !heap)
		goto out;
	for (i = 0; i < t->nr; i++)
		starts[i] = (struct jit_syms_start){ t->entries[i].addr, (uint32_t)i };
	qsort(starts, t->nr, sizeof(*starts), jit_syms__start_cmp);
	err = 0;
	i = 0;
	while (i < t->nr || nh) {
		const struct jit_syms_entry *top;

		if (!nh)
			cur = starts[i].addr;
		while (i < t->nr && starts[i].addr == cur)
			jit_syms__heap_push(heap, &nh, starts[i++].idx);
		while (nh && t->entries[heap[0]].addr + t->entries[heap[0]].size <= cur)
			jit_syms__heap_pop(heap, &nh);
		if (!nh)
			continue;
		top = &t->entries[heap[0]];
		next = top->addr + top->size;
		if (i < t->nr && starts[i].addr < next)
			next = starts[i].addr;
		err = jit_syms__emit(t, alloc, cur, next, heap[0]);
		if (err)
			goto out;
		cur = next;
	}
out:
	free(starts);
	free(heap);
	return err;
}

int jit_syms__sorted(struct jit_syms *t, const struct jit_sym **syms, size_t *nr)
{
	size_t alloc = 0;
	uint32_t i;
	int err = 0;

	if (t->sorted_valid)
		goto done;
	/* Rebuilt whole: the old view's buffer size is not kept. */
	free(t->sorted);
	t->sorted = NULL;
	t->nr_sorted = 0;
	if (t->unsorted) {
		err = jit_syms__sweep(t, &alloc);
	} else {
		for (i = 0; i < t->nr && !err; i++)
			err = jit_syms__emit(t, &alloc, t->entries[i].addr,
					     t->entries[i].addr + t->entries[i].size, i);
	}
	if (err) {
		free(t->sorted);
		t->sorted = NULL;
		t->nr_sorted = 0;
		return err;
	}
	t->sorted_valid = true;
done:
	*syms = t->sorted;
	*nr = t->nr_sorted;
	return 0;
}
