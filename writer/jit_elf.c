// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF image of a JIT's symbols (prec/jit_elf.h): checks the symbols,
 * lays out the headers, the build-id note, .symtab, .strtab and .shstrtab in
 * one buffer, and names it with the SHA-1 of its bytes. The header says what
 * stock perf requires of the image; here is only how it is laid out.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prec/jit_elf.h"
#include "prec/sha1.h"

enum { SEC_NULL, SEC_TEXT, SEC_NOTE, SEC_SYMTAB, SEC_STRTAB, SEC_SHSTRTAB, SEC_NR };

static const char *const sec_names[SEC_NR] = {
	[SEC_TEXT] = ".text",	  [SEC_NOTE] = ".note.gnu.build-id", [SEC_SYMTAB] = ".symtab",
	[SEC_STRTAB] = ".strtab", [SEC_SHSTRTAB] = ".shstrtab",
};

#define NOTE_NAME "GNU"
#define NOTE_NAMESZ 4 /* "GNU" and its NUL: already a multiple of 4 */
#define NOTE_SIZE (3 * 4 + NOTE_NAMESZ + SHA1_DIGEST_LEN)

/* Where each part lies in the image; the text range the symbols span. */
struct jit_layout {
	uint64_t lo, hi;
	size_t strtab_size, shstrtab_size;
	size_t off_note, off_symtab, off_strtab, off_shstrtab, off_shdrs, total;
};

static size_t align8(size_t v)
{
	return (v + 7) & ~(size_t)7;
}

/* The symbols' rules (prec/jit_elf.h) and the sizes that follow from them. */
static int jit_elf_check(const struct jit_elf_sym *syms, size_t nr, struct jit_layout *l)
{
	uint64_t prev_end = 0;

	if (nr > JIT_ELF_MAX / sizeof(Elf64_Sym))
		return -EFBIG;
	l->lo = nr ? syms[0].addr : 0;
	l->hi = l->lo;
	l->strtab_size = 1;
	for (size_t i = 0; i < nr; i++) {
		const struct jit_elf_sym *s = &syms[i];
		/* perf grows a zero-size symbol to the next one: give it a byte. */
		uint64_t extent = s->size ? s->size : 1;
		size_t name_len;

		if (!s->name || !s->name[0] || extent > UINT64_MAX - s->addr)
			return -EINVAL;
		/* Every extent is at least a byte, so this also makes addresses
		 * strictly increase: perf keeps one of two at one address. */
		if (i && s->addr < prev_end)
			return -EINVAL;
		prev_end = s->addr + extent;
		name_len = strnlen(s->name, JIT_ELF_MAX);
		if (name_len >= JIT_ELF_MAX - l->strtab_size)
			return -EFBIG;
		l->strtab_size += name_len + 1;
	}
	if (nr)
		l->hi = prev_end;
	l->shstrtab_size = 1;
	for (int i = 1; i < SEC_NR; i++)
		l->shstrtab_size += strlen(sec_names[i]) + 1;

	/* Every term is under JIT_ELF_MAX (256 MiB): the sum cannot wrap. */
	l->off_note = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr);
	l->off_symtab = align8(l->off_note + NOTE_SIZE);
	l->off_strtab = l->off_symtab + (nr + 1) * sizeof(Elf64_Sym);
	l->off_shstrtab = l->off_strtab + l->strtab_size;
	l->off_shdrs = align8(l->off_shstrtab + l->shstrtab_size);
	l->total = l->off_shdrs + SEC_NR * sizeof(Elf64_Shdr);
	return l->total > JIT_ELF_MAX ? -EFBIG : 0;
}

static void jit_elf_headers(uint8_t *img, const struct jit_layout *l, uint16_t e_machine)
{
	Elf64_Ehdr eh = { .e_type = ET_DYN,
			  .e_machine = e_machine,
			  .e_version = EV_CURRENT,
			  .e_phoff = sizeof(Elf64_Ehdr),
			  .e_shoff = l->off_shdrs,
			  .e_ehsize = sizeof(Elf64_Ehdr),
			  .e_phentsize = sizeof(Elf64_Phdr),
			  .e_phnum = 2,
			  .e_shentsize = sizeof(Elf64_Shdr),
			  .e_shnum = SEC_NR,
			  .e_shstrndx = SEC_SHSTRTAB };
	/* p_offset = p_vaddr: perf moves each symbol by their difference. */
	Elf64_Phdr ph[2] = {
		{ .p_type = PT_LOAD,
		  .p_flags = PF_R | PF_X,
		  .p_offset = l->lo,
		  .p_vaddr = l->lo,
		  .p_paddr = l->lo,
		  .p_memsz = l->hi - l->lo,
		  .p_align = 1 },
		{ .p_type = PT_NOTE,
		  .p_flags = PF_R,
		  .p_offset = l->off_note,
		  .p_filesz = NOTE_SIZE,
		  .p_memsz = NOTE_SIZE,
		  .p_align = 4 },
	};

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? ELFDATA2MSB : ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = ELFOSABI_SYSV;
	memcpy(img, &eh, sizeof(eh));
	memcpy(img + sizeof(eh), ph, sizeof(ph));
}

static void jit_elf_sections(uint8_t *img, const struct jit_layout *l, size_t nr)
{
	Elf64_Shdr sh[SEC_NR] = {
		[SEC_TEXT] = { .sh_type = SHT_NOBITS,
			       .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
			       .sh_addr = l->lo,
			       .sh_offset = l->lo, /* sh_addr - sh_offset: perf's fallback */
			       .sh_size = l->hi - l->lo,
			       .sh_addralign = 1 },
		[SEC_NOTE] = { .sh_type = SHT_NOTE,
			       .sh_flags = SHF_ALLOC,
			       .sh_offset = l->off_note,
			       .sh_size = NOTE_SIZE,
			       .sh_addralign = 4 },
		[SEC_SYMTAB] = { .sh_type = SHT_SYMTAB,
				 .sh_offset = l->off_symtab,
				 .sh_size = (nr + 1) * sizeof(Elf64_Sym),
				 .sh_link = SEC_STRTAB,
				 .sh_info = 1, /* the first non-local symbol: all are global */
				 .sh_addralign = 8,
				 .sh_entsize = sizeof(Elf64_Sym) },
		[SEC_STRTAB] = { .sh_type = SHT_STRTAB,
				 .sh_offset = l->off_strtab,
				 .sh_size = l->strtab_size,
				 .sh_addralign = 1 },
		[SEC_SHSTRTAB] = { .sh_type = SHT_STRTAB,
				   .sh_offset = l->off_shstrtab,
				   .sh_size = l->shstrtab_size,
				   .sh_addralign = 1 },
	};
	size_t pos = 1;

	for (int i = 1; i < SEC_NR; i++) {
		size_t n = strlen(sec_names[i]) + 1;

		sh[i].sh_name = (Elf64_Word)pos;
		memcpy(img + l->off_shstrtab + pos, sec_names[i], n);
		pos += n;
	}
	memcpy(img + l->off_shdrs, sh, sizeof(sh));
}

static void jit_elf_symbols(uint8_t *img, const struct jit_layout *l,
			    const struct jit_elf_sym *syms, size_t nr)
{
	size_t str = 1;

	for (size_t i = 0; i < nr; i++) {
		size_t n = strlen(syms[i].name) + 1;
		Elf64_Sym st = { .st_name = (Elf64_Word)str,
				 .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				 .st_other = STV_DEFAULT,
				 .st_shndx = SEC_TEXT,
				 .st_value = syms[i].addr,
				 .st_size = syms[i].size };

		memcpy(img + l->off_symtab + (i + 1) * sizeof(st), &st, sizeof(st));
		memcpy(img + l->off_strtab + str, syms[i].name, n);
		str += n;
	}
}

int jit_elf__build(const struct jit_elf_sym *syms, size_t nr, uint16_t e_machine, void **img,
		   size_t *len, struct build_id *bid)
{
	struct jit_layout l;
	uint32_t note_hdr[3] = { NOTE_NAMESZ, SHA1_DIGEST_LEN, NT_GNU_BUILD_ID };
	uint8_t *buf, *desc;
	int err;

	if ((nr && !syms) || !img || !len || !bid)
		return -EINVAL;
	err = jit_elf_check(syms, nr, &l);
	if (err)
		return err;
	buf = calloc(1, l.total);
	if (!buf)
		return -ENOMEM;
	jit_elf_headers(buf, &l, e_machine);
	memcpy(buf + l.off_note, note_hdr, sizeof(note_hdr));
	memcpy(buf + l.off_note + sizeof(note_hdr), NOTE_NAME, NOTE_NAMESZ);
	jit_elf_symbols(buf, &l, syms, nr);
	jit_elf_sections(buf, &l, nr);

	/* The id hashes the image with its own descriptor still zero. */
	desc = buf + l.off_note + sizeof(note_hdr) + NOTE_NAMESZ;
	sha1(buf, l.total, desc);
	memset(bid, 0, sizeof(*bid));
	memcpy(bid->data, desc, SHA1_DIGEST_LEN);
	bid->size = SHA1_DIGEST_LEN;
	*img = buf;
	*len = l.total;
	return 0;
}
