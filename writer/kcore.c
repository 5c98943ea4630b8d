// SPDX-License-Identifier: GPL-2.0-only
/*
 * --kcore's copy of the kernel's code (prec/kcore.h): which parts of
 * /proc/kcore perf keeps, read from kallsyms and modules, and the small
 * ELF core file they are written to. Only ELF64 in the host's byte order
 * (every kernel with a kcore prec records on).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/elf.h"
#include "prec/grow.h"
#include "prec/kcore.h"
#include "prec/number.h"
#include "prec/write_all.h"

#define KCORE_MAX_PHDRS 64 /* a real kcore has a few dozen PT_LOADs */
#define COPY_BUF (64u << 10)
#define TEXT_MAX (64u << 20) /* kallsyms is a few MiB */

/* One segment of the copy: where it is in kcore, where it goes. */
struct kcore_seg {
	uint64_t addr, len;
	uint64_t offset; /* in /proc/kcore */
	uint64_t rel; /* in the copy's data area */
	int remaps; /* index of the segment whose bytes it shares; -1 none */
};

struct kcore_plan {
	struct kcore_seg seg[KCORE_MAX_PHDRS];
	unsigned int nr;
};

static uint64_t round_down(uint64_t v, uint64_t page)
{
	return v & ~(page - 1);
}

static uint64_t round_up(uint64_t v, uint64_t page)
{
	return (v + page - 1) & ~(page - 1);
}

/* perf's kallsyms__is_function: text and weak symbols. */
static bool is_function(char type)
{
	return type == 'T' || type == 't' || type == 'W' || type == 'w';
}

static void kcore_syms__add(struct kcore_syms *s, uint64_t addr, char type, const char *name,
			    size_t n)
{
	if (!is_function(type))
		return;
	if (memchr(name, '[', n)) {
		if (!s->first_module_symbol || addr < s->first_module_symbol)
			s->first_module_symbol = addr;
		if (addr > s->last_module_symbol)
			s->last_module_symbol = addr;
		return;
	}
	if (!s->first_symbol || addr < s->first_symbol)
		s->first_symbol = addr;
	if (!s->last_symbol || addr > s->last_symbol)
		s->last_symbol = addr;
	if (n == 6 && !memcmp(name, "_stext", 6))
		s->stext = addr;
	else if (n == 6 && !memcmp(name, "_etext", 6))
		s->etext = addr;
	else if (n == 29 && !memcmp(name, "__entry_SYSCALL_64_trampoline", 29) &&
		 s->nr_trampolines < sizeof(s->trampolines) / sizeof(s->trampolines[0]))
		s->trampolines[s->nr_trampolines++] = addr;
}

void kcore_syms__parse_kallsyms(struct kcore_syms *s, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p, *name;
		uint64_t addr = 0;
		int digits = 0;
		char type;

		if (!eol)
			eol = end;
		for (; q < eol && digits < 17; q++, digits++) {
			int v = hex__digit(*q);

			if (v < 0)
				break;
			addr = addr << 4 | (uint64_t)v;
		}
		/* "ADDR T NAME[\t[module]]" */
		if (digits && digits <= 16 && eol - q >= 4 && q[0] == ' ' && q[2] == ' ') {
			type = q[1];
			name = q + 3;
			kcore_syms__add(s, addr, type, name, (size_t)(eol - name));
		}
		p = eol + 1;
	}
}

void kcore_syms__parse_modules(struct kcore_syms *s, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *x;
		char field[32];
		size_t n;

		if (!eol)
			eol = end;
		/* "name size refs deps state 0xADDR ...": the first 0x field. */
		for (x = p; x + 3 < eol; x++) {
			if (x[0] != ' ' || x[1] != '0' || x[2] != 'x')
				continue;
			n = strcspn(x + 3, " \n");
			if (n && n < sizeof(field) && x + 3 + n <= eol) {
				uint64_t a;
				char *e;

				memcpy(field, x + 3, n);
				field[n] = '\0';
				a = strtoull(field, &e, 16);
				if (!*e && (!s->first_module || a < s->first_module))
					s->first_module = a;
			}
			break;
		}
		p = eol + 1;
	}
}

/* The whole of a (proc) file into a new buffer; -errno. */
static int read_text(const char *path, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 || !buf) {
		int err = fd < 0 ? -errno : -ENOMEM;

		free(buf);
		if (fd >= 0)
			close(fd);
		return err;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)r;
		if (grow__array(&buf, &cap, n + 1, 1, 0, TEXT_MAX)) {
			r = -1;
			errno = ENOMEM;
			break;
		}
	}
	close(fd);
	if (r < 0) {
		int err = -errno;

		free(buf);
		return err;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int path_in(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* The kernel's code as kallsyms and modules say, rounded as perf rounds it. */
static int kcore_syms__read(struct kcore_syms *s, const char *dir, uint64_t page)
{
	char path[PATH_MAX], *text;
	size_t len;
	int err;

	memset(s, 0, sizeof(*s));
	err = path_in(path, dir, "kallsyms") ?: read_text(path, &text, &len);
	if (err)
		return err;
	kcore_syms__parse_kallsyms(s, text, len);
	free(text);
	err = path_in(path, dir, "modules") ?: read_text(path, &text, &len);
	if (err)
		return err;
	kcore_syms__parse_modules(s, text, len);
	free(text);
	if (!s->first_symbol)
		return -EADDRNOTAVAIL; /* every address shows as 0 */
	s->stext = round_down(s->stext ? s->stext : s->first_symbol, page);
	if (s->etext)
		s->etext = round_up(s->etext, page);
	else
		s->etext = round_up(s->last_symbol, page) + page;
	if (s->first_module_symbol && (!s->first_module || s->first_module_symbol < s->first_module))
		s->first_module = s->first_module_symbol;
	s->first_module = round_down(s->first_module, page);
	if (s->last_module_symbol)
		s->last_module_symbol = round_up(s->last_module_symbol, page) + page;
	if (s->first_module && !s->last_module_symbol)
		return -EINVAL;
	return 0;
}

int kcore__check(const char *from_dir)
{
	char path[PATH_MAX], *text;
	struct kcore_syms s;
	size_t len;
	int fd, err;

	err = path_in(path, from_dir, "kcore");
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	err = path_in(path, from_dir, "kallsyms") ?: read_text(path, &text, &len);
	if (err)
		return err;
	memset(&s, 0, sizeof(s));
	kcore_syms__parse_kallsyms(&s, text, len);
	free(text);
	return s.first_symbol ? 0 : -EADDRNOTAVAIL;
}

/* The part [s, e) of a kcore segment, as perf's kcore_copy__map. */
static int plan__map(struct kcore_plan *pl, const struct elf_phdr *ph, uint64_t s, uint64_t e)
{
	uint64_t start = ph->vaddr, end = ph->vaddr + ph->filesz;
	struct kcore_seg *g;

	if (s < start || s >= end)
		return 0;
	if (pl->nr == KCORE_MAX_PHDRS)
		return -E2BIG;
	g = &pl->seg[pl->nr++];
	g->addr = s;
	g->len = (e < end ? e : end) - s;
	g->offset = s - start + ph->offset;
	g->remaps = -1;
	return 0;
}

/* Segments inside the kernel's (same bytes of kcore) share them; the others
 * are laid out back to back. */
static void plan__layout(struct kcore_plan *pl, uint64_t stext)
{
	uint64_t rel = 0;
	int k = -1;

	for (unsigned int i = 0; i < pl->nr && k < 0; i++)
		if (pl->seg[i].addr <= stext && pl->seg[i].addr + pl->seg[i].len - 1 >= stext)
			k = (int)i;
	for (unsigned int i = 0; k >= 0 && i < pl->nr; i++) {
		struct kcore_seg *g = &pl->seg[i];

		if ((int)i != k && g->offset >= pl->seg[k].offset &&
		    g->offset + g->len <= pl->seg[k].offset + pl->seg[k].len)
			g->remaps = k;
	}
	for (unsigned int i = 0; i < pl->nr; i++)
		if (pl->seg[i].remaps < 0) {
			pl->seg[i].rel = rel;
			rel += pl->seg[i].len;
		}
	for (unsigned int i = 0; i < pl->nr; i++) {
		struct kcore_seg *g = &pl->seg[i];

		if (g->remaps >= 0)
			g->rel = g->offset - pl->seg[g->remaps].offset + pl->seg[g->remaps].rel;
	}
}

static int src_pread(void *ctx, uint64_t off, void *dst, size_t len)
{
	ssize_t n = pread(*(int *)ctx, dst, len, (off_t)off);

	return n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
}

/* The executable PT_LOADs of kcore (fd) cut to the kernel's code. */
static int plan__make(struct kcore_plan *pl, int *fd, const struct kcore_syms *s, uint64_t page,
		      Elf64_Ehdr *eh)
{
	struct elf_src src = { .read = src_pread, .ctx = fd, .size = UINT64_MAX };
	struct elf_file ef;
	struct elf_phdr ph;
	uint8_t *tab;
	int err;

	if (pread(*fd, eh, sizeof(*eh), 0) != (ssize_t)sizeof(*eh))
		return -EINVAL;
	err = elf__open(&ef, &src);
	if (!err && (!ef.is64 || ef.swap))
		err = -EINVAL;
	if (!err)
		err = elf__read_phdrs(&ef, &tab);
	if (err)
		return err == -ENOENT ? -EINVAL : err;
	pl->nr = 0;
	for (uint32_t i = 0; i < ef.phnum && !err; i++) {
		elf__phdr(&ef, tab, i, &ph);
		if (ph.type != PT_LOAD || !(ph.flags & PF_X))
			continue;
		err = plan__map(pl, &ph, s->stext, s->etext);
		if (!err)
			err = plan__map(pl, &ph, s->first_module, s->last_module_symbol);
		for (unsigned int t = 0; t < s->nr_trampolines && !err; t++) {
			uint64_t a = round_down(s->trampolines[t], page);

			err = plan__map(pl, &ph, a, a + ph.filesz);
		}
	}
	free(tab);
	if (!err && !pl->nr)
		err = -EINVAL;
	if (!err)
		plan__layout(pl, s->stext);
	return err;
}

/* The copy's ELF header and program headers, then each segment's bytes. */
static int kcore__write(int in, int out, const struct kcore_plan *pl, const Elf64_Ehdr *from,
			uint64_t page)
{
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph[KCORE_MAX_PHDRS];
	uint64_t base = round_up(sizeof(eh) + pl->nr * sizeof(Elf64_Phdr), page);
	char *buf;
	int err;

	memcpy(eh.e_ident, from->e_ident, EI_NIDENT);
	eh.e_type = from->e_type;
	eh.e_machine = from->e_machine;
	eh.e_version = from->e_version;
	eh.e_flags = from->e_flags;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (Elf64_Half)pl->nr;
	for (unsigned int i = 0; i < pl->nr; i++)
		ph[i] = (Elf64_Phdr){
			.p_type = PT_LOAD, .p_flags = PF_R | PF_W | PF_X,
			.p_offset = base + pl->seg[i].rel, .p_vaddr = pl->seg[i].addr,
			.p_filesz = pl->seg[i].len, .p_memsz = pl->seg[i].len, .p_align = page,
		};
	err = fd__pwrite_all(out, &eh, sizeof(eh), 0);
	if (!err)
		err = fd__pwrite_all(out, ph, pl->nr * sizeof(ph[0]), sizeof(eh));
	buf = malloc(COPY_BUF);
	if (!buf)
		return -ENOMEM;
	for (unsigned int i = 0; i < pl->nr && !err; i++) {
		const struct kcore_seg *g = &pl->seg[i];

		for (uint64_t done = 0; g->remaps < 0 && done < g->len && !err;) {
			size_t want = g->len - done < COPY_BUF ? (size_t)(g->len - done) : COPY_BUF;
			ssize_t n = pread(in, buf, want, (off_t)(g->offset + done));

			if (n <= 0)
				err = n < 0 ? -errno : -EIO;
			else
				err = fd__pwrite_all(out, buf, (size_t)n, base + g->rel + done);
			done += n > 0 ? (uint64_t)n : 0;
		}
	}
	free(buf);
	return err;
}

/* from_dir/name copied to to_dir/name (0400), as perf's copyfile_mode. */
static int copy_text(const char *from_dir, const char *to_dir, const char *name)
{
	char path[PATH_MAX], *text;
	size_t len;
	int fd, err;

	err = path_in(path, from_dir, name) ?: read_text(path, &text, &len);
	if (err)
		return err;
	err = path_in(path, to_dir, name);
	fd = err ? -1 : open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
	if (!err && fd < 0)
		err = -errno;
	if (!err) {
		err = fd__pwrite_all(fd, text, len, 0);
		close(fd);
		if (err)
			unlink(path);
	}
	free(text);
	return err;
}

/* Whether from_dir/name still reads as its copy in to_dir: 0 or -EAGAIN. */
static int same_text(const char *from_dir, const char *to_dir, const char *name)
{
	char path[PATH_MAX], *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	int err;

	err = path_in(path, from_dir, name) ?: read_text(path, &a, &la);
	if (!err)
		err = path_in(path, to_dir, name) ?: read_text(path, &b, &lb);
	if (!err && (la != lb || memcmp(a, b, la)))
		err = -EAGAIN;
	free(a);
	free(b);
	return err;
}

static void unlink_in(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if (!path_in(path, dir, name))
		unlink(path);
}

int kcore__copy(const char *from_dir, const char *to_dir)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct kcore_plan *pl = malloc(sizeof(*pl));
	char path[PATH_MAX];
	struct kcore_syms s;
	Elf64_Ehdr eh;
	int in = -1, out = -1, err;

	err = pl ? copy_text(from_dir, to_dir, "kallsyms") : -ENOMEM;
	if (!err)
		err = copy_text(from_dir, to_dir, "modules");
	/* The copies are what the plan reads: the same text the reader gets. */
	if (!err)
		err = kcore_syms__read(&s, to_dir, page);
	if (!err)
		err = path_in(path, from_dir, "kcore");
	if (!err) {
		in = open(path, O_RDONLY | O_CLOEXEC);
		err = in < 0 ? -errno : plan__make(pl, &in, &s, page, &eh);
	}
	if (!err)
		err = path_in(path, to_dir, "kcore");
	if (!err) {
		out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
		err = out < 0 ? -errno : kcore__write(in, out, pl, &eh, page);
	}
	if (out >= 0 && close(out) && !err)
		err = -errno;
	if (in >= 0)
		close(in);
	/* A module that came or went meanwhile makes the copy inconsistent. */
	if (!err)
		err = same_text(from_dir, to_dir, "kallsyms");
	if (err) {
		unlink_in(to_dir, "kcore");
		unlink_in(to_dir, "modules");
		unlink_in(to_dir, "kallsyms");
	}
	free(pl);
	return err;
}
