// SPDX-License-Identifier: GPL-2.0-only
/*
 * The names registry (names.h): the process instances with JIT code, each
 * a pid from one fork to its end, with the symbols the reader sent of it;
 * the JIT ELFs written at each file's end, and what the reader's packets
 * and stalls mean for them (names_link_ops). Below it: names_link.c (the
 * reader process and the thread that talks to it) and names_bin.c
 * (binaries through their mappings).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "prec/buildid_cache.h"
#include "prec/grow.h"
#include "prec/log.h"
#include "prec/mono_clock.h"
#include "names/names_elf.h"
#include "names/names_int.h"

/* ---- the registry ---- */

static struct names_proc *names__proc_of(struct names *n, uint32_t key)
{
	struct names_proc *p;

	pthread_mutex_lock(&n->lock);
	p = key && key <= n->nr_procs ? n->procs[key - 1] : NULL;
	pthread_mutex_unlock(&n->lock);
	return p;
}

/* The newest instance of pid, or NULL. Under n->lock. */
static struct names_proc *names__newest(struct names *n, uint32_t pid)
{
	for (struct names_proc *p = n->b[pid % NAMES_BUCKETS]; p; p = p->next)
		if (p->pid == pid)
			return p;
	return NULL;
}

/* A new instance of pid, after prev (NULL: the first seen). NULL: out of
 * memory. Under n->lock. */
static struct names_proc *names__proc_new(struct names *n, uint32_t pid,
					  const struct names_proc *prev)
{
	struct names_proc **b = &n->b[pid % NAMES_BUCKETS], *p;
	uint32_t inst = prev ? prev->inst + 1 : 1;
	char name[PATH_MAX];
	int len;

	if (grow__array(&n->procs, &n->cap_procs, (size_t)n->nr_procs + 1, sizeof(*n->procs), 64,
			(size_t)GROW_PIDS_MAX * 4))
		return NULL;
	/* The first of a pid keeps perf inject's plain name. */
	len = inst == 1 ? snprintf(name, sizeof(name), "%s/jitted-%u.so", n->jit_dir, pid) :
			  snprintf(name, sizeof(name), "%s/jitted-%u-%u.so", n->jit_dir, pid, inst);
	if (len >= (int)sizeof(name))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->elf_name = strdup(name))) {
		free(p);
		return NULL;
	}
	p->pid = pid;
	p->inst = inst;
	p->nspid = (int32_t)pid;
	jit_syms__init(&p->syms);
	p->next = *b;
	*b = p;
	n->procs[n->nr_procs++] = p;
	p->key = n->nr_procs;
	n->st.procs++;
	return p;
}

const char *names__anon_name_at(struct names *n, uint32_t pid, uint64_t time)
{
	struct names_proc *p, *prev;
	uint32_t key = 0;

	if (!n || !n->jit_dir || pid == 0 || pid == (uint32_t)-1)
		return NULL;
	pthread_mutex_lock(&n->lock);
	p = prev = names__newest(n, pid);
	if (!p || p->superseded) {
		p = names__proc_new(n, pid, prev);
		key = p ? p->key : 0;
		if (p)
			p->first_time = time;
	} else if (time && (!p->first_time || time < p->first_time)) {
		p->first_time = time;
	}
	pthread_mutex_unlock(&n->lock);
	if (key) /* followed from now on, by the reader */
		names_link__send(n, NAMES_REG, key, NAMES_REG_NEW, pid, NULL, 0, NULL);
	return p ? p->elf_name : NULL;
}

const char *names__anon_name(void *arg, uint32_t pid)
{
	return names__anon_name_at(arg, pid, 0);
}

static const char *names__anon_name_timed(void *arg, uint32_t pid, uint64_t time)
{
	return names__anon_name_at(arg, pid, time);
}

/* The key of pid's newest instance if a thread's exit may end it (it is
 * still read), or 0; with fork (a new process's FORK at fork_time, 0:
 * unknown), if it is still the pid's: it is over from now. */
static uint32_t names__live_key(struct names *n, uint32_t pid, bool fork, uint64_t fork_time)
{
	struct names_proc *p;
	uint32_t key = 0;

	pthread_mutex_lock(&n->lock);
	p = names__newest(n, pid);
	/* A fork before its code was first seen mapped is that instance's
	 * own: the tracker saw its MMAP2 first, in the same pass. */
	if (p && !p->superseded && (fork || !p->done) &&
	    !(fork && fork_time && p->first_time && p->first_time >= fork_time)) {
		key = p->key;
		p->superseded = fork;
	}
	pthread_mutex_unlock(&n->lock);
	return key;
}

void names__proc_exit(struct names *n, uint32_t pid)
{
	uint32_t key = n ? names__live_key(n, pid, false, 0) : 0;

	if (key) /* a thread's end: the reader sees whether it was the last */
		names_link__send(n, NAMES_EXIT, key, 0, 0, NULL, 0, NULL);
}

void names__proc_fork(struct names *n, uint32_t pid, uint64_t time)
{
	uint32_t key = n ? names__live_key(n, pid, true, time) : 0;

	if (key) /* the pid is another process's now */
		names_link__send(n, NAMES_GONE, key, 0, 0, NULL, 0, NULL);
}

static void names__proc_reset(struct names *n, struct names_proc *p)
{
	pthread_mutex_lock(&n->tables);
	jit_syms__exit(&p->syms);
	jit_syms__init(&p->syms);
	p->gen++;
	pthread_mutex_unlock(&n->tables);
}

static void names__give_up(struct names *n, uint32_t key, const char *path)
{
	struct names_proc *p = names__proc_of(n, key);

	if (!p)
		return;
	pthread_mutex_lock(&n->lock);
	p->given_up = true;
	pthread_mutex_unlock(&n->lock);
	pr_warn("JIT names of pid %u: %s does not answer: given up (its samples keep the names read before)",
		p->pid, path);
}

static void names__resume(struct names *n)
{
	for (uint32_t key = 1;; key++) {
		struct names_proc *p = names__proc_of(n, key);
		bool again;

		if (!p)
			break;
		pthread_mutex_lock(&n->lock);
		again = !p->given_up && !p->done && !p->superseded;
		pthread_mutex_unlock(&n->lock);
		if (!again)
			continue;
		/* The new reader reads it from the start, if it still lives. */
		names_link__send(n, NAMES_REG, key, NAMES_REG_RESUME, p->pid, NULL, 0, NULL);
		if (p->dump_path)
			names_link__send(n, NAMES_DUMP, key, p->dump_start, p->dump_end, NULL, 0,
					 p->dump_path);
	}
}

/* ---- what the reader says ---- */

static void on_syms(struct names *n, struct names_proc *p, const char *pl, size_t len)
{
	uint64_t bad = 0;
	size_t off = 0;

	pthread_mutex_lock(&n->tables);
	while (off + sizeof(struct names_sym_rec) <= len) {
		struct names_sym_rec r;

		memcpy(&r, pl + off, sizeof(r));
		off += sizeof(r);
		if (r.name_len > len - off)
			break;
		if (jit_syms__add(&p->syms, r.addr, r.size, pl + off, r.name_len))
			bad++;
		else
			p->gen++;
		off += (r.name_len + 7) & ~(size_t)7;
	}
	pthread_mutex_unlock(&n->tables);
	pthread_mutex_lock(&n->lock);
	n->st.malformed += bad;
	pthread_mutex_unlock(&n->lock);
}

static void on_move(struct names *n, struct names_proc *p, const struct names_msg *m,
		    const char *pl)
{
	uint64_t size;
	bool bad;

	if (m->len < sizeof(size))
		return;
	memcpy(&size, pl, sizeof(size));
	pthread_mutex_lock(&n->tables);
	bad = jit_syms__move(&p->syms, m->a, m->b, size) != 0;
	if (!bad)
		p->gen++;
	pthread_mutex_unlock(&n->tables);
	pthread_mutex_lock(&n->lock);
	n->st.malformed += bad;
	pthread_mutex_unlock(&n->lock);
}

static void on_count(struct names *n, const char *pl, size_t len)
{
	struct names_counts c;

	if (len < sizeof(c))
		return;
	memcpy(&c, pl, sizeof(c));
	pthread_mutex_lock(&n->lock);
	n->st.maps += c.maps;
	n->st.dumps += c.dumps;
	n->st.refused += c.refused;
	n->st.bins += c.bins;
	n->st.malformed += c.malformed;
	pthread_mutex_unlock(&n->lock);
}

/* One packet of the reader's (a sync's answer is the link's). */
static void names__on_packet(struct names *n, const char *buf, size_t len, int fd)
{
	const struct names_msg *m = (const void *)buf;
	const char *pl = buf + sizeof(*m);
	struct names_proc *p;

	if (len < sizeof(*m) || m->len != len - sizeof(*m)) {
		if (fd >= 0)
			close(fd);
		return;
	}
	p = names__proc_of(n, m->key);
	switch (m->type) {
	case NAMES_SYMS:
		if (p && !p->given_up)
			on_syms(n, p, pl, m->len);
		break;
	case NAMES_MOVE:
		if (p && !p->given_up)
			on_move(n, p, m, pl);
		break;
	case NAMES_RESET:
		if (p)
			names__proc_reset(n, p);
		break;
	case NAMES_WARN:
		pr_warn("%.*s", (int)m->len, pl);
		break;
	case NAMES_REGGED:
		if (p)
			p->nspid = (int32_t)m->b;
		break;
	case NAMES_GONE:
		if (p) {
			pthread_mutex_lock(&n->lock);
			p->done = true;
			pthread_mutex_unlock(&n->lock);
		}
		break;
	case NAMES_BID:
		names_bin__answer(n, m->key, (int)(int64_t)m->a,
				  m->len >= sizeof(struct build_id) ? (const void *)pl : NULL, fd);
		fd = -1;
		break;
	case NAMES_COUNT:
		on_count(n, pl, m->len);
		break;
	default:
		break;
	}
	if (fd >= 0)
		close(fd);
}

/* The reader stalled in a call on key's file at path (key 0: binary
 * request bin's): that instance's names end there, that binary is not read
 * by its path either. */
static void names__stalled(struct names *n, uint32_t key, uint32_t bin, const char *path)
{
	names__give_up(n, key, path);
	if (bin)
		names_bin__fail_pending(n, bin);
}

/* A new reader (ok), or none to be had: what was asked of the old one is
 * asked again, or given up (not read by its path: it may be on the stuck
 * mount). */
static void names__restarted(struct names *n, bool ok)
{
	if (!ok) {
		names_bin__fail_pending(n, 0);
		return;
	}
	names__resume(n);
	names_bin__resend(n);
}

static const struct names_link_ops names_ops = {
	.packet = names__on_packet,
	.stalled = names__stalled,
	.restarted = names__restarted,
};

/* ---- the tracker's namer ---- */

/* Whether name is a jitdump's: ".../jit-DIGITS.dump". */
static bool is_dump(const char *name)
{
	const char *base = strrchr(name, '/');
	size_t n;

	base = base ? base + 1 : name;
	if (strncmp(base, "jit-", 4))
		return false;
	n = strspn(base + 4, "0123456789");
	return n && !strcmp(base + 4 + n, ".dump");
}

/* A mapped file: a jitdump is a source of its process's names, anything
 * else a binary whose build-id is read through the mapping. */
static int names__file_bid(void *arg, const struct dso_track_mapping *m, struct build_id *bid)
{
	struct names *n = arg;
	struct names_proc *p;
	uint32_t key = 0;

	if (!is_dump(m->name))
		return names_bin__bid(n, m, bid);
	if (!n->jit_dir || !names__anon_name(n, m->pid))
		return -ENOENT;
	pthread_mutex_lock(&n->lock);
	p = names__newest(n, m->pid);
	if (p && !p->dump_path && (p->dump_path = strdup(m->name))) {
		p->dump_start = m->start;
		p->dump_end = m->start + m->len;
		key = p->key;
	}
	pthread_mutex_unlock(&n->lock);
	if (key)
		names_link__send(n, NAMES_DUMP, key, m->start, m->start + m->len, NULL, 0, m->name);
	return -ENOENT; /* not an ELF: no build-id of its own */
}

static const char *names__source(void *arg, const struct build_id *bid)
{
	return names_bin__source(arg, bid);
}

static int names__late_bid(void *arg, const char *name, struct build_id *bid)
{
	return names_bin__by_name(arg, name, bid);
}

void names__namer(struct names *n, struct dso_track_namer *nm)
{
	*nm = (struct dso_track_namer){
		.anon_name = n && n->jit_dir ? names__anon_name_timed : NULL,
		.file_bid = n ? names__file_bid : NULL,
		.late_bid = n ? names__late_bid : NULL,
		.source = n ? names__source : NULL,
		.arg = n,
	};
}

/* ---- life ---- */

int names__new(struct names **out, const struct names_config *cfg)
{
	struct rlimit rl;
	struct names *n;
	int err;

	*out = NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->cfg = *cfg;
	if (!n->cfg.max_file)
		n->cfg.max_file = NAMES_MAX_FILE;
	if (!n->cfg.poll_ms)
		n->cfg.poll_ms = NAMES_POLL_MS;
	n->sock = n->wake_fd = n->busy_fd = -1;
	/* Held binaries take a quarter of the descriptors at most. */
	n->fd_limit = getrlimit(RLIMIT_NOFILE, &rl) ? 1024 :
		      rl.rlim_cur > UINT32_MAX	    ? UINT32_MAX :
						      (uint32_t)rl.rlim_cur;
	n->fds_max = n->fd_limit / 4 < NAMES_BINS_MAX ? n->fd_limit / 4 : NAMES_BINS_MAX;
	pthread_mutex_init(&n->lock, NULL);
	pthread_mutex_init(&n->tables, NULL);
	mono_clock__cond_init(&n->cond);
	if (cfg->jit_dir && !(n->jit_dir = strdup(cfg->jit_dir))) {
		names__delete(n);
		return -ENOMEM;
	}
	n->cfg.jit_dir = n->jit_dir;
	err = names_link__start(n, &names_ops);
	if (err) {
		names__delete(n);
		return err;
	}
	*out = n;
	return 0;
}

void names__delete(struct names *n)
{
	if (!n)
		return;
	names_link__stop(n);
	for (uint32_t i = 0; i < n->nr_procs; i++) {
		jit_syms__exit(&n->procs[i]->syms);
		free(n->procs[i]->elf_name);
		free(n->procs[i]->dump_path);
		free(n->procs[i]);
	}
	free(n->procs);
	names_bin__exit(n);
	pthread_mutex_destroy(&n->lock);
	pthread_mutex_destroy(&n->tables);
	pthread_cond_destroy(&n->cond);
	free(n->jit_dir);
	free(n);
}

/* ---- the ELFs ---- */

static int names__write_elf(struct names *n, struct names_proc *p)
{
	size_t nr = 0;
	int err;

	err = buildid_cache__mkdir(n->jit_dir);
	if (!err)
		err = names_elf__write(p->elf_name, &p->syms, names_elf__host_machine(), &nr);
	if (!err) {
		p->written_gen = p->gen;
		pthread_mutex_lock(&n->lock);
		n->st.elfs += nr != 0;
		n->st.syms += nr;
		pthread_mutex_unlock(&n->lock);
	}
	if (p->syms.dropped && !p->dropped_told) {
		p->dropped_told = true;
		pr_warn("JIT names of pid %u: %llu of its oldest symbols were dropped past the bound of %u (the newest are kept)",
			p->pid, (unsigned long long)p->syms.dropped, JIT_SYMS_MAX);
	}
	return err;
}

int names__write_elfs(struct names *n)
{
	int first = 0;

	if (!n)
		return 0;
	/* Everything read now, for the build-ids too: a reader that does not
	 * answer in time leaves what was read so far. */
	names_link__sync(n, NAMES_SYNC_MS);
	if (!n->jit_dir)
		return 0;
	for (uint32_t key = 1;; key++) {
		struct names_proc *p = names__proc_of(n, key);
		int err = 0;

		if (!p)
			break;
		pthread_mutex_lock(&n->tables);
		if (p->gen != p->written_gen)
			err = names__write_elf(n, p);
		pthread_mutex_unlock(&n->tables);
		if (err && !first)
			first = err;
	}
	return first;
}

void names__stats(struct names *n, struct names_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!n)
		return;
	pthread_mutex_lock(&n->lock);
	*st = n->st;
	pthread_mutex_unlock(&n->lock);
}
