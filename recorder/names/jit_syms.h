/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_JIT_SYMS_H
#define PREC_RECORDER_NAMES_JIT_SYMS_H
/*
 * One process's JIT symbol table, filled from its perf map and its jitdump:
 * (addr, size, name) in the order the JIT announced them. Later symbols win
 * where they overlap earlier ones (freed code reused, moved code): in the
 * resolved view an earlier symbol keeps only the bytes no later one covers,
 * so it is trimmed, removed, or split in two around a later one inside it
 * (as perf splits an mmap that a later one overlaps).
 *
 * Bounded, keeping the newest: past JIT_SYMS_MAX symbols or
 * JIT_SYMS_NAMES_MAX bytes of names, at least a quarter of the bound goes at
 * a time. First the shadowed symbols, every byte covered by later ones (dead
 * code the JIT replaced: the view does not show them and stays the same
 * without them), counted in `compacted`; then, if they freed less than the
 * quarter, the oldest of the rest, counted in `dropped`: a long-lived JIT's
 * live code is the code it announced last. A shadowed symbol is kept while
 * it is the latest starting at an address where an older one is shown (a
 * move from there must not find the older one); `dropped` counts only the
 * symbols the view showed. Finding the shadowed ones is a sort and a sweep,
 * O(n log n) once a quarter of the bound: O(log n) per add amortized.
 *
 * Memory: 16 bytes a symbol and its name with a NUL (each symbol owns its
 * name, a move's copied); 8 to 16 more bytes a symbol for the hash of start
 * addresses, made at the first move only (perf maps have none). Walking the
 * view of an unsorted table costs 4 bytes a symbol (the address order, and
 * as much again while it is sorted) while the walk lasts; the view of a
 * sorted one, nothing. Removing the shadowed symbols costs 8 bytes and 2
 * bits a symbol (the walk's, and which are shown) while it lasts.
 *
 * Cost: adds in increasing address order (what JITs mostly do) cost O(1)
 * each and keep the table sorted; an add below the end of an earlier symbol
 * marks it unsorted, and the overlaps are resolved lazily, by a sort at the
 * start of each walk of the view, O(n log n), and a sweep as it goes. A move
 * costs O(1) (a hash of start addresses).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JIT_SYMS_MAX (1u << 20) /* symbols kept (moves included); the oldest go beyond */
#define JIT_SYMS_NAME_MAX 1024 /* bytes kept of a name; a longer one is cut */
#define JIT_SYMS_NAMES_MAX (64u << 20) /* bytes of names kept, NULs included; the oldest go */

struct jit_sym {
	uint64_t addr, size; /* size >= 1, addr + size <= UINT64_MAX */
	const char *name; /* NUL-terminated, owned by the table */
	size_t name_len; /* 1..JIT_SYMS_NAME_MAX */
};

struct jit_syms_entry; /* jit_syms.c's own */
struct jit_syms_big; /* a size of 4 GiB or more, by entry */

struct jit_syms {
	struct jit_syms_entry *entries; /* in the order added */
	uint32_t nr;
	size_t alloc;
	uint64_t max_end; /* the highest end added so far */
	bool unsorted; /* an add overlapped or preceded an earlier symbol */
	uint64_t dropped; /* the oldest symbols shown, dropped to keep the bounds, ever */
	uint64_t compacted; /* the shadowed symbols removed to keep the bounds, ever */
	char *names; /* the arena: each entry's name in entry order, NUL-terminated */
	size_t names_len, names_alloc;
	struct jit_syms_big *big; /* the sizes entries cannot hold, by entry index */
	uint32_t nr_big;
	size_t big_alloc;
	uint32_t *hash; /* start address -> index of the latest entry starting there */
	uint32_t hash_mask; /* slots - 1; 0 before the first move */
	struct jit_sym *sorted; /* jit_syms__sorted's answer, valid until the next change */
	uint32_t nr_sorted;
	bool sorted_valid;
};

void jit_syms__init(struct jit_syms *t);
void jit_syms__exit(struct jit_syms *t);

/*
 * Adds [addr, addr + size) named name[0..name_len) (cut at its first NUL and
 * at JIT_SYMS_NAME_MAX bytes; copied), dropping the oldest symbols first
 * when a bound would be passed. Returns 0; -EINVAL for size 0 or an empty
 * name (they name no sample); -ERANGE when addr + size passes UINT64_MAX
 * (or is exactly 2^64); -ENOMEM. A failed add leaves the view as it was
 * (the shadowed symbols may be gone).
 */
int jit_syms__add(struct jit_syms *t, uint64_t addr, uint64_t size, const char *name,
		  size_t name_len);

/*
 * JIT_CODE_MOVE: the code of the latest symbol added at old_addr (by its
 * start address; a move is announced for a whole function) now also lies at
 * [new_addr, new_addr + size), with the same name. The old one stays, as
 * perf inject keeps the old mapping. Returns 0, -ENOENT when no symbol kept
 * started at old_addr (dropped, or shadowed and removed), or jit_syms__add's
 * errors for the new range.
 */
int jit_syms__move(struct jit_syms *t, uint64_t old_addr, uint64_t new_addr, uint64_t size);

/*
 * A walk of the resolved view: non-overlapping symbols sorted by address,
 * each carrying the name of the latest symbol added over those bytes; no
 * two adjacent ones (the end of one the start of the next) share a name:
 * such pieces are joined, whichever symbols they came from. One symbol at a
 * time, with no copy of the view: what the ELF writer streams.
 */
struct jit_syms_iter {
	/* jit_syms.c's own */
	const struct jit_syms *t;
	uint32_t *order; /* an unsorted table's entries by address, then add order */
	uint32_t *heap; /* entries covering cur, the latest on top */
	size_t nh, heap_alloc;
	uint32_t i; /* the next entry (of order, or of the table) */
	uint64_t cur;
	bool have; /* a piece read ahead: [from, to) of entry idx */
	uint64_t from, to;
	uint32_t idx;
};

/*
 * Starts a walk of t's view. The walk and the names it gives stay valid
 * until t's next add, move or exit; end it with jit_syms__iter_end.
 * Returns 0 or -ENOMEM (then there is nothing to end).
 */
int jit_syms__iter_start(struct jit_syms_iter *it, const struct jit_syms *t);

/* The next symbol of the view into *s: 1, 0 past the last, or -ENOMEM. */
int jit_syms__iter_next(struct jit_syms_iter *it, struct jit_sym *s);

/* Back to the first symbol (the sort of the start is not done again). */
void jit_syms__iter_rewind(struct jit_syms_iter *it);

void jit_syms__iter_end(struct jit_syms_iter *it);

/*
 * The whole view in one array (the walk above, kept: 32 bytes a symbol; for
 * tests and small tables). *syms stays valid until the next add, move or
 * exit. Returns 0 or -ENOMEM.
 */
int jit_syms__sorted(struct jit_syms *t, const struct jit_sym **syms, size_t *nr);

#endif
