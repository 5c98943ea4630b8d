// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for base's ELF reader: any bytes in, as an ELF image
 * (header, both tables, every entry decoded, the section names, every name
 * compared) and as a note area (both alignments, both byte orders); no crash,
 * no read outside the buffer, and what the reader returns stays inside it.
 * Build: clang -g -O1 -fsanitize=fuzzer,address,undefined -I include tests/fuzz/fuzz_elf.c base/elf.c -o fuzz_elf
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "prec/elf.h"

static void walk_image(const uint8_t *data, size_t size)
{
	struct elf_mem m;
	struct elf_src src;
	struct elf_file ef;
	struct elf_shdr sh;
	struct elf_phdr ph;
	uint8_t *tab, *names;
	uint64_t nlen;

	elf_src__mem(&src, &m, data, size);
	if (elf__open(&ef, &src))
		return;
	if (!elf__read_phdrs(&ef, &tab)) {
		for (uint32_t i = 0; i < ef.phnum; i++)
			elf__phdr(&ef, tab, i, &ph);
		free(tab);
	}
	if (elf__read_shdrs(&ef, &tab))
		return;
	if (!elf__read_strtab(&ef, tab, 1 << 20, &names, &nlen)) {
		if (nlen > size)
			abort();
		for (uint32_t i = 0; i < ef.shnum; i++) {
			elf__shdr(&ef, tab, i, &sh);
			elf__name_is(names, nlen, sh.name, ".eh_frame_hdr");
		}
		free(names);
	}
	free(tab);
}

static void walk_notes(const uint8_t *data, size_t size, unsigned int align, bool swap)
{
	struct elf_note n;
	size_t pos = 0, last = 0;
	int r;

	while ((r = elf_note__next(data, size, &pos, align, swap, &n)) > 0) {
		if (pos <= last || pos > size || n.name < data || n.desc < n.name ||
		    n.desc + n.descsz > data + size || n.name + n.namesz > data + size)
			abort();
		last = pos;
	}
	if (r != 0 && r != -EINVAL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	walk_image(data, size);
	walk_notes(data, size, 4, false);
	walk_notes(data, size, 8, false);
	walk_notes(data, size, 4, true);
	return 0;
}
