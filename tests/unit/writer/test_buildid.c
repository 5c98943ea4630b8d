// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF build-id note reader: the note parser on a hostile table, ELF
 * images built here (ELF32/64, both byte orders, sections and/or segments)
 * and broken one field at a time, every prefix and random flips of a valid
 * image, then real files: /bin/ls against readelf -n, a truncated copy, the
 * running kernel's notes against perf buildid-list -k, the vdso, a module
 * notes fixture, and files that are not ELF at all (FIFO, directory, empty).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/buildid.h"

#define PERF_BIN "/usr/bin/perf"

static const uint8_t ID20[20] = { 0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc,
				  0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9 };

/* ---- buildid__parse_notes ---- */

struct nbuf {
	uint8_t b[512];
	size_t n;
};

static void nb_u32(struct nbuf *nb, uint32_t v, bool be)
{
	if (be)
		v = __builtin_bswap32(v);
	memcpy(nb->b + nb->n, &v, 4);
	nb->n += 4;
}

static void nb_bytes(struct nbuf *nb, const void *p, size_t n, unsigned int align)
{
	memcpy(nb->b + nb->n, p, n);
	nb->n += n;
	while (nb->n % align)
		nb->b[nb->n++] = 0;
}

/* One note; pad_desc false leaves the descriptor's padding out. */
static void nb_note(struct nbuf *nb, const char *name, uint32_t namesz, uint32_t type,
		    const uint8_t *desc, uint32_t descsz, unsigned int align, bool be,
		    bool pad_desc)
{
	nb_u32(nb, namesz, be);
	nb_u32(nb, descsz, be);
	nb_u32(nb, type, be);
	nb_bytes(nb, name, namesz, align);
	nb_bytes(nb, desc, descsz, pad_desc ? align : 1);
}

static void test_notes_table(void **state)
{
	static const uint8_t md5[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	static const uint8_t odd[5] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xa5 };
	static const uint8_t big[24] = { 0 };
	struct build_id bid;
	struct nbuf nb;

	(void)state;
	/* sha1, as ld writes it */
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "GNU", 4, 3, ID20, 20, 4, false, true);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), 0);
	assert_int_equal(bid.size, 20);
	assert_memory_equal(bid.data, ID20, 20);

	/* md5 (--build-id=md5), after a Linux note and a Xen one */
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "Linux", 6, 0x101, odd, 4, 4, false, true);
	nb_note(&nb, "Xen", 4, 0x12, ID20, 8, 4, false, true);
	nb_note(&nb, "GNU", 4, 3, md5, 16, 4, false, true);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), 0);
	assert_int_equal(bid.size, 16);
	assert_memory_equal(bid.data, md5, 16);
	assert_int_equal(bid.data[16] | bid.data[19], 0);

	/* 5 bytes: perf keeps the padding too (8 bytes, the last 3 zero) */
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "GNU", 4, 3, odd, 5, 4, false, true);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), 0);
	assert_int_equal(bid.size, 8);
	assert_memory_equal(bid.data, odd, 5);
	assert_int_equal(bid.data[5] | bid.data[6] | bid.data[7], 0);
	/* ... unless the area ends right after the descriptor */
	nb.n -= 3;
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), 0);
	assert_int_equal(bid.size, 5);

	/* other byte order */
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "GNU", 4, 3, ID20, 20, 4, true, true);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, true, &bid), 0);
	assert_memory_equal(bid.data, ID20, 20);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), -EINVAL);

	/* 8-byte note alignment (a name of 4 padded to 8) */
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "GNU", 4, 5, odd, 4, 8, false, true); /* a property note first */
	nb_note(&nb, "GNU", 4, 3, ID20, 20, 8, false, true);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 8, false, &bid), 0);
	assert_memory_equal(bid.data, ID20, 20);

	/* not a build-id: wrong owner, wrong type, owner without its NUL */
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "GNX", 4, 3, ID20, 20, 4, false, true);
	nb_note(&nb, "GNU", 4, 4, ID20, 20, 4, false, true);
	nb_note(&nb, "GNUX", 3, 3, ID20, 20, 4, false, true);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), -ENOENT);

	/* hostile: empty descriptor, too long, sizes past the end */
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "GNU", 4, 3, ID20, 0, 4, false, true);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), -EINVAL);
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "GNU", 4, 3, big, 24, 4, false, true);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), -EINVAL);
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "GNU", 4, 3, ID20, 20, 4, false, true);
	memcpy(nb.b + 4, &(uint32_t){ 0xffffffffu }, 4); /* descsz */
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), -EINVAL);
	memcpy(nb.b + 4, &(uint32_t){ 20 }, 4);
	memcpy(nb.b, &(uint32_t){ 0xfffffffdu }, 4); /* namesz: align would wrap 32 bits */
	assert_int_equal(buildid__parse_notes(nb.b, nb.n, 4, false, &bid), -EINVAL);
	memcpy(nb.b, &(uint32_t){ 4 }, 4);
	assert_int_equal(buildid__parse_notes(nb.b, nb.n - 1, 4, false, &bid), -EINVAL);
	assert_int_equal(buildid__parse_notes(nb.b, 16, 4, false, &bid), -EINVAL);
	/* shorter than a note header: nothing there */
	assert_int_equal(buildid__parse_notes(nb.b, 11, 4, false, &bid), -ENOENT);
	assert_int_equal(buildid__parse_notes(nb.b, 0, 4, false, &bid), -ENOENT);
	assert_int_equal(buildid__parse_notes(NULL, 0, 4, false, &bid), -EINVAL);
}

/* ---- ELF images built here ---- */

struct elf_spec {
	bool is64, be;
	bool sections, segment;
	const char *secname; /* NULL: .note.gnu.build-id */
	uint32_t sectype; /* 0: SHT_NOTE */
	uint32_t align; /* note alignment, 0: 4 */
	const uint8_t *id; /* NULL: ID20 */
	uint32_t idlen; /* 0: 20 */
};

struct elf_img {
	uint8_t b[2048];
	size_t len;
	size_t phoff, shoff, note_off, note_len, str_off;
	size_t ehsize, phentsize, shentsize;
	bool is64, be;
};

static void put(struct elf_img *im, size_t off, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int sh = im->be ? 8 * (n - 1 - i) : 8 * i;

		im->b[off + i] = (uint8_t)(v >> sh);
	}
}

static void put_word(struct elf_img *im, size_t off, uint64_t v)
{
	put(im, off, v, im->is64 ? 8 : 4);
}

/* ELF header field offsets for the image's class. */
#define EH(im, f64, f32) ((im)->is64 ? (f64) : (f32))
#define EH_PHOFF(im) EH(im, 32, 28)
#define EH_SHOFF(im) EH(im, 40, 32)
#define EH_PHENTSIZE(im) EH(im, 54, 42)
#define EH_PHNUM(im) EH(im, 56, 44)
#define EH_SHENTSIZE(im) EH(im, 58, 46)
#define EH_SHNUM(im) EH(im, 60, 48)
#define EH_SHSTRNDX(im) EH(im, 62, 50)
/* section header fields (of section i) */
#define SH(im, i) ((im)->shoff + (i) * (im)->shentsize)
#define SH_NAME 0
#define SH_TYPE 4
#define SH_OFFSET(im) EH(im, 24, 16)
#define SH_SIZE(im) EH(im, 32, 20)
#define SH_ALIGN(im) EH(im, 48, 32)
/* program header fields */
#define PH_OFFSET(im) EH(im, 8, 4)
#define PH_FILESZ(im) EH(im, 32, 16)
#define PH_ALIGN(im) EH(im, 48, 28)

static size_t align8(size_t v)
{
	return (v + 7) & ~(size_t)7;
}

static void build(struct elf_img *im, const struct elf_spec *sp)
{
	const char *secname = sp->secname ? sp->secname : ".note.gnu.build-id";
	uint32_t align = sp->align ? sp->align : 4;
	const uint8_t *id = sp->id ? sp->id : ID20;
	uint32_t idlen = sp->idlen ? sp->idlen : 20;
	size_t off, name_len = strlen(secname) + 1;

	memset(im, 0, sizeof(*im));
	im->is64 = sp->is64;
	im->be = sp->be;
	im->ehsize = sp->is64 ? 64 : 52;
	im->phentsize = sp->is64 ? 56 : 32;
	im->shentsize = sp->is64 ? 64 : 40;
	memcpy(im->b, "\177ELF", 4);
	im->b[4] = sp->is64 ? 2 : 1;
	im->b[5] = sp->be ? 2 : 1;
	im->b[6] = 1;
	put(im, 16, 3, 2); /* ET_DYN */
	put(im, 18, sp->is64 ? 62 : 3, 2);
	put(im, 20, 1, 4);
	put(im, EH(im, 52, 40), im->ehsize, 2);

	off = im->ehsize;
	if (sp->segment) {
		im->phoff = off;
		put_word(im, EH_PHOFF(im), im->phoff);
		put(im, EH_PHENTSIZE(im), im->phentsize, 2);
		put(im, EH_PHNUM(im), 1, 2);
		off += im->phentsize;
	}
	/* the note */
	off = align8(off);
	im->note_off = off;
	put(im, off, 4, 4);
	put(im, off + 4, idlen, 4);
	put(im, off + 8, 3, 4);
	memcpy(im->b + off + 12, "GNU", 4);
	off += 16; /* 8-aligned already: no padding for either alignment */
	memcpy(im->b + off, id, idlen);
	off += (idlen + align - 1) & ~(size_t)(align - 1);
	im->note_len = off - im->note_off;
	if (sp->segment) {
		put(im, im->phoff, 4, 4); /* PT_NOTE */
		put_word(im, im->phoff + PH_OFFSET(im), im->note_off);
		put_word(im, im->phoff + PH_FILESZ(im), im->note_len);
		put_word(im, im->phoff + PH_ALIGN(im), align);
	}
	if (sp->sections) {
		/* "\0.shstrtab\0<name>\0" */
		im->str_off = off;
		memcpy(im->b + off + 1, ".shstrtab", 10);
		memcpy(im->b + off + 11, secname, name_len);
		off = align8(off + 11 + name_len);
		im->shoff = off;
		put_word(im, EH_SHOFF(im), im->shoff);
		put(im, EH_SHENTSIZE(im), im->shentsize, 2);
		put(im, EH_SHNUM(im), 3, 2);
		put(im, EH_SHSTRNDX(im), 1, 2);
		/* [1] .shstrtab */
		put(im, SH(im, 1) + SH_NAME, 1, 4);
		put(im, SH(im, 1) + SH_TYPE, 3, 4);
		put_word(im, SH(im, 1) + SH_OFFSET(im), im->str_off);
		put_word(im, SH(im, 1) + SH_SIZE(im), 11 + name_len);
		put_word(im, SH(im, 1) + SH_ALIGN(im), 1);
		/* [2] the note section */
		put(im, SH(im, 2) + SH_NAME, 11, 4);
		put(im, SH(im, 2) + SH_TYPE, sp->sectype ? sp->sectype : 7, 4);
		put_word(im, SH(im, 2) + SH_OFFSET(im), im->note_off);
		put_word(im, SH(im, 2) + SH_SIZE(im), im->note_len);
		put_word(im, SH(im, 2) + SH_ALIGN(im), align);
		off += 3 * im->shentsize;
	}
	im->len = off;
	assert_true(im->len <= sizeof(im->b));
}

static int bid_of(const struct elf_img *im, struct build_id *bid)
{
	/* An exact-size copy: valgrind/ASan see any read past the end. */
	uint8_t *copy = malloc(im->len);
	int err;

	assert_non_null(copy);
	memcpy(copy, im->b, im->len);
	err = buildid__from_elf(copy, im->len, bid);
	free(copy);
	return err;
}

static void test_elf_shapes(void **state)
{
	static const uint8_t md5[16] = { 0xde, 0xad, 0xbe, 0xef, 1, 2,	3,  4,
					 5,    6,    7,	   8,	 9, 10, 11, 12 };
	struct elf_img im;
	struct build_id bid;

	(void)state;
	for (int is64 = 0; is64 < 2; is64++) {
		for (int be = 0; be < 2; be++) {
			for (int shape = 1; shape < 4; shape++) {
				struct elf_spec sp = { .is64 = is64,
						       .be = be,
						       .sections = shape & 1,
						       .segment = shape & 2 };

				build(&im, &sp);
				memset(&bid, 0xee, sizeof(bid));
				assert_int_equal(bid_of(&im, &bid), 0);
				assert_int_equal(bid.size, 20);
				assert_memory_equal(bid.data, ID20, 20);
			}
		}
	}
	/* md5-sized ids */
	build(&im, &(struct elf_spec){ .is64 = true, .sections = true, .id = md5, .idlen = 16 });
	assert_int_equal(bid_of(&im, &bid), 0);
	assert_int_equal(bid.size, 16);
	assert_memory_equal(bid.data, md5, 16);
	/* the other names perf looks for, and any SHT_NOTE section */
	static const char *const names[] = { ".notes", ".note", ".note.weird", "" };

	for (size_t i = 0; i < 4; i++) {
		build(&im,
		      &(struct elf_spec){ .is64 = true, .sections = true, .secname = names[i] });
		assert_int_equal(bid_of(&im, &bid), 0);
		assert_memory_equal(bid.data, ID20, 20);
	}
	/* perf looks .note.gnu.build-id up by name, whatever its type */
	build(&im, &(struct elf_spec){ .is64 = true, .sections = true, .sectype = 1 });
	assert_int_equal(bid_of(&im, &bid), 0);
	/* a NOBITS one has no bytes: only the segment can tell */
	build(&im, &(struct elf_spec){ .is64 = true, .sections = true, .sectype = 8 });
	assert_int_equal(bid_of(&im, &bid), -ENOENT);
	build(&im,
	      &(struct elf_spec){ .is64 = true, .sections = true, .segment = true, .sectype = 8 });
	assert_int_equal(bid_of(&im, &bid), 0);
	/* a PROGBITS section of another name is not a note */
	build(&im, &(struct elf_spec){
			   .is64 = true, .sections = true, .secname = ".data", .sectype = 1 });
	assert_int_equal(bid_of(&im, &bid), -ENOENT);
	/* notes aligned to 8 */
	build(&im, &(struct elf_spec){ .is64 = true, .sections = true, .align = 8 });
	assert_int_equal(bid_of(&im, &bid), 0);
	assert_memory_equal(bid.data, ID20, 20);
	build(&im, &(struct elf_spec){ .is64 = true, .segment = true, .align = 8 });
	assert_int_equal(bid_of(&im, &bid), 0);
	assert_memory_equal(bid.data, ID20, 20);
}

/* One field broken at a time. */
enum fld {
	F_MAGIC,
	F_CLASS,
	F_DATA,
	F_SHOFF,
	F_SHNUM,
	F_SHENTSIZE,
	F_SHSTRNDX,
	F_SH_NAME,
	F_SH_OFFSET,
	F_SH_SIZE,
	F_PHOFF,
	F_PHNUM,
	F_PHENTSIZE,
	F_PH_OFFSET,
	F_PH_FILESZ,
	F_DESCSZ,
	F_NAMESZ,
	F_LEN,
};

struct hostile_row {
	const char *what;
	bool sections, segment, is64;
	enum fld f;
	uint64_t v;
	int want;
};

static const struct hostile_row hostile_rows[] = {
	{ "not ELF", true, true, true, F_MAGIC, 0x7e, -EINVAL },
	{ "class 0", true, true, true, F_CLASS, 0, -EINVAL },
	{ "class 3", true, true, false, F_CLASS, 3, -EINVAL },
	{ "data 3", true, true, true, F_DATA, 3, -EINVAL },
	{ "8 bytes", true, true, true, F_LEN, 8, -EINVAL },
	{ "half a header", true, true, true, F_LEN, 40, -EINVAL },
	{ "half a 32-bit header", true, true, false, F_LEN, 30, -EINVAL },
	{ "section table past the end", true, false, true, F_SHOFF, 4096, -EINVAL },
	{ "section table offset wraps", true, false, true, F_SHOFF, UINT64_MAX - 8, -EINVAL },
	{ "32-bit table offset past the end", true, false, false, F_SHOFF, 0xfffffff0, -EINVAL },
	{ "65535 sections", true, false, true, F_SHNUM, 0xffff, -EINVAL },
	{ "tiny section entries", true, false, true, F_SHENTSIZE, 10, -EINVAL },
	{ "tiny 32-bit section entries", true, false, false, F_SHENTSIZE, 39, -EINVAL },
	{ "names index out of range: SHT_NOTE still found", true, false, true, F_SHSTRNDX, 7, 0 },
	{ "names index XINDEX, link 0", true, false, true, F_SHSTRNDX, 0xffff, 0 },
	{ "name past the names", true, false, true, F_SH_NAME, 0x7fffffff, 0 },
	{ "note offset past the end", true, false, true, F_SH_OFFSET, 4096, -EINVAL },
	{ "note offset wraps", true, false, true, F_SH_OFFSET, UINT64_MAX - 3, -EINVAL },
	{ "note size huge", true, false, true, F_SH_SIZE, UINT64_MAX, -EINVAL },
	{ "note size 2 GiB", true, false, false, F_SH_SIZE, 0x80000000, -EINVAL },
	{ "note size 5", true, false, true, F_SH_SIZE, 5, -EINVAL },
	{ "note size 0", true, false, true, F_SH_SIZE, 0, -ENOENT },
	{ "segment table past the end", false, true, true, F_PHOFF, 1 << 20, -EINVAL },
	{ "segment table wraps", false, true, true, F_PHOFF, UINT64_MAX - 7, -EINVAL },
	{ "tiny segment entries", false, true, true, F_PHENTSIZE, 8, -EINVAL },
	{ "PN_XNUM segments: not followed", false, true, true, F_PHNUM, 0xffff, -ENOENT },
	{ "segment offset past the end", false, true, true, F_PH_OFFSET, 1 << 20, -EINVAL },
	{ "segment size huge", false, true, false, F_PH_FILESZ, 0xffffffff, -EINVAL },
	{ "bad sections, good segment", true, true, true, F_SHOFF, 4096, 0 },
	{ "extended numbering (shnum 0): segment", true, true, true, F_SHNUM, 0, 0 },
	{ "descriptor size huge", true, false, true, F_DESCSZ, 0xffffffff, -EINVAL },
	{ "descriptor size 0", true, true, true, F_DESCSZ, 0, -EINVAL },
	{ "descriptor size 21", true, false, true, F_DESCSZ, 21, -EINVAL },
	{ "name size huge", true, true, false, F_NAMESZ, 0xfffffffc, -EINVAL },
	{ "name size 5", true, false, true, F_NAMESZ, 5, -EINVAL },
};

static void apply(struct elf_img *im, enum fld f, uint64_t v)
{
	switch (f) {
	case F_MAGIC:
		im->b[0] = (uint8_t)v;
		break;
	case F_CLASS:
		im->b[4] = (uint8_t)v;
		break;
	case F_DATA:
		im->b[5] = (uint8_t)v;
		break;
	case F_SHOFF:
		put_word(im, EH_SHOFF(im), v);
		break;
	case F_SHNUM:
		put(im, EH_SHNUM(im), v, 2);
		break;
	case F_SHENTSIZE:
		put(im, EH_SHENTSIZE(im), v, 2);
		break;
	case F_SHSTRNDX:
		put(im, EH_SHSTRNDX(im), v, 2);
		break;
	case F_SH_NAME:
		put(im, SH(im, 2) + SH_NAME, v, 4);
		break;
	case F_SH_OFFSET:
		put_word(im, SH(im, 2) + SH_OFFSET(im), v);
		break;
	case F_SH_SIZE:
		put_word(im, SH(im, 2) + SH_SIZE(im), v);
		break;
	case F_PHOFF:
		put_word(im, EH_PHOFF(im), v);
		break;
	case F_PHNUM:
		put(im, EH_PHNUM(im), v, 2);
		break;
	case F_PHENTSIZE:
		put(im, EH_PHENTSIZE(im), v, 2);
		break;
	case F_PH_OFFSET:
		put_word(im, im->phoff + PH_OFFSET(im), v);
		break;
	case F_PH_FILESZ:
		put_word(im, im->phoff + PH_FILESZ(im), v);
		break;
	case F_DESCSZ:
		put(im, im->note_off + 4, v, 4);
		break;
	case F_NAMESZ:
		put(im, im->note_off, v, 4);
		break;
	case F_LEN:
		im->len = (size_t)v;
		break;
	}
}

static void test_elf_hostile(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hostile_rows) / sizeof(hostile_rows[0]); i++) {
		const struct hostile_row *r = &hostile_rows[i];
		struct elf_img im;
		struct build_id bid;
		int err;

		build(&im, &(struct elf_spec){ .is64 = r->is64,
					       .sections = r->sections,
					       .segment = r->segment });
		apply(&im, r->f, r->v);
		err = bid_of(&im, &bid);
		if (err != r->want)
			fail_msg("%s: got %d, want %d", r->what, err, r->want);
		if (!err)
			assert_memory_equal(bid.data, ID20, 20);
	}
}

/* Every prefix of a valid image: a result, never a read past the end. */
static void test_elf_prefixes(void **state)
{
	(void)state;
	for (int shape = 1; shape < 4; shape++) {
		for (int is64 = 0; is64 < 2; is64++) {
			struct elf_img im;
			size_t full;

			build(&im, &(struct elf_spec){ .is64 = is64,
						       .sections = shape & 1,
						       .segment = shape & 2 });
			full = im.len;
			for (size_t n = 0; n <= full; n++) {
				struct build_id bid;
				int err;

				im.len = n;
				err = bid_of(&im, &bid);
				assert_true(err == 0 || err == -EINVAL || err == -ENOENT);
				if (n == full)
					assert_int_equal(err, 0);
				if (!err)
					assert_memory_equal(bid.data, ID20, 20);
			}
		}
	}
}

/* Random flips (a fixed seed): any answer, no crash, sizes always sane. */
static void test_elf_flips(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (int round = 0; round < 4000; round++) {
		struct elf_img im;
		struct build_id bid;
		int err;

		build(&im, &(struct elf_spec){ .is64 = round & 1,
					       .be = (round >> 1) & 1,
					       .sections = true,
					       .segment = round & 4 });
		for (int k = 0; k < 1 + round % 4; k++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			im.b[(seed >> 33) % im.len] ^= (uint8_t)(1u << ((seed >> 20) & 7));
		}
		err = bid_of(&im, &bid);
		assert_true(err == 0 || err == -EINVAL || err == -ENOENT);
		if (!err)
			assert_true(bid.size >= 1 && bid.size <= 20);
	}
}

/* ---- real files ---- */

/* The "Build ID:" readelf -n prints for path, or "" without readelf. */
static void readelf_id(const char *path, char *out, size_t len)
{
	char cmd[512], line[512];
	FILE *p;

	out[0] = '\0';
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		char *s = strstr(line, "Build ID: ");

		if (s && sscanf(s + 10, "%63s", out) == 1)
			break;
	}
	pclose(p);
	(void)len;
}

static void test_real_binaries(void **state)
{
	static const char *const paths[] = { "/bin/ls", "/bin/sh", "/usr/bin/perf" };
	int checked = 0;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		char want[64], got[SBUILD_ID_LEN];
		struct build_id bid;

		readelf_id(paths[i], want, sizeof(want));
		if (!want[0])
			continue;
		assert_int_equal(buildid__read_file(paths[i], &bid), 0);
		buildid__snprintf(&bid, got, sizeof(got));
		assert_string_equal(got, want);
		checked++;
	}
	if (!checked)
		skip(); /* no readelf, or binaries without build-ids */
}

static char tmpdir[] = "/tmp/prec-buildid-XXXXXX";

static void path_in_tmp(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void write_file(const char *path, const void *b, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	close(fd);
}

/* A binary cut after its notes (its section table gone): the segments
 * still give the id. */
static void test_truncated_copy(void **state)
{
	char path[256], want[SBUILD_ID_LEN], got[SBUILD_ID_LEN];
	struct build_id bid;
	uint8_t buf[4096];
	ssize_t n;
	int fd;

	(void)state;
	if (buildid__read_file("/bin/ls", &bid))
		skip();
	buildid__snprintf(&bid, want, sizeof(want));
	fd = open("/bin/ls", O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_int_equal(n, (ssize_t)sizeof(buf));
	path_in_tmp(path, sizeof(path), "ls.head");
	write_file(path, buf, sizeof(buf));
	assert_int_equal(buildid__read_file(path, &bid), 0);
	buildid__snprintf(&bid, got, sizeof(got));
	assert_string_equal(got, want);
	/* just the ELF header: nothing it points at is there */
	write_file(path, buf, 64);
	assert_int_equal(buildid__read_file(path, &bid), -EINVAL);
	unlink(path);
}

static void test_not_elf_files(void **state)
{
	char path[256];
	struct build_id bid;

	(void)state;
	assert_int_equal(buildid__read_file("/nonexistent/prec/x", &bid), -ENOENT);
	assert_int_equal(buildid__read_file(tmpdir, &bid), -EINVAL); /* a directory */
	path_in_tmp(path, sizeof(path), "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(buildid__read_file(path, &bid), -EINVAL); /* no hang */
	unlink(path);
	path_in_tmp(path, sizeof(path), "empty");
	write_file(path, "", 0);
	assert_int_equal(buildid__read_file(path, &bid), -EINVAL);
	write_file(path, "#!/bin/sh\necho hello\n", 21);
	assert_int_equal(buildid__read_file(path, &bid), -EINVAL);
	unlink(path);
	assert_int_equal(buildid__read_file("/dev/null", &bid), -EINVAL);
}

static void test_kernel_notes(void **state)
{
	char got[SBUILD_ID_LEN], want[64] = "", cmd[128];
	struct build_id bid;
	FILE *p;
	int err;

	(void)state;
	err = buildid__read_kernel(NULL, &bid);
	if (err == -ENOENT || err == -EACCES)
		skip(); /* no sysfs here */
	assert_int_equal(err, 0);
	assert_true(bid.size >= 1 && bid.size <= 20);
	buildid__snprintf(&bid, got, sizeof(got));
	if (access(PERF_BIN, X_OK))
		return;
	snprintf(cmd, sizeof(cmd), "%s buildid-list -k 2>/dev/null", PERF_BIN);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(want, sizeof(want), p))
		want[0] = '\0';
	pclose(p);
	want[strcspn(want, "\n")] = '\0';
	if (want[0])
		assert_string_equal(got, want);
}

static void test_vdso(void **state)
{
	struct build_id a, b;

	(void)state;
	if (!getauxval(AT_SYSINFO_EHDR))
		skip();
	assert_int_equal(buildid__read_vdso(&a), 0);
	assert_int_equal(a.size, 20);
	assert_int_equal(buildid__read_vdso(&b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
}

/* sys/module/NAME/notes/.note.gnu.build-id under a fixture root. */
static void test_module_notes(void **state)
{
	static const char *const names[] = { "[nvidia_drm]", "nvidia_drm", "nvidia-drm",
					     "/lib/modules/6.1.0/kernel/drivers/nvidia-drm.ko.xz",
					     "/x/nvidia_drm.ko" };
	char sys[256], path[512];
	struct build_id bid;
	struct nbuf nb;

	(void)state;
	memset(&nb, 0, sizeof(nb));
	nb_note(&nb, "GNU", 4, 3, ID20, 20, 4, false, true);
	path_in_tmp(sys, sizeof(sys), "sys");
	mkdir(sys, 0755);
	snprintf(path, sizeof(path), "%s/module", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module/nvidia_drm", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module/nvidia_drm/notes", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module/nvidia_drm/notes/.note.gnu.build-id", sys);
	write_file(path, nb.b, nb.n);
	for (size_t i = 0; i < 5; i++) {
		memset(&bid, 0, sizeof(bid));
		assert_int_equal(buildid__read_module(sys, names[i], &bid), 0);
		assert_memory_equal(bid.data, ID20, 20);
	}
	assert_int_equal(buildid__read_module(sys, "[ext4]", &bid), -ENOENT);
	assert_int_equal(buildid__read_module(sys, "[unclosed", &bid), -EINVAL);
	assert_int_equal(buildid__read_module(sys, "[]", &bid), -EINVAL);
	assert_int_equal(buildid__read_module(sys, "/dir/", &bid), -EINVAL);
	assert_int_equal(buildid__read_module(sys, "[../../../etc]", &bid), -EINVAL);
	/* the kernel's notes under the same root: absent here */
	assert_int_equal(buildid__read_kernel(sys, &bid), -ENOENT);
	snprintf(path, sizeof(path), "%s/kernel", sys);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/kernel/notes", sys);
	write_file(path, nb.b, nb.n);
	assert_int_equal(buildid__read_kernel(sys, &bid), 0);
	assert_memory_equal(bid.data, ID20, 20);
	unlink(path);
	snprintf(path, sizeof(path), "rm -rf '%s'", sys);
	assert_int_equal(system(path), 0);
}

static void test_snprintf(void **state)
{
	struct build_id bid = { .size = 3, .data = { 0x00, 0xab, 0x7f } };
	char buf[SBUILD_ID_LEN];

	(void)state;
	assert_int_equal(buildid__snprintf(&bid, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "00ab7f");
	assert_int_equal(buildid__snprintf(&bid, buf, 4), 2); /* room for one byte */
	assert_string_equal(buf, "00");
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notes_table),    cmocka_unit_test(test_elf_shapes),
		cmocka_unit_test(test_elf_hostile),    cmocka_unit_test(test_elf_prefixes),
		cmocka_unit_test(test_elf_flips),      cmocka_unit_test(test_real_binaries),
		cmocka_unit_test(test_truncated_copy), cmocka_unit_test(test_not_elf_files),
		cmocka_unit_test(test_kernel_notes),   cmocka_unit_test(test_vdso),
		cmocka_unit_test(test_module_notes),   cmocka_unit_test(test_snprintf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
