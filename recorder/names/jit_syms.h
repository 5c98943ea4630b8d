/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_NAMES_JIT_SYMS_H
#define PREC_RECORDER_NAMES_JIT_SYMS_H
/*
 * One process's JIT symbol table, filled from its perf map and its jitdump:
 * (addr, size, name) in the order the JIT announced them. Later symbols win
 * where they overlap earlier ones (freed code reused, moved code): in the
 * sorted view an earlier symbol keeps only the bytes no later one covers, so
 * it is trimmed, removed, or split in two around a later one inside it (as
 * perf splits an mmap that a later one overlaps).
 *
 * Cost: adds in increasing address order (what JITs mostly do) cost O(1)
 * each and keep the table sorted; an add below the end of an earlier symbol
 * marks it unsorted, and the overlaps are resolved lazily, once per
 * jit_syms__sorted after a change, by a sweep in O(n log n). A move costs
 * O(1) (a hash of start addresses).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JIT_SYMS_MAX (1u << 20) /* symbols added (moves included); -ENOSPC beyond */
#define JIT_SYMS_NAME_MAX 1024 /* bytes kept of a name; a longer one is cut */
#define JIT_SYMS_NAMES_MAX (64u << 20) /* bytes of all names together; -E2BIG beyond */

struct jit_sym {
	uint64_t addr, size; /* size >= 1, addr + size <= UINT64_MAX */
	const char *name; /* NUL-terminated, owned by the table */
	size_t name_len; /* 1..JIT_SYMS_NAME_MAX */
};

struct jit_syms_entry; /* jit_syms.c's own */

struct jit_syms {
	struct jit_syms_entry *entries; /* in the order added */
	uint32_t nr;
	size_t alloc;
	uint64_t max_end; /* the highest end added so far */
	bool unsorted; /* an add overlapped or preceded an earlier symbol */
	char *names; /* the arena: every name, each NUL-terminated */
	size_t names_len, names_alloc;
	uint32_t *hash; /* start address -> index of the latest entry starting there */
	uint32_t hash_mask; /* slots - 1; 0 before the first add */
	struct jit_sym *sorted; /* jit_syms__sorted's answer, valid until the next change */
	uint32_t nr_sorted;
	bool sorted_valid;
};

void jit_syms__init(struct jit_syms *t);
void jit_syms__exit(struct jit_syms *t);

/*
 * Adds [addr, addr + size) named name[0..name_len) (cut at its first NUL and
 * at JIT_SYMS_NAME_MAX bytes; copied). Returns 0; -EINVAL for size 0 or an
 * empty name (they name no sample); -ERANGE when addr + size passes
 * UINT64_MAX (or is exactly 2^64); -ENOSPC past JIT_SYMS_MAX symbols;
 * -E2BIG past JIT_SYMS_NAMES_MAX bytes of names; -ENOMEM. A failed add
 * leaves the table as it was.
 */
int jit_syms__add(struct jit_syms *t, uint64_t addr, uint64_t size, const char *name,
		  size_t name_len);

/*
 * JIT_CODE_MOVE: the code of the latest symbol added at old_addr (by its
 * start address; a move is announced for a whole function) now also lies at
 * [new_addr, new_addr + size), with the same name. The old one stays, as
 * perf inject keeps the old mapping. Returns 0, -ENOENT when no symbol
 * started at old_addr, or jit_syms__add's errors for the new range.
 */
int jit_syms__move(struct jit_syms *t, uint64_t old_addr, uint64_t new_addr, uint64_t size);

/*
 * The table resolved: non-overlapping symbols sorted by address, each
 * carrying the name of the latest symbol added over those bytes; no two
 * adjacent ones (the end of one the start of the next) share a name: such
 * pieces are joined, whichever symbols they came from. *syms stays valid until the next add,
 * move or exit. Returns 0 or -ENOMEM.
 */
int jit_syms__sorted(struct jit_syms *t, const struct jit_sym **syms, size_t *nr);

#endif
