/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_BUILDID_H
#define PREC_BUILDID_H
/*
 * GNU build-id notes: the NT_GNU_BUILD_ID note ("GNU" owner) that the linker
 * puts in .note.gnu.build-id, and the kernel exports in /sys/kernel/notes and
 * /sys/module/NAME/notes/.note.gnu.build-id.
 *
 * The ELF walk is pure: it reads through a callback (struct elf_src, base's
 * ELF reader, prec/elf.h), so
 * the same code runs over a buffer (tests, fuzzing, the in-memory vdso) and
 * over a file read with pread (only the ELF header, the section table, its
 * names and the note areas: never the whole file). ELF32 and ELF64, either
 * byte order. Hostile input gives -EINVAL and is never read out of bounds.
 *
 * What perf 6.1 keeps (symbol-elf.c, elf_read_build_id/sysfs__read_build_id):
 * the note's descriptor rounded up to 4 bytes (its note alignment), at most
 * 20 bytes (sha1; md5 and uuid ids are 16). A descriptor of 0 bytes, or over
 * 20, is refused here (perf 6.1 would overflow its 20-byte buffer).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prec/elf.h"

#define BUILD_ID_MAX 20 /* perf's BUILD_ID_SIZE */
#define SBUILD_ID_LEN (2 * BUILD_ID_MAX + 1) /* hex + NUL */

/* HEADER_BUILD_ID record misc bit: the size byte after the id is valid
 * (perf's PERF_RECORD_MISC_BUILD_ID_SIZE, a user-space-only bit). */
#define PREC_RECORD_MISC_BUILD_ID_SIZE (1 << 15)

struct build_id {
	uint8_t data[BUILD_ID_MAX]; /* zero past size */
	uint8_t size; /* 1..20 */
};

/*
 * Finds the GNU build-id in a run of ELF notes (n_namesz, n_descsz, n_type,
 * name and descriptor each padded to align, which is 4 or 8; any other value
 * is taken as 4), as in a note section or /sys/kernel/notes. swap: the notes
 * are in the other byte order. Pure. Returns 0 and *bid, -ENOENT when the
 * notes hold no build-id, -EINVAL when they are malformed before one is found
 * or the build-id note itself is (size 0 or over 20, cut short).
 */
int buildid__parse_notes(const void *buf, size_t len, unsigned int align, bool swap,
			 struct build_id *bid);

/*
 * The build-id of the ELF image in len bytes at buf. Looks where perf does
 * first (the sections named .note.gnu.build-id, .notes, .note), then in every
 * other SHT_NOTE section, then in the PT_NOTE segments (files without section
 * headers, memory images). Returns 0 and *bid; -ENOENT when there is none;
 * -EINVAL for input that is not ELF or whose tables point outside it; -ENOMEM.
 * Pure.
 */
int buildid__from_elf(const void *buf, size_t len, struct build_id *bid);

/* buildid__from_elf over an open file (pread; the offset is untouched); also
 * the reader's -errno. */
int buildid__read_fd(int fd, struct build_id *bid);

/* buildid__read_fd of path, opened O_RDONLY|O_CLOEXEC. -errno of open. */
int buildid__read_file(const char *path, struct build_id *bid);

/* The running kernel's: sys_dir/kernel/notes (sys_dir NULL: "/sys"). */
int buildid__read_kernel(const char *sys_dir, struct build_id *bid);

/* A module's: sys_dir/module/NAME/notes/.note.gnu.build-id. name is the
 * module name ("ext4"), "[ext4]", or a path to its .ko (the base name up to
 * the first '.', '-' read as '_', as the kernel names modules). */
int buildid__read_module(const char *sys_dir, const char *name, struct build_id *bid);

/* The vdso this process was given (getauxval(AT_SYSINFO_EHDR), its extent
 * from /proc/self/maps): the kernel maps the same image into every 64-bit
 * process, which is how perf finds "[vdso]"'s build-id. -ENOENT without one. */
int buildid__read_vdso(struct build_id *bid);

/* The vdso this process was given, as buildid__read_vdso finds it: its
 * mapping (whole pages, what perf copies into its build-id cache). 0, or
 * -ENOENT without one. */
int buildid__vdso_image(const void **image, size_t *len);

/* Lower-case hex of the id into buf (at least SBUILD_ID_LEN bytes). Returns
 * the number of hex digits. */
int buildid__snprintf(const struct build_id *bid, char *buf, size_t len);

#endif
