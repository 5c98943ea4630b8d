// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mapped files' unwind tables for the record-time unwinder (unwind_int.h),
 * found with base's ELF reader (prec/elf.h).
 * Each file is mapped once and kept: libunwind reads its .eh_frame_hdr search
 * table and the FDEs/CIEs it points to straight from that mapping, so a
 * sample's unwind does no I/O and no allocation once its files are known.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/elf.h"
#include "prec/grow.h"
#include "unwind/unwind_int.h"

/* DWARF pointer encodings (the LSB's .eh_frame_hdr uses them). */
#define PE_OMIT 0xff
#define PE_ABSPTR 0x00
#define PE_ULEB128 0x01
#define PE_UDATA2 0x02
#define PE_UDATA4 0x03
#define PE_UDATA8 0x04
#define PE_SLEB128 0x09
#define PE_SDATA2 0x0a
#define PE_SDATA4 0x0b
#define PE_SDATA8 0x0c
#define PE_DATAREL 0x30
/* The only table format libunwind searches: 4-byte offsets from the header. */
#define PE_TABLE_ENC (PE_DATAREL | PE_SDATA4)

#ifdef __x86_64__
#define UELF_MACHINE EM_X86_64
#else
#define UELF_MACHINE EM_NONE /* record-time unwinding is x86-64 only */
#endif

/* Reads a value in encoding enc's format at *p (before end), advancing *p.
 * The application bits (pc- or data-relative) are the caller's business. */
static int read_encoded(const uint8_t **p, const uint8_t *end, uint8_t enc, uint64_t *val)
{
	size_t n;
	int64_t s;

	switch (enc & 0x0f) {
	case PE_ABSPTR:
	case PE_UDATA8:
	case PE_SDATA8:
		n = 8;
		break;
	case PE_UDATA4:
	case PE_SDATA4:
		n = 4;
		break;
	case PE_UDATA2:
	case PE_SDATA2:
		n = 2;
		break;
	case PE_ULEB128:
	case PE_SLEB128: {
		uint64_t v = 0;
		unsigned shift = 0;
		uint8_t b;

		do {
			if (*p >= end || shift > 63)
				return -EINVAL;
			b = *(*p)++;
			v |= (uint64_t)(b & 0x7f) << shift;
			shift += 7;
		} while (b & 0x80);
		if ((enc & 0x0f) == PE_SLEB128 && shift < 64 && (b & 0x40))
			v |= ~0ULL << shift;
		*val = v;
		return 0;
	}
	default:
		return -EINVAL;
	}
	if ((size_t)(end - *p) < n)
		return -EINVAL;
	*val = 0;
	memcpy(val, *p, n); /* little-endian: the low bytes */
	if ((enc & 0x08) && n < 8) {
		s = (int64_t)(*val << (64 - 8 * n)) >> (64 - 8 * n);
		*val = (uint64_t)s;
	}
	*p += n;
	return 0;
}

/* The .eh_frame_hdr at file offset off (loaded at vaddr): its search table. */
static void parse_eh_frame_hdr(struct uelf *e, uint64_t off, uint64_t vaddr, uint64_t size)
{
	const uint8_t *p, *end;
	uint64_t skip, count;
	uint8_t ptr_enc, count_enc, table_enc;

	if (off >= e->len || size < 4 || size > e->len - off)
		return;
	p = e->img + off;
	end = p + size;
	if (p[0] != 1)
		return; /* version */
	ptr_enc = p[1];
	count_enc = p[2];
	table_enc = p[3];
	p += 4;
	if (count_enc == PE_OMIT || table_enc != PE_TABLE_ENC)
		return;
	if (ptr_enc != PE_OMIT && read_encoded(&p, end, ptr_enc, &skip))
		return;
	if (read_encoded(&p, end, count_enc, &count) || !count)
		return;
	if (count > (uint64_t)(end - p) / 8)
		return; /* the table must lie inside the header's segment */
	e->hdr_vaddr = vaddr;
	e->table_vaddr = vaddr + (uint64_t)(p - (e->img + off));
	e->fde_count = count;
	e->has_table = true;
}

/* No PT_GNU_EH_FRAME (rare): the .eh_frame_hdr section by name. */
static void find_eh_frame_hdr_section(struct uelf *e, const struct elf_file *ef)
{
	uint8_t *tab, *names;
	uint64_t names_len;
	struct elf_shdr sh;

	if (elf__read_shdrs(ef, &tab))
		return;
	if (!elf__read_strtab(ef, tab, e->len, &names, &names_len)) {
		for (uint32_t i = 0; i < ef->shnum; i++) {
			elf__shdr(ef, tab, i, &sh);
			if (elf__name_is(names, names_len, sh.name, ".eh_frame_hdr")) {
				parse_eh_frame_hdr(e, sh.offset, sh.addr, sh.size);
				break;
			}
		}
		free(names);
	}
	free(tab);
}

/* A PT_LOAD segment: where it lies, and the text range it adds to. */
static void add_segment(struct uelf *e, const struct elf_phdr *ph)
{
	struct uelf_seg *s = &e->seg[e->nr_seg++];

	s->vaddr = ph->vaddr;
	s->memsz = ph->memsz;
	s->off = ph->offset;
	s->filesz = ph->filesz;
	if (ph->flags & ELF_PF_X) {
		if (s->vaddr < e->text_lo)
			e->text_lo = s->vaddr;
		uint64_t end = s->memsz > UINT64_MAX - s->vaddr ? UINT64_MAX : s->vaddr + s->memsz;

		if (end > e->text_hi)
			e->text_hi = end;
	}
}

int uelf__parse(struct uelf *e, const void *img, size_t len)
{
	struct elf_mem m;
	struct elf_src src;
	struct elf_file ef;
	struct elf_phdr ph;
	bool phdr_table = false;
	uint8_t *tab;
	uint64_t v;

	e->img = img;
	e->len = len;
	e->has_table = false;
	e->nr_seg = 0;
	e->text_lo = UINT64_MAX;
	e->text_hi = 0;
	elf_src__mem(&src, &m, img, len);
	/* Only what libunwind's x86-64 remote unwinder reads: ELF64, the host's order. */
	if (elf__open(&ef, &src) || !ef.is64 || ef.swap || ef.machine != UELF_MACHINE ||
	    ef.phentsize != sizeof(Elf64_Phdr) || elf__read_phdrs(&ef, &tab))
		return -ENOEXEC;
	for (uint32_t i = 0; i < ef.phnum; i++) {
		elf__phdr(&ef, tab, i, &ph);
		if (ph.type == ELF_PT_LOAD && e->nr_seg < UELF_MAX_SEGS) {
			add_segment(e, &ph);
		} else if (ph.type == ELF_PT_GNU_EH_FRAME) {
			phdr_table = true;
			parse_eh_frame_hdr(e, ph.offset, ph.vaddr, ph.filesz);
		}
	}
	free(tab);
	if (!e->nr_seg)
		return -ENOEXEC;
	if (!phdr_table)
		find_eh_frame_hdr_section(e, &ef);
	/* A table no load segment holds is no table: libunwind could not read
	 * it, and the sample is counted as a file without one. */
	if (e->has_table && (uelf__read_vaddr(e, e->table_vaddr, &v) ||
			     uelf__read_vaddr(e, e->table_vaddr + 8 * (e->fde_count - 1), &v)))
		e->has_table = false;
	if (e->text_lo > e->text_hi) {
		e->text_lo = 0;
		e->text_hi = UINT64_MAX;
	}
	return 0;
}

int uelf__open_file(struct uelf *e, const char *path)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		close(fd);
		return -ENOEXEC;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	ret = m == MAP_FAILED ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	ret = uelf__parse(e, m, (size_t)st.st_size);
	if (ret) {
		munmap(m, (size_t)st.st_size);
		return ret;
	}
	e->map_len = (size_t)st.st_size;
	return 0;
}

int uelf__open_vdso(struct uelf *e)
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	size_t len;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_phentsize != sizeof(*ph))
		return -ENOENT;
	/* The vdso is mapped whole: its end is that of its last part. */
	len = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	ph = (const Elf64_Phdr *)((const uint8_t *)eh + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > len)
			len = ph[i].p_offset + ph[i].p_filesz;
	e->map_len = 0;
	return uelf__parse(e, eh, len);
}

void uelf__close(struct uelf *e)
{
	if (e->map_len)
		munmap((void *)e->img, e->map_len);
	e->img = NULL;
	e->len = e->map_len = 0;
}

int uelf__off_to_vaddr(const struct uelf *e, uint64_t off, uint64_t *vaddr)
{
	for (uint32_t i = 0; i < e->nr_seg; i++) {
		const struct uelf_seg *s = &e->seg[i];

		/* A mapping starts at a page boundary, before its segment's
		 * first byte: the page offset is the same in file and memory. */
		uint64_t pg_off = s->off & ~0xfffULL;

		if (off >= pg_off && (off < s->off || off - s->off < s->filesz)) {
			*vaddr = s->vaddr - (s->off - off);
			return 0;
		}
	}
	return -ENOENT;
}

int uelf__read_off(const struct uelf *e, uint64_t off, uint64_t *val)
{
	*val = 0;
	if (off >= e->len)
		return -EFAULT;
	memcpy(val, e->img + off, e->len - off < 8 ? e->len - off : 8);
	return 0;
}

int uelf__read_vaddr(const struct uelf *e, uint64_t vaddr, uint64_t *val)
{
	for (uint32_t i = 0; i < e->nr_seg; i++) {
		const struct uelf_seg *s = &e->seg[i];
		uint64_t d = vaddr - s->vaddr;

		if (vaddr < s->vaddr || d >= s->memsz)
			continue;
		if (d >= s->filesz) {
			*val = 0; /* .bss: zeros in memory, nothing in the file */
			return 0;
		}
		*val = 0;
		/* Differences, not sums: a hostile p_offset near 2^64 must
		 * not wrap back into the image. */
		if (s->off >= e->len || d >= e->len - s->off)
			return -EFAULT;
		/* A word that runs past the file bytes ends in zeros. */
		size_t n = s->filesz - d < 8 ? (size_t)(s->filesz - d) : 8;

		if (n > e->len - s->off - d)
			n = e->len - s->off - d;
		memcpy(val, e->img + (s->off + d), n);
		return 0;
	}
	return -EFAULT;
}

/* ---- the cache, by name ---- */

static uint32_t hash_ptr(const char *p)
{
	return (uint32_t)(((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL) >> 32);
}

/* Twice the buckets (64 first; nr counts the entries in a uint32_t): each
 * chain splits, in order, between its bucket and the one old buckets on. */
static int cache_grow(struct uelf_cache *c)
{
	size_t old = c->buckets;

	if (grow__array_zero(&c->hash, &c->buckets, old + 1, sizeof(*c->hash), 64, (size_t)1 << 32))
		return -ENOMEM;
	for (size_t b = 0; b < old; b++) {
		struct uelf **keep = &c->hash[b], **move = &c->hash[b + old];

		for (struct uelf *e = c->hash[b], *n; e; e = n) {
			n = e->next;
			if ((hash_ptr(e->key) & (c->buckets - 1)) == b) {
				*keep = e;
				keep = &e->next;
			} else {
				*move = e;
				move = &e->next;
			}
		}
		*keep = *move = NULL;
	}
	return 0;
}

/* The entry for name, or NULL (a miss). */
static struct uelf *cache_find(const struct uelf_cache *c, const char *name)
{
	if (!c->buckets)
		return NULL;
	for (struct uelf *e = c->hash[hash_ptr(name) & (c->buckets - 1)]; e; e = e->next)
		if (e->key == name)
			return e;
	return NULL;
}

/* A new entry for name, chained in; NULL on ENOMEM. */
static struct uelf *cache_insert(struct uelf_cache *c, const char *name)
{
	struct uelf *e;

	if (c->nr >= c->buckets && cache_grow(c))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->key = name;
	e->next = c->hash[hash_ptr(name) & (c->buckets - 1)];
	c->hash[hash_ptr(name) & (c->buckets - 1)] = e;
	c->nr++;
	return e;
}

const struct uelf *uelf_cache__get(struct uelf_cache *c, const char *name)
{
	struct uelf *e = cache_find(c, name);
	int ret;

	if (e)
		return e->img ? e : NULL;
	e = cache_insert(c, name);
	if (!e)
		return NULL;
	if (!strcmp(name, "[vdso]") || name[0] == '/') {
		ret = name[0] == '/' ? uelf__open_file(e, name) : uelf__open_vdso(e);
		c->files++;
		c->bad += ret != 0;
	} else {
		ret = -ENOENT; /* anonymous memory, [heap], [stack], JIT code */
	}
	if (ret)
		e->img = NULL; /* remembered as unusable: tried once */
	return e->img ? e : NULL;
}

int uelf_cache__add(struct uelf_cache *c, const char *name, const void *img, size_t len)
{
	struct uelf *e;
	int ret;

	if (cache_find(c, name))
		return -EEXIST;
	e = cache_insert(c, name);
	if (!e)
		return -ENOMEM;
	ret = uelf__parse(e, img, len);
	c->files++;
	c->bad += ret != 0;
	if (ret)
		e->img = NULL; /* remembered as unusable, as a bad file is */
	e->map_len = 0; /* the caller's memory: never unmapped here */
	return ret;
}

void uelf_cache__exit(struct uelf_cache *c)
{
	for (uint32_t b = 0; b < c->buckets; b++) {
		for (struct uelf *e = c->hash[b], *n; e; e = n) {
			n = e->next;
			uelf__close(e);
			free(e);
		}
	}
	free(c->hash);
	memset(c, 0, sizeof(*c));
}
