// SPDX-License-Identifier: GPL-2.0-only
/*
 * One process instance's sources of JIT names, in the names reader
 * (names_reader_int.h): its perf map (/tmp/perf-NSPID.map in its own /tmp,
 * found when it appears, as late as its exit for Java's DumpPerfMapAtExit)
 * and its jitdump, each read from where the last read stopped through the
 * pure parsers, the symbols sent to the recorder. A map older than its
 * process is another's (a stale one of an earlier container, or of the
 * pid's earlier owner) and is not read; a map replaced or rewritten in
 * place voids what was read of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "names/jitdump.h"
#include "names/names_reader_int.h"
#include "names/perf_map.h"

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
static void src_warn(struct names_rd *rd, const struct rd_proc *p, bool is_dump, const char *what,
		     const char *why)
{
	if (is_dump)
		names_rd__warn(rd, p->key, "JIT names of pid %u: its jitdump %s: %s", p->pid, what,
			       why);
	else
		names_rd__warn(rd, p->key, "JIT names of pid %u: /tmp/perf-%d.map %s: %s", p->pid,
			       (int)p->nspid, what, why);
}

static void src_restart(struct names_src *s)
{
	s->off = 0;
	s->carry_len = 0;
	s->tail_len = 0;
	s->header_done = false;
	perf_map__init(&s->mp);
}

/* What was read of p is void: the recorder drops its symbols and both
 * sources are read again from their start. */
static void proc_restart(struct names_rd *rd, struct rd_proc *p)
{
	names_rd__flush(rd);
	names_rd__send(rd, NAMES_RESET, p->key, 0, 0, NULL, 0, -1);
	src_restart(&p->map);
	src_restart(&p->dump);
}

/* ---- parsing ---- */

struct feed {
	struct names_rd *rd;
	struct rd_proc *p;
};

static int on_map_entry(const struct perf_map_entry *e, void *arg)
{
	struct feed *f = arg;

	names_rd__sym(f->rd, f->p->key, e->start, e->size, e->name, e->name_len);
	return 0;
}

static int on_dump_record(const struct jitdump_record *r, void *arg)
{
	struct feed *f = arg;
	uint64_t size;

	if (r->id == JITDUMP_CODE_LOAD) {
		names_rd__sym(f->rd, f->p->key, r->load.code_addr, r->load.code_size, r->load.name,
			      r->load.name_len);
	} else if (r->id == JITDUMP_CODE_MOVE) {
		size = r->move.code_size;
		names_rd__flush(f->rd); /* after the loads before it */
		names_rd__send(f->rd, NAMES_MOVE, f->p->key, r->move.old_code_addr,
			       r->move.new_code_addr, &size, sizeof(size), -1);
	}
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
		f->rd->cnt.malformed += s->mp.stats.malformed - before;
		f->rd->cnt_dirty |= s->mp.stats.malformed != before;
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
	f->rd->cnt.malformed += js.malformed;
	f->rd->cnt_dirty |= js.malformed != 0;
	return used;
}

/* Room for want more bytes in s's carry. */
static int carry_room(struct names_src *s, size_t want)
{
	char *c;

	if (s->carry_len + want <= s->carry_cap)
		return 0;
	c = realloc(s->carry, s->carry_len + want);
	if (!c)
		return -ENOMEM;
	s->carry = c;
	s->carry_cap = s->carry_len + want;
	return 0;
}

/* Whether the bytes before s's offset are still the ones read: a map
 * truncated and written again, at any length, differs there. */
static bool tail_same(int fd, const struct names_src *s)
{
	char now[NAMES_TAIL];

	if (!s->tail_len)
		return true;
	return pread(fd, now, s->tail_len, (off_t)(s->off - s->tail_len)) == (ssize_t)s->tail_len &&
	       !memcmp(now, s->tail, s->tail_len);
}

/* Parses what the carry holds; false when the source turned hostile. */
static bool src_consume(struct feed *f, struct names_src *s, bool is_dump, bool at_eof)
{
	int64_t used;

	do {
		used = src_parse(f, s, is_dump, at_eof);
		if (used > 0) {
			memmove(s->carry, s->carry + used, s->carry_len - (size_t)used);
			s->carry_len -= (size_t)used;
		}
	} while (used > 0 && s->carry_len && is_dump);
	if (used >= 0 && s->carry_len <= (is_dump ? JITDUMP_RECORD_MAX : PERF_MAP_LINE_MAX))
		return true;
	s->failed = true; /* hostile: what was read stays */
	f->rd->cnt.malformed++;
	f->rd->cnt_dirty = true;
	src_warn(f->rd, f->p, is_dump, "is malformed", "the rest of it is skipped");
	return false;
}

/* The bytes fd (s's file, path for the busy page) gained, read and parsed;
 * a cut line or record waits in the carry for the next poll. */
static void src_read(struct feed *f, struct names_src *s, int fd, bool is_dump, const char *path,
		     bool at_eof)
{
	uint64_t size, max = f->rd->max_file;
	struct stat st;
	bool same;

	names_rd__busy(f->rd, f->p->key, path);
	if (fstat(fd, &st))
		goto out;
	size = (uint64_t)st.st_size < max ? (uint64_t)st.st_size : max;
	same = size >= s->off && tail_same(fd, s);
	/* Rewritten from the start: by the process itself while it lives;
	 * once it is gone, by another (a reused pid's), whose it is now. */
	if (!same && (at_eof || !f->rd->alive(f->rd, f->p)))
		goto out;
	names_rd__busy(f->rd, f->p->key, path); /* alive() marked /proc */
	if (!same)
		proc_restart(f->rd, f->p);
	while (s->off < size && !s->failed) {
		size_t want = size - s->off < NAMES_READ_CHUNK ? size - s->off : NAMES_READ_CHUNK;
		ssize_t got;

		if (carry_room(s, want))
			break;
		got = pread(fd, s->carry + s->carry_len, want, (off_t)s->off);
		if (got <= 0)
			break;
		s->off += (uint64_t)got;
		s->carry_len += (size_t)got;
		if (!src_consume(f, s, is_dump, at_eof && s->off == size))
			break;
	}
	s->tail_len = s->off < NAMES_TAIL ? (uint32_t)s->off : NAMES_TAIL;
	if (s->tail_len &&
	    pread(fd, s->tail, s->tail_len, (off_t)(s->off - s->tail_len)) != (ssize_t)s->tail_len)
		s->tail_len = 0;
out:
	names_rd__idle(f->rd);
	/* Nothing kept between polls but a cut line. */
	if (!s->carry_len) {
		free(s->carry);
		s->carry = NULL;
		s->carry_cap = 0;
	}
}

/* Whether the file of st may be p's: written since p started. */
static bool written_since_start(const struct rd_proc *p, const struct stat *st)
{
	int64_t since = p->start_real_ns - (int64_t)NAMES_STALE_SLACK_NS;
	int64_t sec = since / 1000000000, nsec = since % 1000000000;

	return !p->start_real_ns || st->st_mtim.tv_sec > sec ||
	       (st->st_mtim.tv_sec == sec && st->st_mtim.tv_nsec >= nsec);
}

/* Whether fd is still s's file; a new one (replaced, or the first) is
 * taken if it is p's. false: not to be read now. */
static bool src_same_file(struct names_rd *rd, struct rd_proc *p, struct names_src *s, int fd,
			  bool is_dump, bool last)
{
	struct stat st;

	if (fstat(fd, &st))
		return false;
	if (s->found && s->dev == (uint64_t)st.st_dev && s->ino == (uint64_t)st.st_ino)
		return true;
	if (s->found && last)
		return false; /* a file put there after the process ended */
	/* Another's, unless the process writes it later: one warning at its
	 * end if it never does. */
	if (!is_dump && !written_since_start(p, &st)) {
		if (last && !s->stale_told)
			src_warn(rd, p, false, "not read",
				 "it was last written before the process started (another's)");
		s->stale_told = true;
		return false;
	}
	if (s->found && !rd->alive(rd, p))
		return false; /* put there by the next process of that pid */
	if (s->found)
		proc_restart(rd, p); /* another file took its name */
	else if (is_dump)
		rd->cnt.dumps++;
	else
		rd->cnt.maps++;
	rd->cnt_dirty = true;
	s->found = true;
	s->dev = (uint64_t)st.st_dev;
	s->ino = (uint64_t)st.st_ino;
	return true;
}

static void src_refused(struct names_rd *rd, struct rd_proc *p, struct names_src *s, bool is_dump,
			int err)
{
	s->failed = true;
	rd->cnt.refused++;
	rd->cnt_dirty = true;
	src_warn(rd, p, is_dump, "not read", refusal(err));
}

static void map_poll(struct names_rd *rd, struct rd_proc *p, bool look, bool last)
{
	struct names_src *s = &p->map;
	struct feed f = { .rd = rd, .p = p };
	char rel[32], path[80];
	int tmp = names_rd__handle_fd(rd, p->tmp), fd;

	if (s->failed || tmp < 0 || (!s->found && !look))
		return;
	snprintf(rel, sizeof(rel), "perf-%d.map", (int)p->nspid);
	snprintf(path, sizeof(path), "/proc/%u/root/tmp/%s", p->pid, rel);
	names_rd__busy(rd, p->key, path);
	fd = names_open__beneath(tmp, rel, p->uid, rd->max_file);
	names_rd__idle(rd);
	if (fd < 0) {
		if (fd != -ENOENT)
			src_refused(rd, p, s, false, fd);
		return; /* not there yet, or deleted: what was read stays */
	}
	if (src_same_file(rd, p, s, fd, false, last))
		src_read(&f, s, fd, false, path, last);
	close(fd);
}

static void dump_poll(struct names_rd *rd, struct rd_proc *p, bool last)
{
	struct names_src *s = &p->dump;
	struct feed f = { .rd = rd, .p = p };
	int root = names_rd__handle_fd(rd, p->root), fd, err;

	if (!s->path || s->failed)
		return;
	/* The file it mapped, whatever its path says now; else by the path in
	 * its root. */
	names_rd__busy(rd, p->key, s->path);
	fd = names_open__mapped(rd->proc_fd, p->pid, s->start, s->end, p->uid, rd->max_file);
	if (fd < 0 && root >= 0) {
		fd = names_open__in_root(root, s->path);
		err = fd >= 0 ? names_open__check(fd, p->uid, rd->max_file) : 0;
		if (err) { /* its own reason, for the warning */
			close(fd);
			fd = err;
		}
	}
	names_rd__idle(rd);
	if (fd < 0) {
		if (fd != -ENOENT && fd != -ESRCH)
			src_refused(rd, p, s, true, fd);
		return;
	}
	if (src_same_file(rd, p, s, fd, true, last))
		src_read(&f, s, fd, true, s->path, last);
	close(fd);
}

void names_src__set_dump(struct names_rd *rd, struct rd_proc *p, const char *path, uint64_t start,
			 uint64_t end)
{
	struct names_src *s = &p->dump;

	if (s->path || s->failed)
		return;
	s->path = strdup(path);
	s->start = start;
	s->end = end;
	dump_poll(rd, p, false);
}

void names_src__poll(struct names_rd *rd, struct rd_proc *p, bool look, bool last)
{
	map_poll(rd, p, look || last, last);
	dump_poll(rd, p, last);
}

static void src_free(struct names_src *s)
{
	free(s->carry);
	free(s->path);
	s->carry = s->path = NULL;
	s->carry_len = s->carry_cap = 0;
}

void names_src__free(struct rd_proc *p)
{
	src_free(&p->map);
	src_free(&p->dump);
}
