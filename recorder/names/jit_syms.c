// SPDX-License-Identifier: GPL-2.0-only
/*
 * One process's JIT symbol table: the symbols in the order added (16 bytes
 * each), their names in one arena in the same order, past the bounds the
 * shadowed ones and then the oldest of both dropped together, a hash of
 * start addresses for moves made at the first one, and the overlap-free
 * view walked on demand (jit_syms.h says who wins and what each costs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "names/jit_syms.h"
#include "prec/grow.h"

/* The arena holds each entry's name in entry order, so the names of the
 * oldest entries lie first and a name ends where the next entry's starts. */
struct jit_syms_entry {
	uint64_t addr;
	uint32_t size; /* BIG_SIZE: the size is in t->big */
	uint32_t name_off;
};

struct jit_syms_big {
	uint32_t idx; /* the entry's index: t->big is sorted by it */
	uint64_t size;
};

#define BIG_SIZE UINT32_MAX
#define BIT(bits, i) ((bits)[(i) / 64] >> ((i) % 64) & 1)
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
	free(t->big);
	free(t->hash);
	free(t->sorted);
	jit_syms__init(t);
}

static uint64_t jit_syms__size(const struct jit_syms *t, uint32_t i)
{
	size_t lo = 0, hi = t->nr_big;

	if (t->entries[i].size != BIG_SIZE)
		return t->entries[i].size;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->big[mid].idx < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return t->big[lo].size;
}

static uint64_t jit_syms__end(const struct jit_syms *t, uint32_t i)
{
	return t->entries[i].addr + jit_syms__size(t, i);
}

/* Where entry i's name ends (its NUL), or would start for i == nr. */
static size_t jit_syms__name_at(const struct jit_syms *t, uint32_t i)
{
	return i < t->nr ? t->entries[i].name_off : t->names_len;
}

static size_t jit_syms__name_len(const struct jit_syms *t, uint32_t i)
{
	return jit_syms__name_at(t, i + 1) - t->entries[i].name_off - 1;
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

/* Every entry into the hash, in add order: the latest at an address wins. */
static void jit_syms__hash_fill(struct jit_syms *t)
{
	memset(t->hash, 0xff, ((size_t)t->hash_mask + 1) * sizeof(*t->hash));
	for (uint32_t i = 0; i < t->nr; i++)
		*jit_syms__find(t, t->entries[i].addr) = i;
}

/* Makes (or keeps) the hash at most half full for nr entries (a power of
 * two from 256, at most twice JIT_SYMS_MAX), refilled when it grows. */
static int jit_syms__hash_reserve(struct jit_syms *t, uint32_t nr)
{
	size_t slots = t->hash ? (size_t)t->hash_mask + 1 : 0, old = slots;

	if (grow__array(&t->hash, &slots, (size_t)nr * 2, sizeof(*t->hash), 256,
			2 * (size_t)JIT_SYMS_MAX))
		return -ENOMEM;
	if (slots == old)
		return 0;
	t->hash_mask = (uint32_t)(slots - 1);
	jit_syms__hash_fill(t);
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

/*
 * How many entries and bytes of names must go so that one more, with need
 * bytes of name, fits: a quarter of a bound at least, when one is reached.
 */
static void jit_syms__to_free(const struct jit_syms *t, size_t need, uint32_t *nr, size_t *bytes)
{
	*nr = t->nr >= JIT_SYMS_MAX ? JIT_SYMS_MAX / 4 : 0;
	*bytes = 0;
	if (t->names_len + need <= JIT_SYMS_NAMES_MAX)
		return;
	*bytes = t->names_len + need - JIT_SYMS_NAMES_MAX;
	if (*bytes < JIT_SYMS_NAMES_MAX / 4)
		*bytes = JIT_SYMS_NAMES_MAX / 4;
}

/* The fewest oldest entries, nr at least, whose names free bytes (their
 * names lie first in the arena); all the names together free more. */
static uint32_t jit_syms__oldest(const struct jit_syms *t, uint32_t nr, size_t bytes)
{
	uint32_t k = nr, hi = t->nr;

	while (bytes && k < hi) {
		uint32_t mid = k + (hi - k) / 2;

		if (jit_syms__name_at(t, mid) < bytes)
			k = mid + 1;
		else
			hi = mid;
	}
	return k;
}

/* After entries went: what is left may be sorted again, and the hash
 * holds the latest left at each address. */
static void jit_syms__settle(struct jit_syms *t)
{
	t->max_end = 0;
	t->unsorted = false;
	for (uint32_t i = 0; i < t->nr; i++) {
		if (t->entries[i].addr < t->max_end)
			t->unsorted = true;
		else
			t->max_end = jit_syms__end(t, i);
	}
	if (t->hash)
		jit_syms__hash_fill(t);
	t->sorted_valid = false;
}

/* Drops the k oldest entries and their names (the room is kept). */
static void jit_syms__drop(struct jit_syms *t, uint32_t k)
{
	size_t freed = jit_syms__name_at(t, k);
	uint32_t b = 0, i;

	if (!k)
		return;
	t->nr -= k;
	memmove(t->entries, t->entries + k, (size_t)t->nr * sizeof(*t->entries));
	memmove(t->names, t->names + freed, t->names_len - freed);
	t->names_len -= freed;
	while (b < t->nr_big && t->big[b].idx < k)
		b++;
	t->nr_big -= b;
	if (b) /* t->big may be NULL, and memmove must not see it */
		memmove(t->big, t->big + b, (size_t)t->nr_big * sizeof(*t->big));
	for (i = 0; i < t->nr_big; i++)
		t->big[i].idx -= k;
	for (i = 0; i < t->nr; i++)
		t->entries[i].name_off -= (uint32_t)freed;
	jit_syms__settle(t);
}

/* Room for one more entry of a name of len bytes, after k are dropped:
 * every allocation made before anything changes. */
static int jit_syms__reserve(struct jit_syms *t, uint32_t k, bool big, size_t len)
{
	size_t freed = jit_syms__name_at(t, k);
	uint32_t kept_big = t->nr_big;

	for (uint32_t b = 0; b < t->nr_big && t->big[b].idx < k; b++)
		kept_big--;
	if (grow__array(&t->entries, &t->alloc, (size_t)(t->nr - k) + 1, sizeof(*t->entries), 64,
			JIT_SYMS_MAX) ||
	    grow__array(&t->names, &t->names_alloc, t->names_len - freed + len + 1, 1, 4096,
			JIT_SYMS_NAMES_MAX) ||
	    (big && grow__array(&t->big, &t->big_alloc, (size_t)kept_big + 1, sizeof(*t->big), 8,
				JIT_SYMS_MAX)))
		return -ENOMEM;
	/* Dropping never grows the hash: it holds the entries before it. */
	if (t->hash && !k && jit_syms__hash_reserve(t, t->nr + 1))
		return -ENOMEM;
	return 0;
}

static int jit_syms__compact(struct jit_syms *t, uint32_t nr, size_t bytes, uint32_t *k,
			     uint32_t *shown);

/* Appends an entry and a copy of its name (len bytes, no NUL inside, not in
 * the arena); the range is checked. When a bound would be passed, the
 * entries the view does not show go first, then the oldest if too few did. */
static int jit_syms__append(struct jit_syms *t, uint64_t addr, uint64_t size, const char *name,
			    size_t len)
{
	uint32_t nr, k, shown;
	struct jit_syms_entry *e;
	size_t bytes;
	int err;

	jit_syms__to_free(t, len + 1, &nr, &bytes);
	k = shown = jit_syms__oldest(t, nr, bytes);
	/* A sorted table shows every entry: none is shadowed. */
	if (k && t->unsorted) {
		err = jit_syms__compact(t, nr, bytes, &k, &shown);
		if (err)
			return err;
	}
	err = jit_syms__reserve(t, k, size >= BIG_SIZE, len);
	if (err)
		return err;
	jit_syms__drop(t, k);
	t->dropped += shown;
	e = &t->entries[t->nr];
	e->addr = addr;
	e->size = size >= BIG_SIZE ? BIG_SIZE : (uint32_t)size;
	e->name_off = (uint32_t)t->names_len;
	if (size >= BIG_SIZE)
		t->big[t->nr_big++] = (struct jit_syms_big){ t->nr, size };
	memcpy(t->names + t->names_len, name, len);
	t->names[t->names_len + len] = '\0';
	t->names_len += len + 1;
	if (t->hash)
		*jit_syms__find(t, addr) = t->nr;
	t->nr++;
	if (addr < t->max_end)
		t->unsorted = true;
	else
		t->max_end = addr + size;
	t->sorted_valid = false;
	return 0;
}

int jit_syms__add(struct jit_syms *t, uint64_t addr, uint64_t size, const char *name,
		  size_t name_len)
{
	const char *nul = memchr(name, '\0', name_len);
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
	return jit_syms__append(t, addr, size, name, name_len);
}

int jit_syms__move(struct jit_syms *t, uint64_t old_addr, uint64_t new_addr, uint64_t size)
{
	char name[JIT_SYMS_NAME_MAX];
	uint32_t idx;
	size_t len;
	int err;

	if (!t->nr)
		return -ENOENT;
	/* The first move makes the hash: perf maps never pay for it. */
	if (!t->hash && jit_syms__hash_reserve(t, t->nr))
		return -ENOMEM;
	idx = *jit_syms__find(t, old_addr);
	if (idx == HASH_EMPTY)
		return -ENOENT;
	err = jit_syms__check_range(new_addr, size);
	if (err)
		return err;
	/* Copied out: the append may move the arena or drop the old entry. */
	len = jit_syms__name_len(t, idx);
	memcpy(name, t->names + t->entries[idx].name_off, len);
	return jit_syms__append(t, new_addr, size, name, len);
}

/* ---- the view ---- */

static int jit_syms__order_cmp(const void *a, const void *b, void *arg)
{
	const struct jit_syms_entry *e = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (e[x].addr != e[y].addr)
		return e[x].addr < e[y].addr ? -1 : 1;
	return x < y ? -1 : x > y;
}

int jit_syms__iter_start(struct jit_syms_iter *it, const struct jit_syms *t)
{
	memset(it, 0, sizeof(*it));
	it->t = t;
	if (!t->unsorted || !t->nr)
		return 0;
	it->order = malloc((size_t)t->nr * sizeof(*it->order));
	if (!it->order)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->nr; i++)
		it->order[i] = i;
	qsort_r(it->order, t->nr, sizeof(*it->order), jit_syms__order_cmp, t->entries);
	return 0;
}

void jit_syms__iter_rewind(struct jit_syms_iter *it)
{
	it->i = 0;
	it->nh = 0;
	it->cur = 0;
	it->have = false;
}

void jit_syms__iter_end(struct jit_syms_iter *it)
{
	free(it->order);
	free(it->heap);
	memset(it, 0, sizeof(*it));
}

/* The heap of entries covering the sweep's address, by add index. */
static int jit_syms__heap_push(struct jit_syms_iter *it, uint32_t v)
{
	uint32_t *h;
	size_t i, parent;

	if (grow__array(&it->heap, &it->heap_alloc, it->nh + 1, sizeof(*it->heap), 64,
			JIT_SYMS_MAX))
		return -ENOMEM;
	h = it->heap;
	for (i = it->nh++; i && h[parent = (i - 1) / 2] < v; i = parent)
		h[i] = h[parent];
	h[i] = v;
	return 0;
}

static void jit_syms__heap_pop(struct jit_syms_iter *it)
{
	uint32_t *h = it->heap, v = h[--it->nh];
	size_t i = 0, c, n = it->nh;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && h[c + 1] > h[c])
			c++;
		if (h[c] <= v)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = v;
}

/*
 * The next piece [*from, *to) of entry *idx: 1, 0 at the end, -ENOMEM. A
 * sorted table's pieces are its entries. Else later wins: walk the addresses
 * where a symbol starts or ends; between two of them the winner is the
 * latest symbol covering them, the top of a heap ordered by add index.
 * Ended symbols leave the heap when they reach its top: below a live one
 * they cannot win.
 */
static int jit_syms__piece(struct jit_syms_iter *it, uint64_t *from, uint64_t *to, uint32_t *idx)
{
	const struct jit_syms *t = it->t;
	const struct jit_syms_entry *e = t->entries;
	uint64_t next;

	if (!it->order) {
		if (it->i >= t->nr)
			return 0;
		*idx = it->i++;
		*from = e[*idx].addr;
		*to = jit_syms__end(t, *idx);
		return 1;
	}
	while (it->i < t->nr || it->nh) {
		if (!it->nh)
			it->cur = e[it->order[it->i]].addr;
		while (it->i < t->nr && e[it->order[it->i]].addr == it->cur)
			if (jit_syms__heap_push(it, it->order[it->i++]))
				return -ENOMEM;
		while (it->nh && jit_syms__end(t, it->heap[0]) <= it->cur)
			jit_syms__heap_pop(it);
		if (!it->nh)
			continue;
		next = jit_syms__end(t, it->heap[0]);
		if (it->i < t->nr && e[it->order[it->i]].addr < next)
			next = e[it->order[it->i]].addr;
		*from = it->cur;
		*to = next;
		*idx = it->heap[0];
		it->cur = next;
		return 1;
	}
	return 0;
}

static bool jit_syms__same_name(const struct jit_syms *t, uint32_t a, uint32_t b)
{
	size_t len = jit_syms__name_len(t, a);

	return a == b ||
	       (len == jit_syms__name_len(t, b) &&
		!memcmp(t->names + t->entries[a].name_off, t->names + t->entries[b].name_off, len));
}

/*
 * A piece right after one of the same name joins it (a symbol split by an
 * overlap and healed, a move next to its source, one function compiled
 * twice): the name is all a reader gets from it. One piece is read ahead.
 */
int jit_syms__iter_next(struct jit_syms_iter *it, struct jit_sym *s)
{
	const struct jit_syms *t = it->t;
	uint64_t from, to;
	uint32_t idx;
	int ret;

	if (!it->have) {
		ret = jit_syms__piece(it, &it->from, &it->to, &it->idx);
		if (ret <= 0)
			return ret;
	}
	from = it->from;
	to = it->to;
	idx = it->idx;
	it->have = false;
	while ((ret = jit_syms__piece(it, &it->from, &it->to, &it->idx)) > 0) {
		if (it->from != to || !jit_syms__same_name(t, idx, it->idx)) {
			it->have = true;
			break;
		}
		to = it->to;
	}
	if (ret < 0)
		return ret;
	s->addr = from;
	s->size = to - from;
	s->name = t->names + t->entries[idx].name_off;
	s->name_len = jit_syms__name_len(t, idx);
	return 1;
}

int jit_syms__sorted(struct jit_syms *t, const struct jit_sym **syms, size_t *nr)
{
	struct jit_syms_iter it;
	struct jit_sym s;
	size_t alloc = 0;
	int err, ret = 0;

	if (t->sorted_valid)
		goto done;
	/* Rebuilt whole: the old view's buffer size is not kept. */
	free(t->sorted);
	t->sorted = NULL;
	t->nr_sorted = 0;
	err = jit_syms__iter_start(&it, t);
	/* Pieces lie between two of the entries' ends: fewer than 2 per entry. */
	while (!err && (ret = jit_syms__iter_next(&it, &s)) > 0) {
		if (grow__array(&t->sorted, &alloc, (size_t)t->nr_sorted + 1, sizeof(s), 64,
				2 * (size_t)JIT_SYMS_MAX)) {
			ret = -ENOMEM;
			break;
		}
		t->sorted[t->nr_sorted++] = s;
	}
	jit_syms__iter_end(&it);
	if (!err && ret < 0)
		err = ret;
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

/* ---- compaction: the entries the view does not show go first ---- */

static void jit_syms__bit_put(uint64_t *bits, uint32_t i, bool on)
{
	bits[i / 64] = (bits[i / 64] & ~(1ULL << (i % 64))) | ((uint64_t)on << (i % 64));
}

/*
 * Marks in vis the entries of an unsorted table that the view shows (each
 * wins a piece of the sweep: the others are shadowed, every byte covered by
 * later ones), and in keep, where an address starts an entry shown, the
 * latest starting there: a move from there must find it, not an older one.
 * Returns 0 or -ENOMEM.
 */
static int jit_syms__mark(const struct jit_syms *t, uint64_t *vis, uint64_t *keep)
{
	const struct jit_syms_entry *e = t->entries;
	struct jit_syms_iter it;
	uint64_t from, to;
	uint32_t idx, i, j;
	bool shown;
	int ret;

	ret = jit_syms__iter_start(&it, t) ?: 1;
	while (ret > 0 && (ret = jit_syms__piece(&it, &from, &to, &idx)) > 0)
		jit_syms__bit_put(vis, idx, true);
	for (i = 0; !ret && i < t->nr; i = j) {
		for (j = i, shown = false; j < t->nr && e[it.order[j]].addr == e[it.order[i]].addr;
		     j++)
			shown |= BIT(vis, it.order[j]);
		jit_syms__bit_put(keep, it.order[j - 1], shown);
	}
	jit_syms__iter_end(&it);
	return ret;
}

/* Keeps the entries marked in vis or keep, with their names and big sizes, in
 * order; vis follows them (bit j: the j-th kept is shown). */
static void jit_syms__squeeze(struct jit_syms *t, uint64_t *vis, const uint64_t *keep)
{
	uint32_t i, j = 0, b = 0, nb = 0;
	size_t off = 0;

	for (i = 0; i < t->nr; i++) {
		size_t at = t->entries[i].name_off, len = jit_syms__name_at(t, i + 1) - at;
		bool big = t->entries[i].size == BIG_SIZE, shown = BIT(vis, i);
		uint64_t size = big ? t->big[b++].size : 0;

		if (!shown && !BIT(keep, i))
			continue;
		memmove(t->names + off, t->names + at, len);
		t->entries[j] = t->entries[i];
		t->entries[j].name_off = (uint32_t)off;
		if (big)
			t->big[nb++] = (struct jit_syms_big){ j, size };
		jit_syms__bit_put(vis, j++, shown);
		off += len;
	}
	t->nr = j;
	t->names_len = off;
	t->nr_big = nb;
	jit_syms__settle(t);
}

/*
 * Before the oldest go, the entries the view does not show go (counted in
 * compacted, not dropped: the view stays the same); nr entries and bytes of
 * names were to be freed. *k: how many of the oldest must still go, *shown:
 * how many of those the view shows. Returns 0 or -ENOMEM (nothing changed).
 */
static int jit_syms__compact(struct jit_syms *t, uint32_t nr, size_t bytes, uint32_t *k,
			     uint32_t *shown)
{
	size_t words = ((size_t)t->nr + 63) / 64, names = t->names_len;
	uint64_t *vis = calloc(2 * words, sizeof(*vis));
	uint32_t before = t->nr, gone, i;
	int err;

	if (!vis)
		return -ENOMEM;
	err = jit_syms__mark(t, vis, vis + words);
	if (!err) {
		jit_syms__squeeze(t, vis, vis + words);
		gone = before - t->nr;
		t->compacted += gone;
		bytes = bytes > names - t->names_len ? bytes - (names - t->names_len) : 0;
		*k = jit_syms__oldest(t, nr > gone ? nr - gone : 0, bytes);
		for (*shown = 0, i = 0; i < *k; i++)
			*shown += BIT(vis, i);
	}
	free(vis);
	return err;
}
