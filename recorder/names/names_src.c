// SPDX-License-Identifier: GPL-2.0-only
/*
 * One process's sources of JIT names (names_int.h): the handles on its root
 * and its /tmp taken while it lives (a container's private /tmp stays
 * reachable through them after its last process is gone), its perf map
 * (/tmp/perf-NSPID.map, found when it appears, as late as its exit for
 * Java's DumpPerfMapAtExit) and its jitdump, each read from where the last
 * read stopped, through the pure parsers, into the process's symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "names/jitdump.h"
#include "names/names_int.h"
#include "names/perf_map.h"
#include "prec/log.h"
#include "targets/proc_status.h"

/* Why a source was not read, in the user's words. */
static const char *refusal(int err)
{
	switch (err) {
	case -ELOOP:
		return "a symbolic link";
	case -EPERM:
		return "owned by neither root nor the process's user";
	case -EFBIG:
		return "over the size bound";
	case -EINVAL:
	case -ENXIO:
		return "not a regular file";
	default:
		return strerror(-err);
	}
}

/* The one line a refused or hostile source gets: each source is given up
 * once (its failed flag), so a process warns at most once per file. */
static void src_warn(const struct names_proc *p, bool is_dump, const char *what, const char *why)
{
	if (is_dump)
		pr_warn("JIT names of pid %u: its jitdump %s: %s", p->pid, what, why);
	else
		pr_warn("JIT names of pid %u: /tmp/perf-%d.map %s: %s", p->pid, (int)p->nspid, what,
			why);
}

int names_src__open_proc(struct names *n, struct names_proc *p)
{
	struct proc_status ps;
	struct stat st;
	char rel[48];
	int dir;

	p->root_fd = p->tmp_fd = p->map.fd = p->dump.fd = -1;
	snprintf(rel, sizeof(rel), "%u", p->pid);
	dir = openat(n->proc_fd, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	if (fstat(dir, &st)) {
		close(dir);
		return -errno;
	}
	p->uid = st.st_uid;
	/* The kernel's magic link to its root: the one link followed. */
	p->root_fd = openat(dir, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	p->nspid = (pid_t)p->pid;
	if (!proc_status__read(dir, "status", &ps) && ps.nstgid > 0)
		p->nspid = ps.nstgid;
	close(dir);
	if (p->root_fd < 0)
		return -errno;
	p->tmp_fd = names_open__dir_in_root(p->root_fd, "tmp");
	return 0;
}

bool names_src__is_dump(const char *name)
{
	const char *base = strrchr(name, '/');
	size_t n;

	base = base ? base + 1 : name;
	if (strncmp(base, "jit-", 4))
		return false;
	n = strspn(base + 4, "0123456789");
	return n && !strcmp(base + 4 + n, ".dump");
}

int names_src__open_dump(struct names *n, struct names_proc *p, const char *path, uint64_t start,
			 uint64_t end)
{
	int fd;

	if (p->dump.fd >= 0 || p->dump.failed)
		return 0;
	/* The file it mapped, whatever its path says now; else by the path in
	 * its root. */
	fd = names_open__mapped(n->proc_fd, p->pid, start, end, p->uid, n->cfg.max_file);
	if (fd < 0 && p->root_fd >= 0) {
		int err;

		fd = names_open__in_root(p->root_fd, path);
		err = fd >= 0 ? names_open__check(fd, p->uid, n->cfg.max_file) : 0;
		if (err) { /* its own reason, for the warning */
			close(fd);
			fd = err;
		}
	}
	if (fd < 0) {
		p->dump.failed = fd != -ENOENT;
		if (p->dump.failed) {
			n->st.refused++;
			src_warn(p, true, "not read", refusal(fd));
		}
		return fd;
	}
	p->dump.fd = fd;
	n->st.dumps++;
	return 0;
}

/* ---- reading ---- */

struct feed {
	struct names *n;
	struct names_proc *p;
};

static int on_map_entry(const struct perf_map_entry *e, void *arg)
{
	struct feed *f = arg;

	if (jit_syms__add(&f->p->syms, e->start, e->size, e->name, e->name_len))
		f->n->st.malformed++;
	else
		f->p->gen++;
	return 0;
}

static int on_dump_record(const struct jitdump_record *r, void *arg)
{
	struct feed *f = arg;
	int err = 0;

	if (r->id == JITDUMP_CODE_LOAD)
		err = jit_syms__add(&f->p->syms, r->load.code_addr, r->load.code_size, r->load.name,
				    r->load.name_len);
	else if (r->id == JITDUMP_CODE_MOVE)
		err = jit_syms__move(&f->p->syms, r->move.old_code_addr, r->move.new_code_addr,
				     r->move.code_size);
	else
		return 0;
	if (err)
		f->n->st.malformed++;
	else
		f->p->gen++;
	return 0;
}

/* What the carry holds, parsed: the bytes taken, or -errno (hostile). */
static int64_t src_parse(struct feed *f, struct names_src *s, bool is_dump, bool at_eof)
{
	struct jitdump_stats js = { 0 };
	int64_t used;

	if (!is_dump) {
		uint64_t before = s->mp.stats.malformed;

		used = perf_map__parse(&s->mp, s->carry, s->carry_len, at_eof, on_map_entry, f);
		f->n->st.malformed += s->mp.stats.malformed - before;
		return used;
	}
	if (!s->header_done) {
		struct jitdump_header h;
		int err = jitdump__parse_header(s->carry, s->carry_len, &h);

		if (err)
			return err == -EAGAIN ? 0 : err;
		if (h.header_size > s->carry_len)
			return 0;
		s->header_done = true;
		s->swapped = h.swapped;
		return h.header_size;
	}
	used = jitdump__parse_records(s->carry, s->carry_len, s->swapped, &js, on_dump_record, f);
	f->n->st.malformed += js.malformed;
	return used;
}

/* The bytes s's file gained, read and parsed; a cut line or record waits
 * in the carry for the next read. */
static void src_read(struct feed *f, struct names_src *s, bool is_dump, bool at_eof)
{
	size_t limit = is_dump ? JITDUMP_RECORD_MAX : PERF_MAP_LINE_MAX;
	uint64_t size, max = f->n->cfg.max_file;
	struct stat st;

	if (s->fd < 0 || s->failed || fstat(s->fd, &st))
		return;
	size = (uint64_t)st.st_size < max ? (uint64_t)st.st_size : max;
	if (size < s->off) { /* rewritten from the start */
		s->off = 0;
		s->carry_len = 0;
		s->header_done = false;
		perf_map__init(&s->mp);
	}
	while (s->off < size && !s->failed) {
		size_t want = size - s->off < NAMES_READ_CHUNK ? size - s->off : NAMES_READ_CHUNK;
		int64_t used;
		ssize_t got;

		if (s->carry_len + want > s->carry_cap) {
			char *c = realloc(s->carry, s->carry_len + want);

			if (!c)
				return;
			s->carry = c;
			s->carry_cap = s->carry_len + want;
		}
		got = pread(s->fd, s->carry + s->carry_len, want, (off_t)s->off);
		if (got <= 0)
			return;
		s->off += (uint64_t)got;
		s->carry_len += (size_t)got;
		do {
			used = src_parse(f, s, is_dump, at_eof && s->off == size);
			if (used > 0) {
				memmove(s->carry, s->carry + used, s->carry_len - (size_t)used);
				s->carry_len -= (size_t)used;
			}
		} while (used > 0 && s->carry_len && is_dump);
		if (used < 0 || s->carry_len > limit) {
			s->failed = true; /* hostile: what was read stays */
			f->n->st.malformed++;
			src_warn(f->p, is_dump, "is malformed", "the rest of it is skipped");
		}
	}
}

void names_src__poll(struct names *n, struct names_proc *p, bool look)
{
	struct feed f = { .n = n, .p = p };
	bool last = p->exited;

	if (p->done)
		return;
	/* A map not there yet is looked for every NAMES_LOOK_EVERY polls, at
	 * the exit (Java writes its map then) and when asked (a file's end). */
	if (p->map.fd < 0 && !p->map.failed && p->tmp_fd >= 0 &&
	    (last || look || p->polls++ % NAMES_LOOK_EVERY == 0)) {
		char rel[32];
		int fd;

		snprintf(rel, sizeof(rel), "perf-%d.map", (int)p->nspid);
		fd = names_open__beneath(p->tmp_fd, rel, p->uid, n->cfg.max_file);
		if (fd >= 0) {
			p->map.fd = fd;
			perf_map__init(&p->map.mp);
			n->st.maps++;
		} else if (fd != -ENOENT) {
			p->map.failed = true;
			n->st.refused++;
			src_warn(p, false, "not read", refusal(fd));
		}
	}
	src_read(&f, &p->map, false, last);
	src_read(&f, &p->dump, true, last);
	if (last) {
		p->done = true;
		names_src__close(p);
	}
}

static void src_free(struct names_src *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->carry);
	s->carry = NULL;
	s->carry_len = s->carry_cap = 0;
}

void names_src__close(struct names_proc *p)
{
	src_free(&p->map);
	src_free(&p->dump);
	if (p->root_fd >= 0)
		close(p->root_fd);
	if (p->tmp_fd >= 0)
		close(p->tmp_fd);
	p->root_fd = p->tmp_fd = -1;
}
