// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one ELF reader (prec/elf.h): header, tables, names and notes, bounds
 * checked in 64-bit arithmetic. It knows nothing of build-ids or unwind
 * tables; writer/buildid.c and recorder/unwind/unwind_elf.c read those
 * through it.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/elf.h"

static uint16_t get16(const uint8_t *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_16(v) : v;
}

static uint32_t get32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static uint64_t get64(const uint8_t *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_64(v) : v;
}

/* A word whose width is the file's class: 8 bytes in ELF64, 4 in ELF32. */
static uint64_t getw(const struct elf_file *ef, const uint8_t *p)
{
	return ef->is64 ? get64(p, ef->swap) : get32(p, ef->swap);
}

static bool fits(uint64_t total, uint64_t off, uint64_t len)
{
	return off <= total && len <= total - off;
}

static uint64_t align_up(uint64_t v, unsigned int a)
{
	return (v + a - 1) & ~(uint64_t)(a - 1);
}

static int mem_read(void *ctx, uint64_t off, void *dst, size_t len)
{
	const struct elf_mem *m = ctx;

	memcpy(dst, m->buf + off, len);
	return 0;
}

void elf_src__mem(struct elf_src *src, struct elf_mem *m, const void *buf, size_t len)
{
	m->buf = buf;
	src->read = mem_read;
	src->ctx = m;
	src->size = len;
}

static int fd_read(void *ctx, uint64_t off, void *dst, size_t len)
{
	int fd = *(const int *)ctx;
	uint8_t *p = dst;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO; /* the file shrank under us */
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

void elf_src__fd(struct elf_src *src, int *fd, uint64_t size)
{
	src->read = fd_read;
	src->ctx = fd;
	src->size = size;
}

/* Byte offsets of the header fields after e_ident, per class. */
struct ehdr_layout {
	uint8_t phoff, shoff, phentsize; /* phnum, shentsize, shnum, shstrndx follow as u16s */
	size_t size;
};

static const struct ehdr_layout ehdr32 = { 28, 32, 42, 52 };
static const struct ehdr_layout ehdr64 = { 32, 40, 54, 64 };

int elf__open(struct elf_file *ef, const struct elf_src *src)
{
	const uint16_t one = 1;
	bool host_le = *(const uint8_t *)&one == 1;
	const struct ehdr_layout *l;
	uint8_t eh[64];
	int err;

	memset(ef, 0, sizeof(*ef));
	if (!src || !src->read || src->size < 16)
		return -EINVAL;
	err = src->read(src->ctx, 0, eh, 16);
	if (err)
		return err;
	if (memcmp(eh, "\177ELF", 4))
		return -EINVAL;
	if (eh[4] != 1 && eh[4] != 2) /* ELFCLASS32 / ELFCLASS64 */
		return -EINVAL;
	if (eh[5] != 1 && eh[5] != 2) /* ELFDATA2LSB / ELFDATA2MSB */
		return -EINVAL;
	ef->src = src;
	ef->is64 = eh[4] == 2;
	ef->swap = (eh[5] == 1) != host_le;
	l = ef->is64 ? &ehdr64 : &ehdr32;
	if (src->size < l->size)
		return -EINVAL;
	err = src->read(src->ctx, 16, eh + 16, l->size - 16);
	if (err)
		return err;
	ef->type = get16(eh + 16, ef->swap);
	ef->machine = get16(eh + 18, ef->swap);
	ef->phoff = getw(ef, eh + l->phoff);
	ef->shoff = getw(ef, eh + l->shoff);
	ef->phentsize = get16(eh + l->phentsize, ef->swap);
	ef->phnum = get16(eh + l->phentsize + 2, ef->swap);
	ef->shentsize = get16(eh + l->phentsize + 4, ef->swap);
	ef->shnum = get16(eh + l->phentsize + 6, ef->swap);
	ef->shstrndx = get16(eh + l->phentsize + 8, ef->swap);
	return 0;
}

int elf__read(const struct elf_file *ef, uint64_t off, uint64_t len, uint64_t cap, uint8_t **out)
{
	uint8_t *buf;
	int err;

	*out = NULL;
	if (!fits(ef->src->size, off, len) || len > cap)
		return -EINVAL;
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	err = len ? ef->src->read(ef->src->ctx, off, buf, len) : 0;
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return 0;
}

/* A table of num entries of entsize bytes (at least min, to be decodable) at off. */
static int read_table(const struct elf_file *ef, uint64_t off, uint32_t num, uint32_t entsize,
		      uint32_t min, uint8_t **tab)
{
	*tab = NULL;
	if (!off || !num)
		return -ENOENT;
	if (entsize < min)
		return -EINVAL;
	return elf__read(ef, off, (uint64_t)num * entsize, ELF_TABLE_MAX, tab);
}

int elf__read_shdrs(const struct elf_file *ef, uint8_t **tab)
{
	return read_table(ef, ef->shoff, ef->shnum, ef->shentsize, ef->is64 ? 64 : 40, tab);
}

int elf__read_phdrs(const struct elf_file *ef, uint8_t **tab)
{
	/* PN_XNUM: the count is in section 0, as for huge core files: not ours. */
	return read_table(ef, ef->phoff, ef->phnum == ELF_PN_XNUM ? 0 : ef->phnum, ef->phentsize,
			  ef->is64 ? 56 : 32, tab);
}

void elf__shdr(const struct elf_file *ef, const uint8_t *tab, uint32_t i, struct elf_shdr *sh)
{
	const uint8_t *p = tab + (uint64_t)i * ef->shentsize;
	unsigned int w = ef->is64 ? 8 : 4;

	/* name, type, then flags addr offset size (words), link (u32), info, align (word) */
	sh->name = get32(p, ef->swap);
	sh->type = get32(p + 4, ef->swap);
	sh->flags = getw(ef, p + 8);
	sh->addr = getw(ef, p + 8 + w);
	sh->offset = getw(ef, p + 8 + 2 * w);
	sh->size = getw(ef, p + 8 + 3 * w);
	sh->link = get32(p + 8 + 4 * w, ef->swap);
	sh->align = getw(ef, p + 16 + 4 * w);
}

/* Byte offsets of the program header fields per class (ELF64 moved the flags up). */
struct phdr_layout {
	uint8_t flags, offset, vaddr, filesz, memsz, align;
};

static const struct phdr_layout phdr32 = { 24, 4, 8, 16, 20, 28 };
static const struct phdr_layout phdr64 = { 4, 8, 16, 32, 40, 48 };

void elf__phdr(const struct elf_file *ef, const uint8_t *tab, uint32_t i, struct elf_phdr *ph)
{
	const uint8_t *p = tab + (uint64_t)i * ef->phentsize;
	const struct phdr_layout *l = ef->is64 ? &phdr64 : &phdr32;

	ph->type = get32(p, ef->swap);
	ph->flags = get32(p + l->flags, ef->swap);
	ph->offset = getw(ef, p + l->offset);
	ph->vaddr = getw(ef, p + l->vaddr);
	ph->filesz = getw(ef, p + l->filesz);
	ph->memsz = getw(ef, p + l->memsz);
	ph->align = getw(ef, p + l->align);
}

uint32_t elf__shstrndx(const struct elf_file *ef, const uint8_t *tab)
{
	struct elf_shdr sh0;

	if (ef->shstrndx != ELF_SHN_XINDEX || !ef->shnum)
		return ef->shstrndx;
	elf__shdr(ef, tab, 0, &sh0); /* the index is in sh_link of [0] */
	return (uint32_t)sh0.link;
}

int elf__read_strtab(const struct elf_file *ef, const uint8_t *tab, uint64_t cap, uint8_t **strtab,
		     uint64_t *size)
{
	uint32_t idx = elf__shstrndx(ef, tab);
	struct elf_shdr sh;
	int err;

	*strtab = NULL;
	*size = 0;
	if (idx >= ef->shnum)
		return -ENOENT;
	elf__shdr(ef, tab, idx, &sh);
	if (sh.type == ELF_SHT_NOBITS)
		return -ENOENT;
	err = elf__read(ef, sh.offset, sh.size, cap, strtab);
	if (!err)
		*size = sh.size;
	return err;
}

bool elf__name_is(const uint8_t *strtab, uint64_t size, uint32_t off, const char *want)
{
	size_t n = strlen(want) + 1;

	return strtab && fits(size, off, n) && !memcmp(strtab + off, want, n);
}

int elf_note__next(const uint8_t *buf, size_t len, size_t *pos, unsigned int align, bool swap,
		   struct elf_note *n)
{
	uint64_t p = *pos, name_off, desc_off, next;

	if (align != 8)
		align = 4;
	if (p > len || len - p < 12)
		return 0;
	n->namesz = get32(buf + p, swap);
	n->descsz = get32(buf + p + 4, swap);
	n->type = get32(buf + p + 8, swap);
	/* Padding aligns offsets within the area (which starts aligned), as
	 * gelf_getnote: with 8, a 4-byte name after the 12-byte header needs none. */
	name_off = p + 12;
	if (!fits(len, name_off, n->namesz))
		return -EINVAL;
	desc_off = align_up(name_off + n->namesz, align);
	if (!fits(len, desc_off, n->descsz))
		return -EINVAL;
	n->name = buf + name_off;
	n->desc = buf + desc_off;
	next = align_up(desc_off + n->descsz, align);
	/* The last note may lack its final padding. */
	*pos = next >= len ? len : (size_t)next;
	return 1;
}
