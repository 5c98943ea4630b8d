// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF build-id notes (buildid.h): where perf looks for them, over base's
 * bounds-checked ELF reader (prec/elf.h), and the readers that feed it from a
 * buffer, a file, sysfs and the vdso. Note areas are capped so that a
 * hostile header cannot make us allocate much.
 */
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
#include "prec/elf.h"

#define ELF_NT_GNU_BUILD_ID 3

/* Real note areas are tens of bytes (a kernel's .notes a few hundred). */
#define NOTE_AREA_MAX (1u << 20)
#define STRTAB_MAX (1u << 20)
#define NOTES_FILE_MAX (64u << 10)

int buildid__parse_notes(const void *buf, size_t len, unsigned int align, bool swap,
			 struct build_id *bid)
{
	struct elf_note n;
	size_t pos = 0;
	int r;

	if (!buf || !bid)
		return -EINVAL;
	while ((r = elf_note__next(buf, len, &pos, align, swap, &n)) > 0) {
		/* perf keeps the descriptor rounded up to 4 (the note padding,
		 * zero in any sane file); the pad is taken only where the note
		 * really has it. */
		size_t keep = ((size_t)n.descsz + 3) & ~(size_t)3;

		if (n.type != ELF_NT_GNU_BUILD_ID || n.namesz != 4 || memcmp(n.name, "GNU", 4))
			continue;
		if (n.descsz == 0 || n.descsz > BUILD_ID_MAX)
			return -EINVAL;
		if ((size_t)(n.desc - (const uint8_t *)buf) + keep > len)
			keep = n.descsz;
		memset(bid, 0, sizeof(*bid));
		memcpy(bid->data, n.desc, keep);
		bid->size = (uint8_t)keep;
		return 0;
	}
	return r < 0 ? r : -ENOENT;
}

/* One note area: 0 (found), -ENOENT, -EINVAL (malformed), or a read error. */
static int walk_area(const struct elf_file *ef, uint64_t off, uint64_t len, uint64_t align,
		     struct build_id *bid)
{
	uint8_t *buf;
	int err;

	if (len < 12)
		return len ? -EINVAL : -ENOENT;
	err = elf__read(ef, off, len, NOTE_AREA_MAX, &buf);
	if (err)
		return err;
	err = buildid__parse_notes(buf, len, align == 8 ? 8 : 4, ef->swap, bid);
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

/* The note sections: perf's three names first, then any other SHT_NOTE.
 * The answer goes to *result, as walk_done folds it. */
static void walk_sections(const struct elf_file *ef, const uint8_t *tab, struct build_id *bid,
			  int *result)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	uint32_t tried[3];
	unsigned int nr_tried = 0;
	uint8_t *strtab = NULL;
	uint64_t strsz = 0;
	struct elf_shdr s;

	/* Without names only the SHT_NOTE pass below runs. */
	elf__read_strtab(ef, tab, STRTAB_MAX, &strtab, &strsz);
	for (unsigned int n = 0; n < 3 && strtab; n++) {
		for (uint32_t i = 0; i < ef->shnum; i++) {
			elf__shdr(ef, tab, i, &s);
			if (s.type == ELF_SHT_NOBITS ||
			    !elf__name_is(strtab, strsz, s.name, names[n]))
				continue;
			tried[nr_tried++] = i;
			if (walk_done(walk_area(ef, s.offset, s.size, s.align, bid), result))
				goto out;
			break; /* the first of a name, as perf */
		}
	}
	for (uint32_t i = 0; i < ef->shnum; i++) {
		bool seen = false;

		for (unsigned int t = 0; t < nr_tried; t++)
			seen |= tried[t] == i;
		elf__shdr(ef, tab, i, &s);
		if (seen || s.type != ELF_SHT_NOTE)
			continue;
		if (walk_done(walk_area(ef, s.offset, s.size, s.align, bid), result))
			goto out;
	}
out:
	free(strtab);
}

static void walk_segments(const struct elf_file *ef, const uint8_t *tab, struct build_id *bid,
			  int *result)
{
	struct elf_phdr ph;

	for (uint32_t i = 0; i < ef->phnum; i++) {
		elf__phdr(ef, tab, i, &ph);
		if (ph.type != ELF_PT_NOTE)
			continue;
		if (walk_done(walk_area(ef, ph.offset, ph.filesz, ph.align, bid), result))
			break;
	}
}

static bool walk_found_or_failed(int result)
{
	return result != -ENOENT && result != -EINVAL;
}

/* The build-id of an ELF image read through src (buildid__from_elf's
 * contract, and the reader's -errno). */
static int buildid__from_src(const struct elf_src *src, struct build_id *bid)
{
	struct elf_file ef;
	uint8_t *tab;
	int result = -ENOENT;
	int err;

	if (!src || !src->read || !bid)
		return -EINVAL;
	err = elf__open(&ef, src);
	if (err)
		return err;
	/* shnum 0 with a table is the extended numbering (>= 0xff00
	 * sections): not worth following for a build-id; the segments are. */
	err = elf__read_shdrs(&ef, &tab);
	if (!err) {
		walk_sections(&ef, tab, bid, &result);
		free(tab);
	} else if (err != -ENOENT) {
		walk_done(err, &result);
	}
	if (walk_found_or_failed(result))
		return result;
	err = elf__read_phdrs(&ef, &tab);
	if (!err) {
		walk_segments(&ef, tab, bid, &result);
		free(tab);
	} else if (err != -ENOENT) {
		walk_done(err, &result);
	}
	return result;
}

int buildid__from_elf(const void *buf, size_t len, struct build_id *bid)
{
	struct elf_mem m;
	struct elf_src src;

	if (!buf && len)
		return -EINVAL;
	elf_src__mem(&src, &m, buf, len);
	return buildid__from_src(&src, bid);
}

int buildid__read_fd(int fd, struct build_id *bid)
{
	struct stat st;
	struct elf_src src;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	elf_src__fd(&src, &fd, (uint64_t)st.st_size);
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

/* A file of raw notes, as /sys/kernel/notes (at most 64 KiB is read). */
static int buildid__read_notes_file(const char *path, struct build_id *bid)
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
