/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_JIT_ELF_H
#define PREC_JIT_ELF_H
/*
 * An ELF image that names JIT-compiled code (writer/jit_elf.c): the symbols
 * of a perf map or a jitdump, written so that stock perf 6.1 finds them
 * through its build-id cache after the process and its map are gone. Built
 * in memory from an array (jit_elf__build), or streamed to a file from a
 * walk of the symbols with memory bounded whatever their number
 * (jit_elf__write): the same bytes either way.
 *
 * The image: ELF64, ET_DYN, the caller's e_machine, host byte order;
 *   [1] .text               SHT_NOBITS, ALLOC|EXECINSTR: no bytes (the JIT's
 *                           code is not kept), sh_addr = sh_offset = the
 *                           lowest address, sh_size to the end of the highest
 *                           symbol (a zero-size symbol counts one byte)
 *   [2] .note.gnu.build-id  NT_GNU_BUILD_ID, "GNU", 20 bytes
 *   [3] .symtab             one STT_FUNC STB_GLOBAL symbol per entry,
 *                           st_value = the absolute address, st_shndx = 1
 *   [4] .strtab [5] .shstrtab
 * and two program headers: a PT_LOAD (R+X) of the text range with
 * p_offset = p_vaddr, p_filesz 0, and a PT_NOTE over the note.
 * The build-id is the SHA-1 of the image with the descriptor zeroed: the
 * same symbols and machine give the same bytes, so the same id.
 *
 * What perf 6.1 (tools/perf/util/symbol-elf.c) does with it, and why the
 * image is shaped so:
 * - symsrc__init takes .symtab only if its type is SHT_SYMTAB; it sets
 *   adjust_symbols for every user-space DSO (not only ET_EXEC/ET_REL), and
 *   checks no e_machine. It refuses the file when the dso has a build-id
 *   and the file's differs (the cache path is named by the id anyway).
 * - dso__load_sym_internal keeps a symbol when it is STT_FUNC (or
 *   GNU_IFUNC) with a name (st_name != 0) and a defined section; the
 *   binding is kept but never filters (GLOBAL is preferred among duplicates
 *   at one address, which we refuse anyway). The section must be SHF_ALLOC;
 *   a NOBITS section is looked up again in the runtime image (ours: the
 *   same file), so NOBITS .text is accepted. The "text" section-name filter
 *   applies to STT_NOTYPE labels only.
 * - Because adjust_symbols is set, each value is moved by p_vaddr - p_offset
 *   of the PT_LOAD that covers it, or, when none does, by sh_addr -
 *   sh_offset of its section. Both are 0 here, so the values stay absolute.
 * - Zero-size symbols are kept and grown to the next symbol by
 *   symbols__fixup_end; two at one address would lose one to
 *   symbols__fixup_duplicate, so addresses must be strictly increasing.
 * The file is meant to be mapped by an MMAP2 record whose pgoff equals its
 * start (what the kernel writes for an anonymous mapping), so perf's map_ip
 * (ip - start + pgoff) is ip. The record's file name must not start with
 * "/tmp/perf-": dso__load reads such a DSO as a perf map, never as ELF.
 */
#include <stddef.h>
#include <stdint.h>

#include "prec/buildid.h"

/* Larger images are refused (-EFBIG): no JIT names 256 MiB of symbols. */
#define JIT_ELF_MAX (256u << 20)

struct jit_elf_sym {
	uint64_t addr, size;
	const char *name; /* non-empty, NUL-terminated */
};

/*
 * Builds the image of nr symbols (nr may be 0: an image with no symbols and
 * a build-id). syms must be sorted by strictly increasing addr, each
 * [addr, addr + max(size, 1)) ending at or below UINT64_MAX and at or below
 * the next addr, each name non-empty. Returns 0 with *img (malloc'd, caller
 * frees) of *len bytes and its id in *bid; -EINVAL for symbols breaking these
 * rules or a NULL argument; -EFBIG when the image would pass JIT_ELF_MAX;
 * -ENOMEM.
 */
int jit_elf__build(const struct jit_elf_sym *syms, size_t nr, uint16_t e_machine, void **img,
		   size_t *len, struct build_id *bid);

/*
 * Where jit_elf__write takes its symbols: walked from the first three times
 * (the sizes, then .symtab, then .strtab), each walk giving the same
 * symbols, by jit_elf__build's rules. rewind: back to the first symbol, 0 or
 * -errno. next: the next symbol into *s (its name valid until the next
 * call), 1; 0 past the last; or -errno.
 */
struct jit_elf_src {
	int (*rewind)(void *ctx);
	int (*next)(void *ctx, struct jit_elf_sym *s);
	void *ctx;
};

/*
 * jit_elf__build's image of src's symbols, byte for byte, written to fd
 * from file offset 0 (pwrite: a regular file; fd's own offset unused) with
 * 64 KiB of memory however many symbols: the build-id is hashed as the bytes
 * go out, with the descriptor zero, and written into the note last. *nr
 * (may be NULL) is the number of symbols written, *bid (may be NULL) the
 * id. Returns 0; jit_elf__build's errors (-EINVAL also for a source that
 * gives other symbols on a later walk, or a NULL src); the source's; or a
 * write's -errno. After an error part of the image may be in the file: the
 * caller removes it.
 */
int jit_elf__write(int fd, const struct jit_elf_src *src, uint16_t e_machine, size_t *nr,
		   struct build_id *bid);

#endif
