// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF build-id notes (buildid.h): a pure walk over a read callback, and the
 * readers that feed it from a buffer, a file, sysfs and the vdso.
 *
 * Every offset and size from the input is checked against the input's
 * length in 64-bit arithmetic before it is used, so sizes near 2^32 or 2^64
 * cannot wrap; tables and note areas are capped so that a hostile header
 * cannot make us allocate much.
 */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/buildid.h"

#define ELF_NT_GNU_BUILD_ID 3
#define ELF_SHT_NOTE 7
#define ELF_SHT_NOBITS 8
#define ELF_PT_NOTE 4
#define ELF_PN_XNUM 0xffff
#define ELF_SHN_XINDEX 0xffff

/* Real note areas are tens of bytes (a kernel's .notes a few hundred). */
#define NOTE_AREA_MAX (1u << 20)
#define STRTAB_MAX (1u << 20)
#define TABLE_MAX (16u << 20)
#define NOTES_FILE_MAX (64u << 10)

struct elf_walk {
	const struct buildid_src *src;
	bool is64;
	bool swap;
};

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

static bool fits(uint64_t total, uint64_t off, uint64_t len)
{
	return off <= total && len <= total - off;
}

static uint64_t align_up(uint64_t v, unsigned int a)
{
	return (v + a - 1) & ~(uint64_t)(a - 1);
}

int buildid__parse_notes(const void *buf, size_t len, unsigned int align, bool swap,
			 struct build_id *bid)
{
	const uint8_t *p = buf;
	uint64_t pos = 0;

	if (!buf || !bid)
		return -EINVAL;
	if (align != 8)
		align = 4;
	while (len - pos >= 12) {
		uint64_t namesz = get32(p + pos, swap);
		uint64_t descsz = get32(p + pos + 4, swap);
		uint32_t type = get32(p + pos + 8, swap);
		uint64_t name_off = pos + 12, desc_off, next;

		/* Padding aligns offsets within the area (which starts
		 * aligned), as gelf_getnote: with 8, a 4-byte name after the
		 * 12-byte header needs none. */
		if (!fits(len, name_off, namesz))
			return -EINVAL;
		desc_off = align_up(name_off + namesz, align);
		if (!fits(len, desc_off, descsz))
			return -EINVAL;
		if (type == ELF_NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name_off, "GNU", 4)) {
			/* perf keeps the descriptor rounded up to 4 (the note
			 * padding, zero in any sane file); the pad is taken
			 * only where the note really has it. */
			uint64_t keep = align_up(descsz, 4);

			if (descsz == 0 || descsz > BUILD_ID_MAX)
				return -EINVAL;
			if (!fits(len, desc_off, keep))
				keep = descsz;
			memset(bid, 0, sizeof(*bid));
			memcpy(bid->data, p + desc_off, keep);
			bid->size = (uint8_t)keep;
			return 0;
		}
		next = align_up(desc_off + descsz, align);
		if (next >= len)
			break; /* the last note may lack its final padding */
		pos = next;
	}
	return -ENOENT;
}

/* Reads len bytes at off into a new buffer (caller frees). */
static int walk_fetch(const struct elf_walk *ew, uint64_t off, uint64_t len, uint64_t cap,
		      uint8_t **out)
{
	uint8_t *buf;
	int err;

	*out = NULL;
	if (!fits(ew->src->size, off, len) || len > cap)
		return -EINVAL;
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	err = len ? ew->src->read(ew->src->ctx, off, buf, len) : 0;
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return 0;
}

/* One note area: 0 (found), -ENOENT, -EINVAL (malformed), or a read error. */
static int walk_area(const struct elf_walk *ew, uint64_t off, uint64_t len, uint64_t align,
		     struct build_id *bid)
{
	uint8_t *buf;
	int err;

	if (len < 12)
		return len ? -EINVAL : -ENOENT;
	err = walk_fetch(ew, off, len, NOTE_AREA_MAX, &buf);
	if (err)
		return err;
	err = buildid__parse_notes(buf, len, align == 8 ? 8 : 4, ew->swap, bid);
	free(buf);
	return err;
}

/* Folds one area's answer into the walk's: stop on success or a read
 * error; remember that something was malformed. */
static bool walk_done(int err, int *result)
{
	if (err == 0 || (err != -ENOENT && err != -EINVAL)) {
		*result = err;
		return true;
	}
	if (err == -EINVAL)
		*result = -EINVAL;
	return false;
}

struct shdr {
	uint32_t name, type;
	uint64_t offset, size, align;
};

static void shdr_get(const struct elf_walk *ew, const uint8_t *p, struct shdr *s)
{
	s->name = get32(p, ew->swap);
	s->type = get32(p + 4, ew->swap);
	if (ew->is64) {
		s->offset = get64(p + 24, ew->swap);
		s->size = get64(p + 32, ew->swap);
		s->align = get64(p + 48, ew->swap);
	} else {
		s->offset = get32(p + 16, ew->swap);
		s->size = get32(p + 20, ew->swap);
		s->align = get32(p + 32, ew->swap);
	}
}

static bool name_is(const uint8_t *strtab, uint64_t strsz, uint32_t off, const char *want)
{
	size_t n = strlen(want) + 1;

	return strtab && fits(strsz, off, n) && !memcmp(strtab + off, want, n);
}

/* The note sections: perf's three names first, then any other SHT_NOTE.
 * The answer goes to *result, as walk_done folds it. */
static void walk_sections(const struct elf_walk *ew, uint64_t shoff, uint32_t shnum,
			  uint32_t shentsize, uint32_t shstrndx, struct build_id *bid, int *result)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	uint32_t tried[3];
	unsigned int nr_tried = 0;
	uint8_t *tab = NULL, *strtab = NULL;
	uint64_t strsz = 0;
	struct shdr s;

	int err = walk_fetch(ew, shoff, (uint64_t)shnum * shentsize, TABLE_MAX, &tab);

	if (err) {
		walk_done(err, result);
		return;
	}
	if (shstrndx == ELF_SHN_XINDEX) /* the index is in sh_link of [0] */
		shstrndx = get32(tab + (ew->is64 ? 40 : 24), ew->swap);
	if (shstrndx < shnum) {
		shdr_get(ew, tab + (uint64_t)shstrndx * shentsize, &s);
		/* Without names only the SHT_NOTE pass below runs. */
		if (s.type != ELF_SHT_NOBITS &&
		    walk_fetch(ew, s.offset, s.size, STRTAB_MAX, &strtab) == 0)
			strsz = s.size;
	}
	for (unsigned int n = 0; n < 3 && strtab; n++) {
		for (uint32_t i = 0; i < shnum; i++) {
			shdr_get(ew, tab + (uint64_t)i * shentsize, &s);
			if (s.type == ELF_SHT_NOBITS || !name_is(strtab, strsz, s.name, names[n]))
				continue;
			tried[nr_tried++] = i;
			if (walk_done(walk_area(ew, s.offset, s.size, s.align, bid), result))
				goto out;
			break; /* the first of a name, as perf */
		}
	}
	for (uint32_t i = 0; i < shnum; i++) {
		bool seen = false;

		for (unsigned int t = 0; t < nr_tried; t++)
			seen |= tried[t] == i;
		shdr_get(ew, tab + (uint64_t)i * shentsize, &s);
		if (seen || s.type != ELF_SHT_NOTE)
			continue;
		if (walk_done(walk_area(ew, s.offset, s.size, s.align, bid), result))
			goto out;
	}
out:
	free(tab);
	free(strtab);
}

static void walk_segments(const struct elf_walk *ew, uint64_t phoff, uint32_t phnum,
			  uint32_t phentsize, struct build_id *bid, int *result)
{
	uint8_t *tab;
	int err = walk_fetch(ew, phoff, (uint64_t)phnum * phentsize, TABLE_MAX, &tab);

	if (err) {
		walk_done(err, result);
		return;
	}
	for (uint32_t i = 0; i < phnum; i++) {
		const uint8_t *p = tab + (uint64_t)i * phentsize;
		uint64_t off, filesz, align;

		if (get32(p, ew->swap) != ELF_PT_NOTE)
			continue;
		if (ew->is64) {
			off = get64(p + 8, ew->swap);
			filesz = get64(p + 32, ew->swap);
			align = get64(p + 48, ew->swap);
		} else {
			off = get32(p + 4, ew->swap);
			filesz = get32(p + 16, ew->swap);
			align = get32(p + 28, ew->swap);
		}
		if (walk_done(walk_area(ew, off, filesz, align, bid), result))
			break;
	}
	free(tab);
}

static bool walk_found_or_failed(int result)
{
	return result != -ENOENT && result != -EINVAL;
}

int buildid__from_src(const struct buildid_src *src, struct build_id *bid)
{
	uint8_t eh[64];
	struct elf_walk ew = { .src = src };
	uint64_t phoff, shoff;
	uint32_t phentsize, phnum, shentsize, shnum, shstrndx;
	size_t ehsize;
	int result = -ENOENT;
	int err;
	const uint16_t one = 1;
	bool host_le = *(const uint8_t *)&one == 1;

	if (!src || !src->read || !bid)
		return -EINVAL;
	if (src->size < 16)
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
	ew.is64 = eh[4] == 2;
	ew.swap = (eh[5] == 1) != host_le;
	ehsize = ew.is64 ? 64 : 52;
	if (src->size < ehsize)
		return -EINVAL;
	err = src->read(src->ctx, 16, eh + 16, ehsize - 16);
	if (err)
		return err;
	if (ew.is64) {
		phoff = get64(eh + 32, ew.swap);
		shoff = get64(eh + 40, ew.swap);
		phentsize = get16(eh + 54, ew.swap);
		phnum = get16(eh + 56, ew.swap);
		shentsize = get16(eh + 58, ew.swap);
		shnum = get16(eh + 60, ew.swap);
		shstrndx = get16(eh + 62, ew.swap);
	} else {
		phoff = get32(eh + 28, ew.swap);
		shoff = get32(eh + 32, ew.swap);
		phentsize = get16(eh + 42, ew.swap);
		phnum = get16(eh + 44, ew.swap);
		shentsize = get16(eh + 46, ew.swap);
		shnum = get16(eh + 48, ew.swap);
		shstrndx = get16(eh + 50, ew.swap);
	}

	/* shnum 0 with a table is the extended numbering (>= 0xff00
	 * sections): not worth following for a build-id; the segments are. */
	if (shoff && shnum) {
		if (shentsize < (ew.is64 ? 64u : 40u))
			result = -EINVAL;
		else
			walk_sections(&ew, shoff, shnum, shentsize, shstrndx, bid, &result);
		if (walk_found_or_failed(result))
			return result;
	}
	if (phoff && phnum && phnum != ELF_PN_XNUM) {
		if (phentsize < (ew.is64 ? 56u : 32u))
			result = -EINVAL;
		else
			walk_segments(&ew, phoff, phnum, phentsize, bid, &result);
	}
	return result;
}

struct mem_src {
	const uint8_t *buf;
};

static int mem_read(void *ctx, uint64_t off, void *dst, size_t len)
{
	const struct mem_src *m = ctx;

	memcpy(dst, m->buf + off, len);
	return 0;
}

int buildid__from_elf(const void *buf, size_t len, struct build_id *bid)
{
	struct mem_src m = { buf };
	struct buildid_src src = { mem_read, &m, len };

	if (!buf && len)
		return -EINVAL;
	return buildid__from_src(&src, bid);
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

int buildid__read_fd(int fd, struct build_id *bid)
{
	struct stat st;
	struct buildid_src src = { fd_read, &fd, 0 };

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	src.size = (uint64_t)st.st_size;
	return buildid__from_src(&src, bid);
}

int buildid__read_file(const char *path, struct build_id *bid)
{
	int fd, err;

	if (!path || !bid)
		return -EINVAL;
	/* O_NONBLOCK: a FIFO by that name must not hang the recorder. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	err = buildid__read_fd(fd, bid);
	close(fd);
	return err;
}

int buildid__read_notes_file(const char *path, struct build_id *bid)
{
	uint8_t *buf;
	size_t len = 0;
	int fd, err = 0;

	if (!path || !bid)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	buf = malloc(NOTES_FILE_MAX);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	/* sysfs binary files may report any st_size: read to EOF. */
	while (len < NOTES_FILE_MAX) {
		ssize_t n = read(fd, buf + len, NOTES_FILE_MAX - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!err)
		err = buildid__parse_notes(buf, len, 4, false, bid);
	free(buf);
	return err;
}

int buildid__read_kernel(const char *sys_dir, struct build_id *bid)
{
	char path[4096];

	if ((size_t)snprintf(path, sizeof(path), "%s/kernel/notes", sys_dir ? sys_dir : "/sys") >=
	    sizeof(path))
		return -ENAMETOOLONG;
	return buildid__read_notes_file(path, bid);
}

int buildid__read_module(const char *sys_dir, const char *name, struct build_id *bid)
{
	char mod[64], path[4096];
	const char *p, *end;
	size_t n;

	if (!name || !bid)
		return -EINVAL;
	if (name[0] == '[') {
		p = name + 1;
		end = strchr(p, ']');
		if (!end)
			return -EINVAL;
	} else {
		p = strrchr(name, '/');
		p = p ? p + 1 : name;
		end = strchr(p, '.');
		if (!end)
			end = p + strlen(p);
	}
	n = (size_t)(end - p);
	if (!n || n >= sizeof(mod))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '/' || p[i] == '\0')
			return -EINVAL;
		mod[i] = p[i] == '-' ? '_' : p[i];
	}
	mod[n] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/module/%s/notes/.note.gnu.build-id",
			     sys_dir ? sys_dir : "/sys", mod) >= sizeof(path))
		return -ENAMETOOLONG;
	return buildid__read_notes_file(path, bid);
}

/* The length of the mapping that starts at base, from /proc/self/maps. */
static int vdso_extent(uintptr_t base, size_t *len)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "re");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) != 2)
			continue;
		if (start == base && end > start && strstr(line, "[vdso]")) {
			*len = (size_t)(end - start);
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

int buildid__vdso_image(const void **image, size_t *len)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	int err;

	if (!base)
		return -ENOENT;
	err = vdso_extent(base, len);
	if (!err)
		*image = (const void *)base;
	return err;
}

int buildid__read_vdso(struct build_id *bid)
{
	const void *image;
	size_t len;
	int err;

	if (!bid)
		return -EINVAL;
	err = buildid__vdso_image(&image, &len);
	if (err)
		return err;
	return buildid__from_elf(image, len, bid);
}

int buildid__snprintf(const struct build_id *bid, char *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	if (!len)
		return 0;
	for (unsigned int i = 0; i < bid->size && i < BUILD_ID_MAX && n + 2 < len; i++) {
		buf[n++] = hex[bid->data[i] >> 4];
		buf[n++] = hex[bid->data[i] & 15];
	}
	buf[n] = '\0';
	return (int)n;
}
