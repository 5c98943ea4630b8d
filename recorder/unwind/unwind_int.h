/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_UNWIND_INT_H
#define PREC_RECORDER_UNWIND_INT_H
/*
 * The record-time unwinder's insides, shared by unwind.c (the samples and
 * records), unwind_frames.c (libunwind's accessors, the unwinding) and
 * unwind_elf.c (the mapped files' unwind tables: one ELF image per DSO,
 * opened once, mapped read-only, and the numbers libunwind needs to search
 * its .eh_frame_hdr table).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <libunwind.h>

#include "unwind/unwind.h"

#define UELF_MAX_SEGS 16

/* One PT_LOAD: where its bytes are in the file and in memory. */
struct uelf_seg {
	uint64_t vaddr, memsz;
	uint64_t off, filesz;
};

struct uelf {
	const char *key; /* the DSO name (dso_track's pointer, compared by address) */
	struct uelf *next; /* hash chain */
	const uint8_t *img; /* the whole file, or the vdso in our own memory */
	size_t len;
	size_t map_len; /* for munmap; 0: not ours to unmap */
	bool has_table; /* a usable .eh_frame_hdr binary-search table */
	uint64_t hdr_vaddr; /* .eh_frame_hdr, the table's data-relative base */
	uint64_t table_vaddr; /* the sorted (initial location, FDE) pairs */
	uint64_t fde_count;
	uint64_t text_lo, text_hi; /* executable segments' vaddr range */
	struct uelf_seg seg[UELF_MAX_SEGS];
	uint32_t nr_seg;
};

/*
 * Parses the ELF image img of len bytes (x86-64, little-endian): the load
 * segments and the .eh_frame_hdr table. img stays the caller's. 0, or
 * -ENOEXEC when it is no such ELF file (a missing table is not an error:
 * has_table stays false).
 */
int uelf__parse(struct uelf *e, const void *img, size_t len);

/* Maps the file at path read-only and parses it; 0 or -errno. */
int uelf__open_file(struct uelf *e, const char *path);

/* The vdso of this process: the same image the kernel gives every process. */
int uelf__open_vdso(struct uelf *e);

/* Unmaps what uelf__open_* mapped. */
void uelf__close(struct uelf *e);

/* The vaddr the file offset off is loaded at, or -ENOENT when no load
 * segment holds it. */
int uelf__off_to_vaddr(const struct uelf *e, uint64_t off, uint64_t *vaddr);

/* Reads the 8 bytes loaded at vaddr (zeros past a segment's file bytes, as
 * in .bss). 0, or -EFAULT when no segment holds them. */
int uelf__read_vaddr(const struct uelf *e, uint64_t vaddr, uint64_t *val);

/* Reads the 8 bytes at file offset off (zeros past the end). 0 or -EFAULT. */
int uelf__read_off(const struct uelf *e, uint64_t off, uint64_t *val);

/* ELF images by DSO name, each opened on first use; a file that cannot be
 * used is remembered too, so it is tried once. */
struct uelf_cache {
	struct uelf **hash;
	size_t buckets; /* a power of two */
	uint32_t nr;
	uint32_t files, bad; /* names that are files (or the vdso); of which unusable */
};

/* The image for the DSO called name (key: its address), NULL when it cannot
 * be opened or parsed. May allocate on the first look-up of a name. */
const struct uelf *uelf_cache__get(struct uelf_cache *c, const char *name);

/*
 * Enters the image img of len bytes (the caller's, kept until c is emptied)
 * as the DSO called name, as if uelf_cache__get had opened it: the fuzzers
 * and tests give the unwinder files that are not on disk. 0, -EEXIST when
 * name is known already, -ENOEXEC when it is no usable ELF file, -ENOMEM.
 */
int uelf_cache__add(struct uelf_cache *c, const char *name, const void *img, size_t len);

/* Unmaps and frees everything; c is empty and usable. */
void uelf_cache__exit(struct uelf_cache *c);

/* ---- the unwinder (unwind.c, unwind_frames.c) ---- */

/*
 * Address spaces, one per process slot: libunwind caches each IP's unwind
 * rules in its address space, and two processes may hold different code at
 * one address. A slot taken over by another pid, or whose process execs, is
 * flushed.
 */
#define AS_SLOTS 64

enum why { WHY_NONE, WHY_NO_MAP, WHY_NO_TABLE, WHY_SHORT_STACK };

struct uw_event {
	uint64_t sample_type, read_format, branch_type;
	int nr_regs; /* registers in a REGS_USER block */
	int8_t reg_pos[32]; /* libunwind register -> its slot in the block, -1 */
	int tid_off; /* the TID field's offset in the record, -1 */
	uint16_t max_frames;
	bool dwarf;
	struct perf_event_attr file_attr;
};

struct uw_id {
	uint64_t id;
	uint32_t ev;
};

struct as_slot {
	unw_addr_space_t as;
	uint32_t pid;
};

/*
 * Memory reads libunwind may make for one sample. A real unwind makes about
 * 60 a frame (the table search, the FDE and CIE, the CFA program, the saved
 * registers); a corrupt FDE whose length spans megabytes (zeros are
 * DW_CFA_nop) would have libunwind read them byte by byte for seconds. Past
 * this the reads fail and the unwind stops where it is.
 */
#define UNWIND_MAX_READS (1u << 17)

/* The sample being unwound: what the accessors read. */
struct uw_cur {
	const struct uw_event *ev;
	uint32_t pid;
	const uint8_t *regs;
	const uint8_t *stack;
	uint64_t stack_len, sp;
	const struct uelf *elf; /* the file of the frame libunwind looked up last */
	uint64_t bias; /* its load bias */
	uint32_t reads; /* access_mem calls so far, up to UNWIND_MAX_READS */
	enum why why;
};

/*
 * Samples held while the side-band of the processes that existed before the
 * recording is still being synthesized (unwinder__hold): the raw records, in
 * the order read, at most UNWIND_HOLD_MAX bytes.
 */
struct uw_hold {
	bool on;
	uint8_t *buf; /* UNWIND_HOLD_MAX bytes, from the first sample held */
	size_t len;
	uint64_t held; /* samples held so far */
	uint64_t full; /* samples unwound at once: the hold was full */
};

struct unwinder {
	struct uw_event *ev;
	uint32_t nr_ev;
	struct uw_id *ids; /* sorted by id */
	size_t nr_ids;
	int id_off; /* where a sample's event id is; -1: one event, no id needed */
	struct dso_track *track;
	struct uelf_cache elfs;
	struct as_slot slots[AS_SLOTS];
	uint8_t *out;
	size_t out_cap;
	uint8_t *scratch; /* a record that wraps around its ring's end */
	struct uw_cur cur;
	uint64_t ips[UNWIND_MAX_FRAMES];
	struct unwind_stats st;
	struct uw_hold hold;
};

/* unwind_hold.c: rec (size bytes) copied into h; false when the hold is
 * full (counted) or cannot be had. */
bool uw_hold__keep(struct uw_hold *h, const uint8_t *rec, size_t size);

/* unwind_hold.c: the hold ends (nothing more is taken); says under -v how
 * many samples waited and how many it had no room for. */
void uw_hold__end(struct uw_hold *h);

/* unwind_hold.c: the held records freed. */
void uw_hold__free(struct uw_hold *h);

/* Sets ev's REGS_USER layout from the sampled mask: 0, -EINVAL when the mask
 * lacks the IP or SP, -EOPNOTSUPP off x86-64. */
int unwind_event_regs(struct uw_event *ev, uint64_t mask);

/*
 * Unwinds the user stack of a sample of ev from process pid whose REGS_USER
 * registers are regs, with stack_len bytes of stack copy, into u->ips (at
 * most max frames: the IP, then each caller's return address - 1). Returns
 * the frame count; *partial is set when the unwind stopped before the
 * outermost frame (and the reason counted in u->st).
 */
int unwind_frames(struct unwinder *u, const struct uw_event *ev, uint32_t pid, const uint8_t *regs,
		  const uint8_t *stack, uint64_t stack_len, int max, bool *partial);

/* Process pid exec'd: the unwind rules cached for its old code go. */
void unwind_spaces_exec(struct unwinder *u, uint32_t pid);

/* Destroys the address spaces. */
void unwind_spaces_exit(struct unwinder *u);

#endif
