// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the unwinder's reader of a mapped file
 * (recorder/unwind/unwind_elf.c): the ELF image's load segments and its
 * .eh_frame_hdr search table (by PT_GNU_EH_FRAME, else by section name),
 * then the reads libunwind makes through it (every table entry and the FDE
 * each points to, by load address; file offsets to load addresses). Small
 * inputs, so the fuzzer spends its time in the tables; fuzz_unwind runs the
 * whole unwind over such images. Any bytes in; no crash, no read outside
 * the image, and what the parser says stays inside it: at most
 * UELF_MAX_SEGS segments, a table of at least one entry after its header
 * whose first and last entries are loaded.
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/unwind/unwind_int.h"

/* Reads the table's entries as libunwind's binary search does, at most 64. */
static void fz_table(const struct uelf *e)
{
	uint64_t v, n = e->fde_count < 64 ? e->fde_count : 64;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t entry = e->table_vaddr + 8 * i;
		int32_t fde;

		/* The parser keeps a table only where load segments hold its
		 * first and last entries. */
		if (uelf__read_vaddr(e, entry, &v) && (i == 0 || i == e->fde_count - 1))
			abort();
		fde = (int32_t)(v >> 32);
		/* The FDE: data-relative to the header, anywhere or nowhere. */
		uelf__read_vaddr(e, e->hdr_vaddr + (uint64_t)(int64_t)fde, &v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes: ASan catches any read past the end. */
	uint8_t *img = malloc(size ? size : 1);
	struct uelf e;
	uint64_t v;

	if (!img)
		return 0;
	memcpy(img, data, size);
	memset(&e, 0, sizeof(e));
	if (uelf__parse(&e, img, size) == 0) {
		if (!e.nr_seg || e.nr_seg > UELF_MAX_SEGS || e.text_lo > e.text_hi)
			abort();
		if (e.has_table) {
			if (!e.fde_count || e.table_vaddr < e.hdr_vaddr)
				abort();
			fz_table(&e);
		}
		for (uint32_t i = 0; i < e.nr_seg; i++) {
			uelf__read_vaddr(&e, e.seg[i].vaddr, &v);
			uelf__read_vaddr(&e, e.seg[i].vaddr + e.seg[i].memsz - 1, &v);
			if (uelf__off_to_vaddr(&e, e.seg[i].off, &v) == 0)
				uelf__read_vaddr(&e, v, &v);
		}
		for (uint64_t off = 0; off < size + 16; off += 509)
			uelf__read_off(&e, off, &v);
	}
	free(img);
	return 0;
}
