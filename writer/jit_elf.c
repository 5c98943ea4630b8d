// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF image of a JIT's symbols (prec/jit_elf.h): one walk of the symbols
 * checks them and lays out the headers, the build-id note, .symtab, .strtab
 * and .shstrtab; two more write .symtab and .strtab in file order, into one
 * buffer (jit_elf__build) or through a 64 KiB one to a file, hashed on the
 * way (jit_elf__write); the SHA-1 of the bytes names the image. The header
 * says what stock perf requires of the image; here is only how it is laid
 * out.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prec/jit_elf.h"
#include "prec/sha1.h"
#include "prec/write_all.h"

enum { SEC_NULL, SEC_TEXT, SEC_NOTE, SEC_SYMTAB, SEC_STRTAB, SEC_SHSTRTAB, SEC_NR };

static const char *const sec_names[SEC_NR] = {
	[SEC_TEXT] = ".text",	  [SEC_NOTE] = ".note.gnu.build-id", [SEC_SYMTAB] = ".symtab",
	[SEC_STRTAB] = ".strtab", [SEC_SHSTRTAB] = ".shstrtab",
};

#define NOTE_NAME "GNU"
#define NOTE_NAMESZ 4 /* "GNU" and its NUL: already a multiple of 4 */
#define NOTE_SIZE (3 * 4 + NOTE_NAMESZ + SHA1_DIGEST_LEN)
#define NOTE_DESC (3 * 4 + NOTE_NAMESZ) /* the id's offset in the note */
#define CHUNK (64u << 10) /* jit_elf__write's buffer */

/* Where each part lies in the image; the text range the symbols span. */
struct jit_layout {
	uint64_t lo, hi;
	size_t nr, strtab_size, shstrtab_size;
	size_t off_note, off_symtab, off_strtab, off_shstrtab, off_shdrs, total;
};

/*
 * Where the bytes go, in file order: the whole image in buf (fd < 0), or buf
 * written to fd each time it fills, and hashed. Nothing goes past the
 * layout's total, whatever a source gives on a later walk.
 */
struct jit_out {
	uint8_t *buf;
	size_t len, cap;
	uint64_t off; /* the image offset of buf[0] */
	uint64_t total;
	int fd;
	struct sha1_ctx sha;
	int err;
};

static size_t align8(size_t v)
{
	return (v + 7) & ~(size_t)7;
}

static void out_flush(struct jit_out *o)
{
	if (o->fd < 0 || o->err || !o->len)
		return;
	sha1__update(&o->sha, o->buf, o->len);
	o->err = fd__pwrite_all(o->fd, o->buf, o->len, o->off);
	o->off += o->len;
	o->len = 0;
}

/* n bytes of p, or n zeros when p is NULL. */
static void out_put(struct jit_out *o, const void *p, size_t n)
{
	const uint8_t *b = p;

	if (o->err)
		return;
	if (n > o->total - o->off - o->len) {
		o->err = -EINVAL;
		return;
	}
	while (n && !o->err) {
		size_t k = o->cap - o->len < n ? o->cap - o->len : n;

		if (b) {
			memcpy(o->buf + o->len, b, k);
			b += k;
		} else {
			memset(o->buf + o->len, 0, k);
		}
		o->len += k;
		n -= k;
		if (o->len == o->cap)
			out_flush(o);
	}
}

/* The next symbol of a walk: 1, 0 at its end, or -errno (never above 1). */
static int src_next(const struct jit_elf_src *src, struct jit_elf_sym *s)
{
	int ret = src->next(src->ctx, s);

	return ret > 1 ? 1 : ret;
}

/* The first walk: the symbols' rules (prec/jit_elf.h), and the sizes and
 * offsets that follow from them. */
static int jit_elf_check(const struct jit_elf_src *src, struct jit_layout *l)
{
	struct jit_elf_sym s;
	uint64_t prev_end = 0;
	int ret;

	memset(l, 0, sizeof(*l));
	l->strtab_size = 1;
	ret = src->rewind(src->ctx);
	while (!ret && (ret = src_next(src, &s)) > 0) {
		/* perf grows a zero-size symbol to the next one: give it a byte. */
		uint64_t extent = s.size ? s.size : 1;
		size_t name_len;

		ret = 0;
		if (!s.name || !s.name[0] || extent > UINT64_MAX - s.addr)
			return -EINVAL;
		/* Every extent is at least a byte, so this also makes addresses
		 * strictly increase: perf keeps one of two at one address. */
		if (l->nr && s.addr < prev_end)
			return -EINVAL;
		if (!l->nr)
			l->lo = s.addr;
		prev_end = s.addr + extent;
		name_len = strnlen(s.name, JIT_ELF_MAX);
		if (name_len >= JIT_ELF_MAX - l->strtab_size)
			return -EFBIG;
		l->strtab_size += name_len + 1;
		if (++l->nr > JIT_ELF_MAX / sizeof(Elf64_Sym))
			return -EFBIG;
	}
	if (ret < 0)
		return ret;
	l->hi = l->nr ? prev_end : l->lo;
	l->shstrtab_size = 1;
	for (int i = 1; i < SEC_NR; i++)
		l->shstrtab_size += strlen(sec_names[i]) + 1;

	/* Every term is under JIT_ELF_MAX (256 MiB): the sum cannot wrap. */
	l->off_note = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr);
	l->off_symtab = align8(l->off_note + NOTE_SIZE);
	l->off_strtab = l->off_symtab + (l->nr + 1) * sizeof(Elf64_Sym);
	l->off_shstrtab = l->off_strtab + l->strtab_size;
	l->off_shdrs = align8(l->off_shstrtab + l->shstrtab_size);
	l->total = l->off_shdrs + SEC_NR * sizeof(Elf64_Shdr);
	return l->total > JIT_ELF_MAX ? -EFBIG : 0;
}

/* The ELF header, the program headers, and the note with its id zero. */
static void jit_elf_headers(struct jit_out *o, const struct jit_layout *l, uint16_t e_machine)
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
	uint32_t note_hdr[3] = { NOTE_NAMESZ, SHA1_DIGEST_LEN, NT_GNU_BUILD_ID };

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? ELFDATA2MSB : ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = ELFOSABI_SYSV;
	out_put(o, &eh, sizeof(eh));
	out_put(o, ph, sizeof(ph));
	out_put(o, note_hdr, sizeof(note_hdr));
	out_put(o, NOTE_NAME, NOTE_NAMESZ);
	out_put(o, NULL, l->off_symtab - l->off_note - NOTE_DESC);
}

/* A later walk's symbol: one more than the first walk counted, or a name
 * that does not fit what it counted, is a source that changed. The name's
 * length in *n, and *str moved past it. */
static int jit_elf_again(const struct jit_layout *l, const struct jit_elf_sym *s, size_t *nr,
			 size_t *str, size_t *n)
{
	if (!s->name || ++*nr > l->nr)
		return -EINVAL;
	*n = strnlen(s->name, l->strtab_size - *str);
	if (*n >= l->strtab_size - *str)
		return -EINVAL;
	*str += *n + 1;
	return 0;
}

/* The second walk: .symtab, after its null symbol. */
static int jit_elf_symtab(const struct jit_elf_src *src, const struct jit_layout *l,
			  struct jit_out *o)
{
	struct jit_elf_sym s;
	size_t str = 1, nr = 0, n;
	int ret = src->rewind(src->ctx);

	out_put(o, NULL, sizeof(Elf64_Sym));
	while (!ret && (ret = src_next(src, &s)) > 0) {
		Elf64_Sym st = { .st_name = (Elf64_Word)str,
				 .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
				 .st_other = STV_DEFAULT,
				 .st_shndx = SEC_TEXT,
				 .st_value = s.addr,
				 .st_size = s.size };

		ret = jit_elf_again(l, &s, &nr, &str, &n);
		if (ret)
			return ret;
		out_put(o, &st, sizeof(st));
	}
	if (ret < 0)
		return ret;
	return nr == l->nr && str == l->strtab_size ? o->err : -EINVAL;
}

/* The third walk: .strtab, after its empty name. */
static int jit_elf_strtab(const struct jit_elf_src *src, const struct jit_layout *l,
			  struct jit_out *o)
{
	struct jit_elf_sym s;
	size_t str = 1, nr = 0, n;
	int ret = src->rewind(src->ctx);

	out_put(o, NULL, 1);
	while (!ret && (ret = src_next(src, &s)) > 0) {
		ret = jit_elf_again(l, &s, &nr, &str, &n);
		if (ret)
			return ret;
		out_put(o, s.name, n + 1);
	}
	if (ret < 0)
		return ret;
	return nr == l->nr && str == l->strtab_size ? o->err : -EINVAL;
}

/* .shstrtab and the section headers. */
static void jit_elf_sections(struct jit_out *o, const struct jit_layout *l)
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
				 .sh_size = (l->nr + 1) * sizeof(Elf64_Sym),
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

	out_put(o, NULL, 1);
	for (int i = 1; i < SEC_NR; i++) {
		size_t n = strlen(sec_names[i]) + 1;

		sh[i].sh_name = (Elf64_Word)pos;
		out_put(o, sec_names[i], n);
		pos += n;
	}
	out_put(o, NULL, l->off_shdrs - l->off_shstrtab - l->shstrtab_size);
	out_put(o, sh, sizeof(sh));
}

/* The image after the first walk, in file order, every byte through o. */
static int jit_elf_emit(const struct jit_elf_src *src, const struct jit_layout *l,
			uint16_t e_machine, struct jit_out *o)
{
	int err;

	jit_elf_headers(o, l, e_machine);
	err = jit_elf_symtab(src, l, o);
	if (!err)
		err = jit_elf_strtab(src, l, o);
	if (err)
		return err;
	jit_elf_sections(o, l);
	if (!o->err && o->off + o->len != l->total)
		o->err = -EINVAL;
	out_flush(o);
	return o->err;
}

/* jit_elf__build's source: an array. */
struct jit_array {
	const struct jit_elf_sym *syms;
	size_t nr, i;
};

static int jit_array_rewind(void *ctx)
{
	((struct jit_array *)ctx)->i = 0;
	return 0;
}

static int jit_array_next(void *ctx, struct jit_elf_sym *s)
{
	struct jit_array *a = ctx;

	if (a->i >= a->nr)
		return 0;
	*s = a->syms[a->i++];
	return 1;
}

int jit_elf__build(const struct jit_elf_sym *syms, size_t nr, uint16_t e_machine, void **img,
		   size_t *len, struct build_id *bid)
{
	struct jit_array a = { syms, nr, 0 };
	struct jit_elf_src src = { jit_array_rewind, jit_array_next, &a };
	struct jit_layout l;
	struct jit_out o = { .fd = -1 };
	uint8_t *desc;
	int err;

	if ((nr && !syms) || !img || !len || !bid)
		return -EINVAL;
	if (nr > JIT_ELF_MAX / sizeof(Elf64_Sym))
		return -EFBIG;
	err = jit_elf_check(&src, &l);
	if (err)
		return err;
	o.buf = malloc(l.total);
	if (!o.buf)
		return -ENOMEM;
	o.cap = o.total = l.total;
	err = jit_elf_emit(&src, &l, e_machine, &o);
	if (err) {
		free(o.buf);
		return err;
	}
	/* The id hashes the image with its own descriptor still zero. */
	desc = o.buf + l.off_note + NOTE_DESC;
	sha1(o.buf, l.total, desc);
	memset(bid, 0, sizeof(*bid));
	memcpy(bid->data, desc, SHA1_DIGEST_LEN);
	bid->size = SHA1_DIGEST_LEN;
	*img = o.buf;
	*len = l.total;
	return 0;
}

int jit_elf__write(int fd, const struct jit_elf_src *src, uint16_t e_machine, size_t *nr,
		   struct build_id *bid)
{
	struct jit_layout l;
	struct jit_out o = { .fd = fd, .cap = CHUNK };
	uint8_t id[SHA1_DIGEST_LEN];
	int err;

	if (fd < 0 || !src || !src->rewind || !src->next)
		return -EINVAL;
	err = jit_elf_check(src, &l);
	if (err)
		return err;
	o.buf = malloc(CHUNK);
	if (!o.buf)
		return -ENOMEM;
	o.total = l.total;
	sha1__init(&o.sha);
	err = jit_elf_emit(src, &l, e_machine, &o);
	free(o.buf);
	if (err)
		return err;
	/* The id hashes the image with its own descriptor still zero. */
	sha1__final(&o.sha, id);
	err = fd__pwrite_all(fd, id, sizeof(id), l.off_note + NOTE_DESC);
	if (err)
		return err;
	if (nr)
		*nr = l.nr;
	if (bid) {
		memset(bid, 0, sizeof(*bid));
		memcpy(bid->data, id, SHA1_DIGEST_LEN);
		bid->size = SHA1_DIGEST_LEN;
	}
	return 0;
}
