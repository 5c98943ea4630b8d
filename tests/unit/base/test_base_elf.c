// SPDX-License-Identifier: GPL-2.0-only
/*
 * base/elf.c, the one ELF reader: headers and tables of ELF64 (host order)
 * and ELF32 (the other order) decoded field by field; hostile images
 * (truncated at every length, tables past the end, entry sizes too small,
 * counts near 2^16, SHN_XINDEX, a name off the end of the string table);
 * the note iterator over short and lying areas; a failing reader.
 * (The build-id walk over the same reader is test_buildid.c's.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <byteswap.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prec/elf.h"

static const char strtab[] = "\0.text\0.shstrtab\0.eh_frame_hdr";
#define NAME_TEXT 1
#define NAME_SHSTRTAB 7
#define NAME_EH 17

/* An ELF64 in host order: 2 program headers, 4 sections. */
struct img64 {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[2];
	Elf64_Shdr sh[4];
	char names[sizeof(strtab)];
};

static void build64(struct img64 *im)
{
	memset(im, 0, sizeof(*im));
	memcpy(im->eh.e_ident, ELFMAG, SELFMAG);
	im->eh.e_ident[EI_CLASS] = ELFCLASS64;
	im->eh.e_ident[EI_DATA] = ELFDATA2LSB;
	im->eh.e_type = ET_DYN;
	im->eh.e_machine = EM_X86_64;
	im->eh.e_phoff = offsetof(struct img64, ph);
	im->eh.e_shoff = offsetof(struct img64, sh);
	im->eh.e_phentsize = sizeof(Elf64_Phdr);
	im->eh.e_phnum = 2;
	im->eh.e_shentsize = sizeof(Elf64_Shdr);
	im->eh.e_shnum = 4;
	im->eh.e_shstrndx = 2;
	im->ph[0] = (Elf64_Phdr){ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0, 0x1000, 0x2000, 0x1000 };
	im->ph[1] = (Elf64_Phdr){ PT_GNU_EH_FRAME, PF_R, 0x10, 0x400010, 0, 8, 8, 4 };
	im->sh[1] = (Elf64_Shdr){ NAME_TEXT, SHT_PROGBITS, SHF_ALLOC, 0x401000, 0x40, 0x20, 0,
				  0,	     16,	   0 };
	im->sh[2] = (Elf64_Shdr){ NAME_SHSTRTAB,  SHT_STRTAB, 0, 0, offsetof(struct img64, names),
				  sizeof(strtab), 0,	      0, 1, 0 };
	im->sh[3] = (Elf64_Shdr){ NAME_EH, SHT_PROGBITS, 0, 0x400010, 0x10, 8, 0, 0, 4, 0 };
	memcpy(im->names, strtab, sizeof(strtab));
}

static int open_mem(struct elf_file *ef, struct elf_src *src, struct elf_mem *m, const void *buf,
		    size_t len)
{
	elf_src__mem(src, m, buf, len);
	return elf__open(ef, src);
}

static void test_elf64(void **state)
{
	struct img64 im;
	struct elf_mem m;
	struct elf_src src;
	struct elf_file ef;
	struct elf_shdr sh;
	struct elf_phdr ph;
	uint8_t *tab, *names;
	uint64_t nlen;

	(void)state;
	build64(&im);
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_true(ef.is64);
	assert_false(ef.swap);
	assert_int_equal(ef.machine, EM_X86_64);
	assert_int_equal(ef.type, ET_DYN);
	assert_int_equal(ef.phnum, 2);
	assert_int_equal(ef.shnum, 4);

	assert_int_equal(elf__read_phdrs(&ef, &tab), 0);
	elf__phdr(&ef, tab, 0, &ph);
	assert_int_equal(ph.type, PT_LOAD);
	assert_int_equal(ph.flags, PF_R | PF_X);
	assert_int_equal(ph.vaddr, 0x400000);
	assert_int_equal(ph.filesz, 0x1000);
	assert_int_equal(ph.memsz, 0x2000);
	assert_int_equal(ph.align, 0x1000);
	elf__phdr(&ef, tab, 1, &ph);
	assert_int_equal(ph.type, ELF_PT_GNU_EH_FRAME);
	assert_int_equal(ph.offset, 0x10);
	free(tab);

	assert_int_equal(elf__read_shdrs(&ef, &tab), 0);
	assert_int_equal(elf__shstrndx(&ef, tab), 2);
	elf__shdr(&ef, tab, 1, &sh);
	assert_int_equal(sh.name, NAME_TEXT);
	assert_int_equal(sh.type, SHT_PROGBITS);
	assert_int_equal(sh.flags, SHF_ALLOC);
	assert_int_equal(sh.addr, 0x401000);
	assert_int_equal(sh.offset, 0x40);
	assert_int_equal(sh.size, 0x20);
	assert_int_equal(sh.align, 16);
	assert_int_equal(elf__read_strtab(&ef, tab, 1 << 20, &names, &nlen), 0);
	assert_int_equal(nlen, sizeof(strtab));
	assert_true(elf__name_is(names, nlen, NAME_EH, ".eh_frame_hdr"));
	assert_false(elf__name_is(names, nlen, NAME_EH, ".eh_frame"));
	assert_false(elf__name_is(names, nlen, NAME_TEXT, ".tex"));
	/* a name that runs off the end of the table, or starts past it */
	assert_false(elf__name_is(names, nlen - 1, NAME_EH, ".eh_frame_hdr"));
	assert_false(elf__name_is(names, nlen, 0xffffffffu, ""));
	assert_false(elf__name_is(NULL, 0, 0, ""));
	free(names);
	/* a cap below the table's size refuses it */
	assert_int_equal(elf__read_strtab(&ef, tab, 4, &names, &nlen), -EINVAL);
	assert_null(names);
	free(tab);
}

/* ELF32 in the other byte order, written field by field. */
static void put16(uint8_t *p, uint16_t v)
{
	v = bswap_16(v);
	memcpy(p, &v, 2);
}

static void put32(uint8_t *p, uint32_t v)
{
	v = bswap_32(v);
	memcpy(p, &v, 4);
}

static void test_elf32_swapped(void **state)
{
	uint8_t im[52 + 32 + 2 * 40] = { 0 };
	const uint16_t one = 1;
	struct elf_mem m;
	struct elf_src src;
	struct elf_file ef;
	struct elf_phdr ph;
	struct elf_shdr sh;
	uint8_t *tab;

	(void)state;
	memcpy(im, ELFMAG, SELFMAG);
	im[EI_CLASS] = ELFCLASS32;
	im[EI_DATA] = *(const uint8_t *)&one == 1 ? ELFDATA2MSB : ELFDATA2LSB;
	put16(im + 18, EM_ARM);
	put32(im + 28, 52); /* phoff */
	put32(im + 32, 84); /* shoff */
	put16(im + 42, 32);
	put16(im + 44, 1);
	put16(im + 46, 40);
	put16(im + 48, 2);
	put16(im + 50, 0);
	put32(im + 52, PT_NOTE);
	put32(im + 52 + 4, 0x11);
	put32(im + 52 + 8, 0x8000);
	put32(im + 52 + 16, 0x22);
	put32(im + 52 + 20, 0x33);
	put32(im + 52 + 24, PF_R);
	put32(im + 52 + 28, 4);
	put32(im + 84 + 40, 5); /* [1].name */
	put32(im + 84 + 44, SHT_NOTE);
	put32(im + 84 + 56, 0x44); /* offset */
	put32(im + 84 + 60, 0x55); /* size */
	put32(im + 84 + 64, 9); /* link */
	put32(im + 84 + 72, 8); /* align */
	assert_int_equal(open_mem(&ef, &src, &m, im, sizeof(im)), 0);
	assert_false(ef.is64);
	assert_true(ef.swap);
	assert_int_equal(ef.machine, EM_ARM);
	assert_int_equal(elf__read_phdrs(&ef, &tab), 0);
	elf__phdr(&ef, tab, 0, &ph);
	assert_int_equal(ph.type, PT_NOTE);
	assert_int_equal(ph.offset, 0x11);
	assert_int_equal(ph.vaddr, 0x8000);
	assert_int_equal(ph.filesz, 0x22);
	assert_int_equal(ph.memsz, 0x33);
	assert_int_equal(ph.flags, PF_R);
	assert_int_equal(ph.align, 4);
	free(tab);
	assert_int_equal(elf__read_shdrs(&ef, &tab), 0);
	elf__shdr(&ef, tab, 1, &sh);
	assert_int_equal(sh.name, 5);
	assert_int_equal(sh.type, SHT_NOTE);
	assert_int_equal(sh.offset, 0x44);
	assert_int_equal(sh.size, 0x55);
	assert_int_equal(sh.link, 9);
	assert_int_equal(sh.align, 8);
	free(tab);
}

/* Every prefix of a good image: the header or a table is refused, nothing else. */
static void test_truncated(void **state)
{
	struct img64 im;

	(void)state;
	build64(&im);
	for (size_t len = 0; len < sizeof(im); len++) {
		uint8_t *copy = malloc(len ? len : 1);
		struct elf_mem m;
		struct elf_src src;
		struct elf_file ef;
		uint8_t *tab;
		int err;

		memcpy(copy, &im, len);
		err = open_mem(&ef, &src, &m, copy, len);
		if (len < sizeof(Elf64_Ehdr)) {
			assert_int_equal(err, -EINVAL);
		} else {
			assert_int_equal(err, 0);
			err = elf__read_phdrs(&ef, &tab);
			assert_int_equal(err, len < offsetof(struct img64, sh) ? -EINVAL : 0);
			free(tab);
			err = elf__read_shdrs(&ef, &tab);
			assert_int_equal(err, len < offsetof(struct img64, names) ? -EINVAL : 0);
			free(tab);
		}
		free(copy);
	}
}

static void test_hostile_header(void **state)
{
	struct img64 im;
	struct elf_mem m;
	struct elf_src src;
	struct elf_file ef;
	uint8_t *tab, *names;
	uint64_t nlen;

	(void)state;
	build64(&im);
	im.eh.e_ident[EI_CLASS] = 3;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), -EINVAL);
	build64(&im);
	im.eh.e_ident[EI_DATA] = 0;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), -EINVAL);
	build64(&im);
	im.eh.e_ident[1] = 'F';
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), -EINVAL);
	assert_int_equal(elf__open(&ef, NULL), -EINVAL);

	/* tables that wrap, overrun or have entries too small to decode */
	build64(&im);
	im.eh.e_shoff = UINT64_MAX - 8;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_int_equal(elf__read_shdrs(&ef, &tab), -EINVAL);
	build64(&im);
	im.eh.e_shnum = 0xfffe;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_int_equal(elf__read_shdrs(&ef, &tab), -EINVAL);
	build64(&im);
	im.eh.e_shentsize = 63;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_int_equal(elf__read_shdrs(&ef, &tab), -EINVAL);
	build64(&im);
	im.eh.e_phentsize = 55;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_int_equal(elf__read_phdrs(&ef, &tab), -EINVAL);
	build64(&im);
	im.eh.e_phnum = ELF_PN_XNUM;
	im.eh.e_shnum = 0;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_int_equal(elf__read_phdrs(&ef, &tab), -ENOENT);
	assert_int_equal(elf__read_shdrs(&ef, &tab), -ENOENT);

	/* names: an index past the table, XINDEX through [0], a NOBITS table,
	 * a table past the end */
	build64(&im);
	im.eh.e_shstrndx = 9;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_int_equal(elf__read_shdrs(&ef, &tab), 0);
	assert_int_equal(elf__read_strtab(&ef, tab, 1 << 20, &names, &nlen), -ENOENT);
	free(tab);
	build64(&im);
	im.eh.e_shstrndx = SHN_XINDEX;
	im.sh[0].sh_link = 2;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_int_equal(elf__read_shdrs(&ef, &tab), 0);
	assert_int_equal(elf__shstrndx(&ef, tab), 2);
	assert_int_equal(elf__read_strtab(&ef, tab, 1 << 20, &names, &nlen), 0);
	free(names);
	free(tab);
	build64(&im);
	im.sh[2].sh_type = SHT_NOBITS;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_int_equal(elf__read_shdrs(&ef, &tab), 0);
	assert_int_equal(elf__read_strtab(&ef, tab, 1 << 20, &names, &nlen), -ENOENT);
	free(tab);
	build64(&im);
	im.sh[2].sh_size = UINT64_MAX;
	assert_int_equal(open_mem(&ef, &src, &m, &im, sizeof(im)), 0);
	assert_int_equal(elf__read_shdrs(&ef, &tab), 0);
	assert_int_equal(elf__read_strtab(&ef, tab, UINT64_MAX, &names, &nlen), -EINVAL);
	free(tab);
}

static int failing_read(void *ctx, uint64_t off, void *dst, size_t len)
{
	(void)ctx;
	(void)dst;
	(void)len;
	return off ? -EIO : -EINTR;
}

static void test_reader_errors(void **state)
{
	struct elf_src src = { failing_read, NULL, 4096 };
	struct elf_file ef;

	(void)state;
	assert_int_equal(elf__open(&ef, &src), -EINTR);
}

struct note_buf {
	uint8_t b[128];
	size_t n;
};

static void note(struct note_buf *nb, uint32_t namesz, uint32_t descsz, uint32_t type, size_t body)
{
	memcpy(nb->b + nb->n, &namesz, 4);
	memcpy(nb->b + nb->n + 4, &descsz, 4);
	memcpy(nb->b + nb->n + 8, &type, 4);
	memset(nb->b + nb->n + 12, 'x', body);
	nb->n += 12 + body;
}

static void test_notes(void **state)
{
	struct note_buf nb = { { 0 }, 0 };
	struct elf_note n;
	size_t pos = 0;

	(void)state;
	note(&nb, 4, 8, 3, 12);
	note(&nb, 5, 3, 7, 12); /* 5 -> 8 with padding, 3 -> 4 */
	assert_int_equal(elf_note__next(nb.b, nb.n, &pos, 4, false, &n), 1);
	assert_int_equal(n.type, 3);
	assert_int_equal(n.namesz, 4);
	assert_int_equal(n.descsz, 8);
	assert_ptr_equal(n.desc, nb.b + 16);
	assert_int_equal(pos, 24);
	assert_int_equal(elf_note__next(nb.b, nb.n, &pos, 4, false, &n), 1);
	assert_int_equal(n.type, 7);
	assert_ptr_equal(n.desc, nb.b + 24 + 12 + 8);
	assert_int_equal(pos, nb.n);
	assert_int_equal(elf_note__next(nb.b, nb.n, &pos, 4, false, &n), 0);
	/* the last note may lack its padding */
	pos = 24;
	assert_int_equal(elf_note__next(nb.b, nb.n - 1, &pos, 4, false, &n), 1);
	assert_int_equal(pos, nb.n - 1);
	/* fewer than 12 bytes: the end, not an error */
	pos = 0;
	assert_int_equal(elf_note__next(nb.b, 11, &pos, 4, false, &n), 0);
	pos = 1000;
	assert_int_equal(elf_note__next(nb.b, nb.n, &pos, 4, false, &n), 0);
	/* sizes that lie: past the area, near 2^32 */
	nb.n = 0;
	note(&nb, 0xffffffffu, 0, 1, 4);
	pos = 0;
	assert_int_equal(elf_note__next(nb.b, nb.n, &pos, 4, false, &n), -EINVAL);
	nb.n = 0;
	note(&nb, 4, 0xfffffffcu, 1, 8);
	pos = 0;
	assert_int_equal(elf_note__next(nb.b, nb.n, &pos, 8, false, &n), -EINVAL);
	/* in the other byte order the same bytes are other sizes */
	nb.n = 0;
	note(&nb, bswap_32(4), bswap_32(4), bswap_32(9), 8);
	pos = 0;
	assert_int_equal(elf_note__next(nb.b, nb.n, &pos, 4, true, &n), 1);
	assert_int_equal(n.type, 9);
	/* any alignment other than 8 is 4 */
	pos = 0;
	assert_int_equal(elf_note__next(nb.b, nb.n, &pos, 3, true, &n), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf64),	      cmocka_unit_test(test_elf32_swapped),
		cmocka_unit_test(test_truncated),     cmocka_unit_test(test_hostile_header),
		cmocka_unit_test(test_reader_errors), cmocka_unit_test(test_notes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
