/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_ELF_H
#define PREC_ELF_H
/*
 * The one ELF reader (base/elf.c): the file header, the section and program
 * header tables, section names and note areas, for the build-id reader
 * (writer/buildid.c) and the record-time unwinder (recorder/unwind/). ELF32
 * and ELF64, either byte order.
 *
 * Bytes come through a read callback (struct elf_src), so the same code runs
 * over a buffer (tests, fuzzing, a mapped file, the vdso) and over a file
 * read with pread (only the parts asked for). Every offset and size from the
 * input is checked against the input's length in 64-bit arithmetic before
 * use, so sizes near 2^32 or 2^64 cannot wrap; tables are capped so that a
 * hostile header cannot make us allocate much. Hostile input gives -EINVAL.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ELF_SHT_NOTE 7
#define ELF_SHT_NOBITS 8
#define ELF_PT_LOAD 1
#define ELF_PT_NOTE 4
#define ELF_PT_GNU_EH_FRAME 0x6474e550
#define ELF_PF_X 1
#define ELF_PN_XNUM 0xffff
#define ELF_SHN_XINDEX 0xffff

/* Section and program header tables larger than this are not real. */
#define ELF_TABLE_MAX (16u << 20)

/* Where the ELF bytes come from: read exactly len bytes at off into dst
 * (0) or fail (-errno). size is the total length: nothing at or past it is
 * ever asked for. */
struct elf_src {
	int (*read)(void *ctx, uint64_t off, void *dst, size_t len);
	void *ctx;
	uint64_t size;
};

/* The file header, decoded. */
struct elf_file {
	const struct elf_src *src;
	bool is64;
	bool swap; /* the file's byte order is not the host's */
	uint16_t type, machine;
	uint64_t phoff, shoff;
	uint32_t phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf_shdr {
	uint32_t name, type;
	uint64_t flags, addr, offset, size, link, align;
};

struct elf_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz, align;
};

/* One note of a note area: name and desc point into the area. */
struct elf_note {
	uint32_t type;
	const uint8_t *name, *desc;
	uint32_t namesz, descsz;
};

/* An elf_src over len bytes at buf (m is the caller's storage for the view). */
struct elf_mem {
	const uint8_t *buf;
};
void elf_src__mem(struct elf_src *src, struct elf_mem *m, const void *buf, size_t len);

/* An elf_src over an open file of size bytes, read with pread (*fd must stay valid). */
void elf_src__fd(struct elf_src *src, int *fd, uint64_t size);

/*
 * Reads and checks the file header through src. Returns 0 and *ef; -EINVAL
 * when it is not ELF (magic, class, data) or is cut short; the reader's
 * -errno. The table fields are as the header says: check them with
 * elf__read_shdrs/elf__read_phdrs.
 */
int elf__open(struct elf_file *ef, const struct elf_src *src);

/*
 * Copies len bytes at off into a new buffer *out (caller frees; never NULL on
 * success, also for len 0). Returns 0, -EINVAL when the range lies outside the
 * input or len > cap, -ENOMEM, or the reader's -errno.
 */
int elf__read(const struct elf_file *ef, uint64_t off, uint64_t len, uint64_t cap, uint8_t **out);

/*
 * The section header table into a new *tab (caller frees). Returns 0;
 * -ENOENT when there is none (shoff or shnum 0: extended numbering is not
 * followed); -EINVAL when shentsize is too small or the table lies outside
 * the input; -ENOMEM; the reader's -errno.
 */
int elf__read_shdrs(const struct elf_file *ef, uint8_t **tab);

/* The program header table, as elf__read_shdrs (none: phoff or phnum 0, or PN_XNUM). */
int elf__read_phdrs(const struct elf_file *ef, uint8_t **tab);

/* Decodes entry i (< shnum) of a table from elf__read_shdrs. */
void elf__shdr(const struct elf_file *ef, const uint8_t *tab, uint32_t i, struct elf_shdr *sh);

/* Decodes entry i (< phnum) of a table from elf__read_phdrs. */
void elf__phdr(const struct elf_file *ef, const uint8_t *tab, uint32_t i, struct elf_phdr *ph);

/* The index of the section-name table (SHN_XINDEX resolved through [0]). */
uint32_t elf__shstrndx(const struct elf_file *ef, const uint8_t *tab);

/*
 * The section names (the shstrndx section) into a new *strtab of *size bytes
 * (caller frees). Returns 0, -ENOENT when there is no such section (or it is
 * NOBITS), -EINVAL when it lies outside the input or is over cap, -ENOMEM.
 */
int elf__read_strtab(const struct elf_file *ef, const uint8_t *tab, uint64_t cap, uint8_t **strtab,
		     uint64_t *size);

/* True when the NUL-terminated name at off of strtab[0..size) is want. */
bool elf__name_is(const uint8_t *strtab, uint64_t size, uint32_t off, const char *want);

/*
 * The next note of the area buf[0..len) at *pos (start with 0): n_namesz,
 * n_descsz, n_type, then name and descriptor each padded to align (4 or 8;
 * any other value is taken as 4), as gelf_getnote reads them. Returns 1 and
 * *n (with *pos moved past it), 0 at the end of the area (fewer than 12
 * bytes left, or the last note's final padding missing), or -EINVAL when the
 * name or descriptor runs past the area.
 */
int elf_note__next(const uint8_t *buf, size_t len, size_t *pos, unsigned int align, bool swap,
		   struct elf_note *n);

#endif
