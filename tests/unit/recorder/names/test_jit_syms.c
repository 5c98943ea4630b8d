// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JIT symbol table against a model that paints each byte of a small
 * address space with the latest symbol over it: every arrangement of two
 * symbols, random tables of many, moves; then the edges (zero sizes, the
 * top of the address space, names cut at their NUL and at the bound, the
 * symbol and name-byte bounds keeping the newest, sizes past 4 GiB), the
 * walk against the array, and 100k-symbol tables in the orders JITs and
 * hostile files produce (correctness only: no timing is asserted).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/names/jit_syms.h"

#define SPACE 48 /* the model's addresses: [BASE, BASE + SPACE) */

/* Each symbol gets a unique name "sN"; the model paints bytes with N + 1. */
struct model {
	uint32_t owner[SPACE];
	uint32_t nr;
};

static uint64_t base_addr = 0x7f0000000000ULL;

static void both_add(struct jit_syms *t, struct model *m, uint64_t off, uint64_t size)
{
	char name[16];
	int n = snprintf(name, sizeof(name), "s%u", m->nr);

	assert_int_equal(jit_syms__add(t, base_addr + off, size, name, (size_t)n), 0);
	m->nr++;
	for (uint64_t a = off; a < off + size && a < SPACE; a++)
		m->owner[a] = m->nr;
}

/* The table's view must be the model's bytes, in maximal pieces per name. */
static void check(struct jit_syms *t, const struct model *m, const char *what)
{
	const struct jit_sym *s;
	size_t nr, k = 0;
	uint64_t a = 0;
	char name[16];

	assert_int_equal(jit_syms__sorted(t, &s, &nr), 0);
	while (a < SPACE) {
		uint64_t from;

		if (!m->owner[a]) {
			a++;
			continue;
		}
		from = a;
		while (a < SPACE && m->owner[a] == m->owner[from])
			a++;
		snprintf(name, sizeof(name), "s%u", m->owner[from] - 1);
		if (k >= nr || s[k].addr != base_addr + from || s[k].size != a - from ||
		    strcmp(s[k].name, name) || s[k].name_len != strlen(name))
			fail_msg("%s: piece %zu: want [%llu, %llu) %s, got %s", what, k,
				 (unsigned long long)from, (unsigned long long)a, name,
				 k < nr ? s[k].name : "nothing");
		k++;
	}
	if (k != nr)
		fail_msg("%s: %zu pieces, want %zu", what, nr, k);
}

static void test_two_symbols_every_arrangement(void **state)
{
	char what[64];

	(void)state;
	for (uint64_t a1 = 0; a1 < 6; a1++)
		for (uint64_t s1 = 1; s1 < 6; s1++)
			for (uint64_t a2 = 0; a2 < 8; a2++)
				for (uint64_t s2 = 1; s2 < 8; s2++) {
					struct jit_syms t;
					struct model m = { 0 };

					jit_syms__init(&t);
					both_add(&t, &m, a1, s1);
					both_add(&t, &m, a2, s2);
					snprintf(what, sizeof(what), "[%llu+%llu] then [%llu+%llu]",
						 (unsigned long long)a1, (unsigned long long)s1,
						 (unsigned long long)a2, (unsigned long long)s2);
					check(&t, &m, what);
					jit_syms__exit(&t);
				}
}

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void test_random_tables(void **state)
{
	char what[64];

	(void)state;
	for (int round = 0; round < 3000; round++) {
		struct jit_syms t;
		struct model m = { 0 };
		int n = 1 + (int)(rng() % 12);

		jit_syms__init(&t);
		for (int i = 0; i < n; i++) {
			uint64_t off = rng() % SPACE, size = 1 + rng() % 16;

			if (off + size > SPACE)
				size = SPACE - off;
			both_add(&t, &m, off, size);
			/* the view asked for in the middle must not change what comes after */
			if (rng() % 4 == 0) {
				snprintf(what, sizeof(what), "round %d after %d", round, i);
				check(&t, &m, what);
			}
		}
		snprintf(what, sizeof(what), "round %d", round);
		check(&t, &m, what);
		jit_syms__exit(&t);
	}
}

static void test_move(void **state)
{
	struct jit_syms t;
	struct model m = { 0 };
	const struct jit_sym *s;
	size_t nr;

	(void)state;
	jit_syms__init(&t);
	assert_int_equal(jit_syms__move(&t, base_addr, base_addr + 8, 4), -ENOENT);
	both_add(&t, &m, 0, 8); /* s0 */
	both_add(&t, &m, 4, 8); /* s1 trims s0 */
	/* s0's code moves to [20, 28): the old range stays */
	assert_int_equal(jit_syms__move(&t, base_addr, base_addr + 20, 8), 0);
	for (int a = 20; a < 28; a++)
		m.owner[a] = 1;
	check(&t, &m, "move of a trimmed symbol");
	/* by start address only, and the range is checked like an add */
	assert_int_equal(jit_syms__move(&t, base_addr + 1, base_addr + 30, 1), -ENOENT);
	assert_int_equal(jit_syms__move(&t, base_addr + 4, base_addr + 30, 0), -EINVAL);
	assert_int_equal(jit_syms__move(&t, base_addr + 4, UINT64_MAX, 1), -ERANGE);
	/* a move lands under what came before it: it wins there */
	assert_int_equal(jit_syms__move(&t, base_addr + 4, base_addr + 2, 2), 0);
	m.owner[2] = m.owner[3] = 2;
	check(&t, &m, "move over older code");
	/* the latest symbol at an address is the one moved */
	both_add(&t, &m, 20, 2); /* s2 */
	assert_int_equal(jit_syms__move(&t, base_addr + 20, base_addr + 40, 2), 0);
	m.owner[40] = m.owner[41] = 3;
	check(&t, &m, "move of the latest at an address");
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_string_equal(s[nr - 1].name, "s2");
	jit_syms__exit(&t);

	/* still the latest after the hash of start addresses grew and was rebuilt */
	jit_syms__init(&t);
	assert_int_equal(jit_syms__add(&t, 0x1000, 16, "old", 3), 0);
	assert_int_equal(jit_syms__add(&t, 0x1000, 16, "new", 3), 0);
	for (uint64_t i = 0; i < 1000; i++)
		assert_int_equal(jit_syms__add(&t, 0x10000 + 32 * i, 16, "x", 1), 0);
	assert_int_equal(jit_syms__move(&t, 0x1000, 0x2000, 16), 0);
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_int_equal(s[1].addr, 0x2000);
	assert_string_equal(s[1].name, "new");
	jit_syms__exit(&t);
}

static void test_edges(void **state)
{
	struct jit_syms t;
	const struct jit_sym *s, *again;
	size_t nr, nr2;
	char *big = malloc(JIT_SYMS_NAME_MAX + 10);

	(void)state;
	assert_non_null(big);
	jit_syms__init(&t);
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_int_equal(nr, 0);
	assert_int_equal(jit_syms__add(&t, 0x1000, 0, "zero", 4), -EINVAL);
	assert_int_equal(jit_syms__add(&t, 0x1000, 1, "", 0), -EINVAL);
	assert_int_equal(jit_syms__add(&t, 0x1000, 1, "\0x", 2), -EINVAL);
	/* the top of the address space: the end must be representable */
	assert_int_equal(jit_syms__add(&t, UINT64_MAX, 1, "x", 1), -ERANGE);
	assert_int_equal(jit_syms__add(&t, UINT64_MAX - 15, 16, "x", 1), -ERANGE);
	assert_int_equal(jit_syms__add(&t, 1, UINT64_MAX, "x", 1), -ERANGE);
	assert_int_equal(jit_syms__add(&t, 0, UINT64_MAX, "all", 3), 0);
	assert_int_equal(jit_syms__add(&t, UINT64_MAX - 16, 16, "top", 3), 0);
	assert_int_equal(jit_syms__add(&t, UINT64_MAX - 20, 8, "below", 5), 0);
	/* names: cut at the NUL, at the bound; copied */
	memcpy(big, "ab\0cd", 5);
	assert_int_equal(jit_syms__add(&t, 0x1000, 0x10, big, 5), 0);
	memset(big, 'n', JIT_SYMS_NAME_MAX + 10);
	assert_int_equal(jit_syms__add(&t, 0x2000, 0x10, big, JIT_SYMS_NAME_MAX + 10), 0);
	memset(big, 'X', JIT_SYMS_NAME_MAX + 10);
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_int_equal(nr, 7);
	assert_int_equal(s[0].addr, 0);
	assert_int_equal(s[0].size, 0x1000);
	assert_string_equal(s[0].name, "all");
	assert_string_equal(s[1].name, "ab");
	assert_int_equal(s[1].name_len, 2);
	assert_int_equal(s[3].name_len, JIT_SYMS_NAME_MAX);
	assert_int_equal(strlen(s[3].name), JIT_SYMS_NAME_MAX);
	assert_int_equal(s[3].name[0], 'n');
	assert_string_equal(s[5].name, "below");
	assert_int_equal(s[5].addr, UINT64_MAX - 20);
	assert_string_equal(s[6].name, "top");
	assert_int_equal(s[6].addr + s[6].size, UINT64_MAX);
	assert_int_equal(s[4].addr + s[4].size, UINT64_MAX - 20);
	/* unchanged: the same view */
	assert_int_equal(jit_syms__sorted(&t, &again, &nr2), 0);
	assert_ptr_equal(again, s);
	assert_int_equal(nr2, nr);
	jit_syms__exit(&t);
	jit_syms__exit(&t);
	jit_syms__exit(NULL);
	free(big);
}

/* The view's symbols by name: the first and last, and how many. */
static size_t view(struct jit_syms *t, const struct jit_sym **s)
{
	size_t nr;

	assert_int_equal(jit_syms__sorted(t, s, &nr), 0);
	return nr;
}

static void test_bounds(void **state)
{
	struct jit_syms t;
	const struct jit_sym *s;
	char *name = malloc(JIT_SYMS_NAME_MAX);
	uint32_t i, k;
	int err = 0;

	(void)state;
	assert_non_null(name);
	/* symbols: the one past the bound drops the oldest quarter */
	jit_syms__init(&t);
	for (i = 0; i < JIT_SYMS_MAX; i++)
		assert_int_equal(jit_syms__add(&t, 32ULL * i, 16, "f", 1), 0);
	assert_int_equal(t.dropped, 0);
	assert_int_equal(view(&t, &s), JIT_SYMS_MAX);
	assert_int_equal(jit_syms__add(&t, 32ULL * i, 16, "g", 1), 0);
	assert_int_equal(t.dropped, JIT_SYMS_MAX / 4);
	assert_int_equal(view(&t, &s), JIT_SYMS_MAX - JIT_SYMS_MAX / 4 + 1);
	assert_int_equal(s[0].addr, 32ULL * (JIT_SYMS_MAX / 4));
	assert_string_equal(s[JIT_SYMS_MAX - JIT_SYMS_MAX / 4].name, "g");
	/* moves count as symbols, and a dropped one is gone */
	assert_int_equal(jit_syms__move(&t, 0, 1ULL << 40, 1), -ENOENT);
	for (i = 0; i < JIT_SYMS_MAX / 4 - 1; i++)
		assert_int_equal(jit_syms__move(&t, 32ULL * JIT_SYMS_MAX, (1ULL << 40) + i, 1), 0);
	assert_int_equal(t.dropped, JIT_SYMS_MAX / 4);
	assert_int_equal(jit_syms__move(&t, 32ULL * JIT_SYMS_MAX, 1ULL << 41, 1), 0);
	assert_int_equal(t.dropped, JIT_SYMS_MAX / 2);
	assert_int_equal(jit_syms__move(&t, 32ULL * (JIT_SYMS_MAX / 2 - 1), 1ULL << 42, 1),
			 -ENOENT);
	assert_int_equal(jit_syms__move(&t, 32ULL * (JIT_SYMS_MAX / 2), 1ULL << 42, 1), 0);
	/* the f kept, g, its moves (the adjacent ones joined), the f moved */
	assert_int_equal(view(&t, &s), JIT_SYMS_MAX / 2 + 4);
	assert_int_equal(s[0].addr, 32ULL * (JIT_SYMS_MAX / 2));
	assert_string_equal(s[JIT_SYMS_MAX / 2].name, "g");
	assert_int_equal(s[JIT_SYMS_MAX / 2 + 1].addr, 1ULL << 40);
	assert_int_equal(s[JIT_SYMS_MAX / 2 + 1].size, JIT_SYMS_MAX / 4 - 1);
	assert_string_equal(s[JIT_SYMS_MAX / 2 + 3].name, "f");
	jit_syms__exit(&t);

	/* name bytes: the add that would pass the bound drops the oldest names
	 * that free a quarter of it, and goes in */
	memset(name, 'n', JIT_SYMS_NAME_MAX);
	jit_syms__init(&t);
	for (i = 0; i < JIT_SYMS_NAMES_MAX / JIT_SYMS_NAME_MAX + 1 && !t.dropped; i++)
		assert_int_equal(jit_syms__add(&t, 4096ULL * i, 16, name, JIT_SYMS_NAME_MAX), 0);
	assert_int_equal(i - 1, JIT_SYMS_NAMES_MAX / (JIT_SYMS_NAME_MAX + 1));
	k = (JIT_SYMS_NAMES_MAX / 4 + JIT_SYMS_NAME_MAX) / (JIT_SYMS_NAME_MAX + 1);
	assert_int_equal(t.dropped, k);
	assert_true(t.names_len <= JIT_SYMS_NAMES_MAX);
	assert_int_equal(jit_syms__add(&t, 1ULL << 50, 16, "short", 5), 0);
	assert_int_equal(view(&t, &s), i + 1 - k);
	assert_int_equal(s[0].addr, 4096ULL * k);
	assert_string_equal(s[i - k].name, "short");
	/* at new addresses: the same one again would only shadow the last */
	for (i = 0; !err && t.dropped == k; i++)
		err = jit_syms__add(&t, (1ULL << 51) + 4096ULL * i, 16, name, JIT_SYMS_NAME_MAX);
	assert_int_equal(err, 0);
	assert_true(t.names_len <= JIT_SYMS_NAMES_MAX);
	jit_syms__exit(&t);
	free(name);
}

/* What is kept past the bound is still the latest over its bytes: an old
 * symbol dropped stops showing between the newer ones; sizes past 4 GiB,
 * the sorted flag and the moves' hash follow the entries that stay. */
#define KEPT ((1ULL << 40) + 0x1000)

static void test_bounds_keep_newest(void **state)
{
	struct jit_syms t;
	const struct jit_sym *s;
	size_t nr;
	uint32_t i;

	(void)state;
	jit_syms__init(&t);
	assert_int_equal(jit_syms__add(&t, 0, 1ULL << 40, "old", 3), 0);
	assert_int_equal(jit_syms__add(&t, 0x1000, 1ULL << 36, "huge", 4), 0);
	assert_int_equal(jit_syms__move(&t, 0x1000, 1ULL << 44, 1ULL << 33), 0);
	for (i = 3; i < JIT_SYMS_MAX / 4; i++)
		assert_int_equal(jit_syms__add(&t, (1ULL << 41) + 64 * i, 32, "f", 1), 0);
	assert_int_equal(jit_syms__add(&t, KEPT, 1ULL << 35, "kept", 4), 0);
	for (i++; i < JIT_SYMS_MAX; i++)
		assert_int_equal(jit_syms__add(&t, (1ULL << 41) + 64 * i, 32, "f", 1), 0);
	assert_true(t.unsorted);
	nr = view(&t, &s);
	assert_string_equal(s[0].name, "old");
	assert_string_equal(s[1].name, "huge");
	assert_int_equal(s[1].size, 1ULL << 36);
	assert_int_equal(jit_syms__move(&t, 0x1000, 1ULL << 45, 16), 0);
	assert_int_equal(t.dropped, JIT_SYMS_MAX / 4);
	/* "old", "huge" and its move are gone; what is left is in order again */
	assert_false(t.unsorted);
	assert_int_equal(jit_syms__move(&t, 0x1000, 1ULL << 46, 16), -ENOENT);
	assert_int_equal(jit_syms__move(&t, KEPT, 1ULL << 46, 1ULL << 32), 0);
	nr = view(&t, &s);
	assert_int_equal(nr, 3 * (JIT_SYMS_MAX / 4) + 2);
	assert_string_equal(s[0].name, "kept");
	assert_int_equal(s[0].size, 1ULL << 35);
	assert_string_equal(s[1].name, "f");
	assert_int_equal(s[1].addr, (1ULL << 41) + 64ULL * (JIT_SYMS_MAX / 4 + 1));
	assert_string_equal(s[nr - 2].name, "huge");
	assert_int_equal(s[nr - 2].addr, 1ULL << 45);
	assert_int_equal(s[nr - 2].size, 16);
	assert_string_equal(s[nr - 1].name, "kept");
	assert_int_equal(s[nr - 1].size, 1ULL << 32);
	/* a newer symbol still wins over an older one kept */
	assert_int_equal(jit_syms__add(&t, KEPT + 16, 16, "newer", 5), 0);
	assert_true(t.unsorted);
	nr = view(&t, &s);
	assert_string_equal(s[0].name, "kept");
	assert_int_equal(s[0].size, 16);
	assert_string_equal(s[1].name, "newer");
	assert_string_equal(s[2].name, "kept");
	assert_int_equal(s[2].addr, KEPT + 32);
	assert_int_equal(s[2].size, (1ULL << 35) - 32);
	jit_syms__exit(&t);
}

/* The walk gives the array's symbols, again after a rewind; a sorted
 * table's walk needs no order. */
static void test_iter(void **state)
{
	struct jit_syms t;
	struct jit_syms_iter it;
	const struct jit_sym *s;
	struct jit_sym one;
	size_t nr;
	char name[16];

	(void)state;
	jit_syms__init(&t);
	assert_int_equal(jit_syms__iter_start(&it, &t), 0);
	assert_int_equal(jit_syms__iter_next(&it, &one), 0);
	jit_syms__iter_end(&it);
	for (int sorted = 1; sorted >= 0; sorted--) {
		for (uint64_t i = 0; i < 2000; i++) {
			uint64_t off = sorted ? 8 * i : rng() % 4096, size = 1 + rng() % 8;
			int n = snprintf(name, sizeof(name), "n%llu", (unsigned long long)(i % 7));

			assert_int_equal(jit_syms__add(&t, 0x1000 + off, size, name, (size_t)n), 0);
		}
		assert_int_equal(t.unsorted, !sorted);
		nr = view(&t, &s);
		assert_int_equal(jit_syms__iter_start(&it, &t), 0);
		assert_true(sorted ? !it.order : !!it.order);
		for (int round = 0; round < 2; round++) {
			size_t k = 0;

			while (jit_syms__iter_next(&it, &one) > 0) {
				assert_true(k < nr);
				assert_int_equal(one.addr, s[k].addr);
				assert_int_equal(one.size, s[k].size);
				assert_ptr_equal(one.name, s[k].name);
				assert_int_equal(one.name_len, s[k].name_len);
				k++;
			}
			assert_int_equal(k, nr);
			jit_syms__iter_rewind(&it);
		}
		jit_syms__iter_end(&it);
	}
	jit_syms__exit(&t);
}

static void test_100k(void **state)
{
	enum { N = 100000 };
	struct jit_syms t;
	const struct jit_sym *s;
	size_t nr;
	char name[32];
	int n;

	(void)state;
	/* increasing, as JITs write: stays sorted, one piece each */
	jit_syms__init(&t);
	for (uint64_t i = 0; i < N; i++) {
		n = snprintf(name, sizeof(name), "f%llu", (unsigned long long)i);
		assert_int_equal(jit_syms__add(&t, 0x1000 + 64 * i, 48, name, (size_t)n), 0);
	}
	assert_false(t.unsorted);
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_int_equal(nr, N);
	assert_string_equal(s[N - 1].name, "f99999");
	jit_syms__exit(&t);

	/* decreasing, each overlapping the one before by half: the later half wins */
	jit_syms__init(&t);
	for (uint64_t i = 0; i < N; i++) {
		n = snprintf(name, sizeof(name), "g%llu", (unsigned long long)i);
		assert_int_equal(jit_syms__add(&t, 64ULL * (N - i), 128, name, (size_t)n), 0);
	}
	assert_true(t.unsorted);
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_int_equal(nr, N);
	assert_string_equal(s[0].name, "g99999");
	assert_int_equal(s[0].size, 128);
	for (size_t i = 1; i < nr; i++)
		assert_true(s[i].addr == s[i - 1].addr + s[i - 1].size && s[i].size == 64);
	jit_syms__exit(&t);

	/* the same address again and again, and nested ranges shrinking inward */
	jit_syms__init(&t);
	for (uint64_t i = 0; i < N; i++) {
		assert_int_equal(jit_syms__add(&t, 0x1000, 32, "same", 4), 0);
		assert_int_equal(jit_syms__add(&t, 0x100000 + i, 2 * (N - i), "nest", 4), 0);
		assert_int_equal(jit_syms__move(&t, 0x1000, 0x1000 + 16 * (i % 8), 32), 0);
	}
	/* one piece each: adjacent pieces of one name are joined */
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(s[0].addr, 0x1000);
	assert_int_equal(s[0].size, 16 * 7 + 32);
	assert_int_equal(s[1].addr, 0x100000);
	assert_int_equal(s[1].size, 2 * N);
	jit_syms__exit(&t);
}

/*
 * Past the bound, the shadowed symbols go first and the view stays the
 * same. A model with an entry id per byte (the latest over it), each entry
 * naming itself or, moved, its source; a move the table refuses must be
 * from an address where no entry starting there is shown (unless some
 * were dropped). dense: the
 * symbols shadow each other so much that nothing shown is ever dropped (the
 * view is the model's); else the oldest shown go too: what the table shows
 * is the model's, an entry shown in the model shows whole or not at all,
 * and those not at all are `dropped` at most.
 */
struct big_model {
	uint32_t *ent, *cnt, *name_of, *prev_at, *latest_at;
	uint64_t space;
	uint32_t nr;
};

static void big_paint(struct big_model *m, uint64_t off, uint64_t size, uint32_t name)
{
	uint32_t id = ++m->nr;

	m->name_of[id] = name;
	m->prev_at[id] = m->latest_at[off];
	m->latest_at[off] = id;
	for (uint64_t a = off; a < off + size; a++) {
		m->cnt[m->ent[a]]--;
		m->ent[a] = id;
		m->cnt[id]++;
	}
}

static void big_op(struct jit_syms *t, struct big_model *m, uint64_t maxsz)
{
	uint64_t off = rng() % m->space, size = 1 + rng() % maxsz, from = rng() % m->space;
	char name[16];
	int n, err;

	if (off + size > m->space)
		size = m->space - off;
	if (rng() % 32 || !m->latest_at[from]) {
		n = snprintf(name, sizeof(name), "s%u", m->nr + 1);
		assert_int_equal(jit_syms__add(t, base_addr + off, size, name, (size_t)n), 0);
		big_paint(m, off, size, m->nr + 1);
		return;
	}
	err = jit_syms__move(t, base_addr + from, base_addr + off, size);
	if (!err) {
		big_paint(m, off, size, m->name_of[m->latest_at[from]]);
		return;
	}
	assert_int_equal(err, -ENOENT);
	for (uint32_t id = m->latest_at[from]; id; id = m->prev_at[id])
		assert_true(!m->cnt[id] || t->dropped); /* shadowed, or the oldest */
}

/* The table's view against the model, byte by byte: returns how many
 * entries the model shows that the table does not. */
static uint32_t big_check(struct jit_syms *t, const struct big_model *m, bool whole)
{
	const struct jit_sym *s;
	size_t nr;
	uint32_t *seen = calloc(m->nr + 1, sizeof(*seen)), lost = 0;
	uint64_t a = 0, end;
	char name[16];

	assert_non_null(seen);
	assert_int_equal(jit_syms__sorted(t, &s, &nr), 0);
	for (size_t k = 0; k < nr; k++, a = end) {
		assert_true(s[k].addr >= base_addr + a &&
			    s[k].addr + s[k].size <= base_addr + m->space);
		for (; base_addr + a < s[k].addr; a++)
			assert_true(!whole && (!m->ent[a] || !seen[m->ent[a]]));
		for (end = a + s[k].size; a < end; a++) {
			snprintf(name, sizeof(name), "s%u", m->name_of[m->ent[a]]);
			assert_string_equal(s[k].name, name);
			seen[m->ent[a]]++;
		}
	}
	for (uint32_t id = 1; id <= m->nr; id++) {
		assert_true(seen[id] == 0 || seen[id] == m->cnt[id]);
		lost += m->cnt[id] && !seen[id];
	}
	assert_true(!whole || !lost);
	free(seen);
	return lost;
}

static void random_past_bound(uint64_t space, uint64_t maxsz, uint32_t ops, bool dense)
{
	struct big_model m = { .space = space };
	struct jit_syms t;
	uint32_t lost = 0;

	m.ent = calloc(space, sizeof(uint32_t));
	m.latest_at = calloc(space, sizeof(uint32_t));
	m.cnt = calloc(ops + 1, sizeof(uint32_t));
	m.name_of = calloc(ops + 1, sizeof(uint32_t));
	m.prev_at = calloc(ops + 1, sizeof(uint32_t));
	assert_true(m.ent && m.latest_at && m.cnt && m.name_of && m.prev_at);
	jit_syms__init(&t);
	for (uint32_t i = 0; i < ops; i++) {
		big_op(&t, &m, maxsz);
		if (i % (JIT_SYMS_MAX / 2) == JIT_SYMS_MAX / 2 - 1)
			lost = big_check(&t, &m, dense);
	}
	lost = big_check(&t, &m, dense);
	assert_true(t.compacted > 0);
	assert_true(t.nr <= JIT_SYMS_MAX);
	if (dense)
		assert_int_equal(t.dropped, 0);
	else
		assert_true(t.dropped > 0 && lost <= t.dropped);
	jit_syms__exit(&t);
	free(m.ent);
	free(m.latest_at);
	free(m.cnt);
	free(m.name_of);
	free(m.prev_at);
}

static void test_shadowed_go_first_random(void **state)
{
	(void)state;
	random_past_bound(1 << 16, 64, 2 * JIT_SYMS_MAX + JIT_SYMS_MAX / 3, true);
	random_past_bound(1 << 22, 4, JIT_SYMS_MAX + JIT_SYMS_MAX / 2, false);
}

/* Code space reused: most symbols rewritten at the same addresses; the very
 * first, never overwritten, are kept past the bound, nothing shown drops. */
static void test_shadowed_go_first(void **state)
{
	struct jit_syms t;
	const struct jit_sym *s;
	char name[16];
	uint32_t i;
	size_t nr;
	int n;

	(void)state;
	jit_syms__init(&t);
	for (i = 0; i < 1000; i++) {
		n = snprintf(name, sizeof(name), "first%u", i);
		assert_int_equal(jit_syms__add(&t, 0x1000 + 32ULL * i, 16, name, (size_t)n), 0);
	}
	for (i = 0; i < 3 * JIT_SYMS_MAX; i++) {
		n = snprintf(name, sizeof(name), "r%u", i);
		assert_int_equal(
			jit_syms__add(&t, 0x100000 + 32ULL * (i % 5000), 16, name, (size_t)n), 0);
	}
	assert_int_equal(t.dropped, 0);
	assert_true(t.compacted >= 2 * JIT_SYMS_MAX);
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_int_equal(nr, 6000);
	assert_string_equal(s[0].name, "first0");
	assert_string_equal(s[999].name, "first999");
	n = snprintf(name, sizeof(name), "r%u", 3 * JIT_SYMS_MAX - 1);
	assert_string_equal(s[1000 + (3 * JIT_SYMS_MAX - 1) % 5000].name, name);
	jit_syms__exit(&t);
}

/* Shadowed ones freeing less than the quarter: the oldest shown make up the
 * rest, and only they count as dropped. */
static void test_shadowed_then_oldest(void **state)
{
	struct jit_syms t;
	const struct jit_sym *s;
	size_t nr;
	uint32_t i;

	(void)state;
	jit_syms__init(&t);
	for (i = 0; i < JIT_SYMS_MAX / 8; i++)
		assert_int_equal(jit_syms__add(&t, 32ULL * i, 16, "old", 3), 0);
	for (i = 0; i < JIT_SYMS_MAX / 8; i++)
		assert_int_equal(jit_syms__add(&t, 32ULL * i, 16, "new", 3), 0);
	for (i = JIT_SYMS_MAX / 4; i < JIT_SYMS_MAX; i++)
		assert_int_equal(jit_syms__add(&t, 32ULL * i, 16, "f", 1), 0);
	assert_int_equal(t.dropped + t.compacted, 0);
	assert_int_equal(jit_syms__add(&t, 32ULL * i, 16, "g", 1), 0);
	assert_int_equal(t.compacted, JIT_SYMS_MAX / 8);
	assert_int_equal(t.dropped, JIT_SYMS_MAX / 8);
	assert_false(t.unsorted);
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_int_equal(nr, 3 * (JIT_SYMS_MAX / 4) + 1);
	assert_int_equal(s[0].addr, 32ULL * (JIT_SYMS_MAX / 4));
	assert_string_equal(s[nr - 1].name, "g");
	jit_syms__exit(&t);
}

/* A shadowed symbol the latest at an address where an older one shows stays:
 * a move from there takes its name; one with none shown there goes. */
static void test_shadowed_moves(void **state)
{
	struct jit_syms t;
	const struct jit_sym *s;
	size_t nr;
	uint32_t i;

	(void)state;
	jit_syms__init(&t);
	assert_int_equal(jit_syms__add(&t, 10, 20, "f", 1), 0); /* shows [25, 30) */
	assert_int_equal(jit_syms__add(&t, 10, 10, "g", 1), 0); /* shadowed by h */
	assert_int_equal(jit_syms__add(&t, 100, 10, "x", 1), 0); /* shadowed by h */
	assert_int_equal(jit_syms__add(&t, 5, 20, "h", 1), 0);
	assert_int_equal(jit_syms__add(&t, 95, 20, "h", 1), 0);
	for (i = 5; i < JIT_SYMS_MAX + 1; i++)
		assert_int_equal(jit_syms__add(&t, 0x1000, 16, "r", 1), 0);
	assert_int_equal(t.dropped, 0);
	assert_int_equal(jit_syms__move(&t, 100, 200, 4), -ENOENT);
	assert_int_equal(jit_syms__move(&t, 10, 200, 4), 0);
	assert_int_equal(jit_syms__sorted(&t, &s, &nr), 0);
	assert_int_equal(nr, 5);
	assert_string_equal(s[1].name, "f");
	assert_int_equal(s[1].addr, 25);
	assert_string_equal(s[3].name, "g");
	assert_int_equal(s[3].addr, 200);
	jit_syms__exit(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_symbols_every_arrangement),
		cmocka_unit_test(test_random_tables),
		cmocka_unit_test(test_move),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_bounds_keep_newest),
		cmocka_unit_test(test_iter),
		cmocka_unit_test(test_100k),
		cmocka_unit_test(test_shadowed_go_first_random),
		cmocka_unit_test(test_shadowed_go_first),
		cmocka_unit_test(test_shadowed_then_oldest),
		cmocka_unit_test(test_shadowed_moves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
