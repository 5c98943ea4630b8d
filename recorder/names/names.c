// SPDX-License-Identifier: GPL-2.0-only
/*
 * The names registry (names.h): the processes with JIT code and their
 * sources, the worker that reads them while they live, and the JIT ELFs
 * written at each file's end. Below it: names_src.c (a process's sources),
 * names_bin.c (binaries through their mappings), names_open.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "prec/buildid_cache.h"
#include "prec/grow.h"
#include "prec/jit_elf.h"
#include "prec/log.h"
#include "prec/mono_clock.h"
#include "prec/thread.h"
#include "prec/write_all.h"
#include "names/names_int.h"

#define NAMES_STACK (256 * 1024)

/* The machine of the JIT ELFs: the code ran here. */
static uint16_t host_machine(void)
{
#if defined(__x86_64__)
	return 62; /* EM_X86_64 */
#elif defined(__aarch64__)
	return 183; /* EM_AARCH64 */
#elif defined(__i386__)
	return 3; /* EM_386 */
#elif defined(__powerpc64__)
	return 21; /* EM_PPC64 */
#elif defined(__s390x__)
	return 22; /* EM_S390 */
#elif defined(__riscv)
	return 243; /* EM_RISCV */
#else
	return 0; /* EM_NONE: perf does not check it */
#endif
}

/* The process pid, registered on first sight (its handles taken). NULL:
 * out of memory. Under n->lock. */
static struct names_proc *names__proc_findnew(struct names *n, uint32_t pid)
{
	struct names_proc **b = &n->b[pid % NAMES_BUCKETS], *p;
	char name[PATH_MAX];

	/* The newest of that pid: a process reusing a pid shares its ELF. */
	for (p = *b; p; p = p->next)
		if (p->pid == pid)
			return p;
	/* One per pid: a process reusing a pid shares its entry. */
	if (grow__array(&n->procs, &n->cap_procs, (size_t)n->nr_procs + 1, sizeof(*n->procs), 64,
			GROW_PIDS_MAX))
		return NULL;
	if (snprintf(name, sizeof(name), "%s/jitted-%u.so", n->jit_dir, pid) >= (int)sizeof(name))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->elf_name = strdup(name))) {
		free(p);
		return NULL;
	}
	p->pid = pid;
	jit_syms__init(&p->syms);
	names_src__open_proc(n, p); /* gone already: its name still holds */
	p->next = *b;
	*b = p;
	n->procs[n->nr_procs++] = p;
	n->st.procs++;
	if (n->nr_procs == 1)
		pthread_cond_signal(&n->cond); /* the worker's first tick */
	return p;
}

const char *names__anon_name(void *arg, uint32_t pid)
{
	struct names *n = arg;
	struct names_proc *p;

	if (!n || !n->jit_dir || pid == 0 || pid == (uint32_t)-1)
		return NULL;
	pthread_mutex_lock(&n->lock);
	p = names__proc_findnew(n, pid);
	pthread_mutex_unlock(&n->lock);
	return p ? p->elf_name : NULL;
}

void names__proc_exit(struct names *n, uint32_t pid)
{
	bool found = false;

	if (!n)
		return;
	pthread_mutex_lock(&n->lock);
	for (struct names_proc *p = n->b[pid % NAMES_BUCKETS]; p; p = p->next)
		if (p->pid == pid && !p->exited) {
			p->exited = true;
			found = true;
		}
	if (found) {
		n->poke = true;
		pthread_cond_signal(&n->cond);
	}
	pthread_mutex_unlock(&n->lock);
}

/* A mapped file: a jitdump is a source of its process's names, anything
 * else a binary whose build-id is read through the mapping. */
static int names__file_bid(void *arg, const struct dso_track_mapping *m, struct build_id *bid)
{
	struct names *n = arg;
	struct names_proc *p;

	if (!names_src__is_dump(m->name))
		return names_bin__bid(n, m, bid);
	if (!n->jit_dir)
		return -ENOENT;
	pthread_mutex_lock(&n->lock);
	p = names__proc_findnew(n, m->pid);
	pthread_mutex_unlock(&n->lock);
	if (p) {
		pthread_mutex_lock(&n->io);
		names_src__open_dump(n, p, m->name, m->start, m->start + m->len);
		pthread_mutex_unlock(&n->io);
	}
	return -ENOENT; /* not an ELF: no build-id of its own */
}

static const char *names__source(void *arg, const struct build_id *bid)
{
	return names_bin__source(arg, bid);
}

void names__namer(struct names *n, struct dso_track_namer *nm)
{
	*nm = (struct dso_track_namer){
		.anon_name = n && n->jit_dir ? names__anon_name : NULL,
		.file_bid = n ? names__file_bid : NULL,
		.source = n ? names__source : NULL,
		.arg = n,
	};
}

/* ---- the worker ---- */

/* Every process's sources read once (under io). */
static void names__poll_all(struct names *n, bool look)
{
	uint32_t nr;

	pthread_mutex_lock(&n->lock);
	nr = n->nr_procs;
	pthread_mutex_unlock(&n->lock);
	for (uint32_t i = 0; i < nr; i++) {
		struct names_proc *p;

		pthread_mutex_lock(&n->lock);
		p = n->procs[i];
		pthread_mutex_unlock(&n->lock);
		names_src__poll(n, p, look);
	}
}

static void *names__worker(void *arg)
{
	struct names *n = arg;

	pthread_mutex_lock(&n->lock);
	while (!n->stop) {
		/* The condition waits on the monotonic clock (names__new). */
		struct timespec until = mono_clock__timespec(mono_clock__deadline_ns(n->cfg.poll_ms));

		/* Nothing to read until a process with JIT code comes: no tick. */
		while (!n->stop && !n->poke && !n->nr_procs)
			pthread_cond_wait(&n->cond, &n->lock);
		while (!n->stop && !n->poke &&
		       pthread_cond_timedwait(&n->cond, &n->lock, &until) == 0)
			;
		n->poke = false;
		if (n->stop)
			break;
		pthread_mutex_unlock(&n->lock);
		pthread_mutex_lock(&n->io);
		names__poll_all(n, false);
		pthread_mutex_unlock(&n->io);
		pthread_mutex_lock(&n->lock);
	}
	pthread_mutex_unlock(&n->lock);
	return NULL;
}

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
	n->proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* Held binaries take a quarter of the descriptors at most. */
	n->fd_limit = getrlimit(RLIMIT_NOFILE, &rl) ? 1024 :
		      rl.rlim_cur > UINT32_MAX ? UINT32_MAX :
						 (uint32_t)rl.rlim_cur;
	n->fds_max = n->fd_limit / 4 < NAMES_BINS_MAX ? n->fd_limit / 4 : NAMES_BINS_MAX;
	pthread_mutex_init(&n->lock, NULL);
	pthread_mutex_init(&n->io, NULL);
	mono_clock__cond_init(&n->cond);
	if (n->proc_fd < 0 || (cfg->jit_dir && !(n->jit_dir = strdup(cfg->jit_dir)))) {
		err = n->proc_fd < 0 ? -errno : -ENOMEM;
		names__delete(n);
		return err;
	}
	n->cfg.jit_dir = n->jit_dir;
	if (n->jit_dir) {
		err = thread__start(&n->th, "prec-names", NAMES_STACK, names__worker, n);
		if (err) {
			names__delete(n);
			return err;
		}
		n->started = true;
	}
	*out = n;
	return 0;
}

void names__delete(struct names *n)
{
	if (!n)
		return;
	if (n->started) {
		pthread_mutex_lock(&n->lock);
		n->stop = true;
		pthread_cond_signal(&n->cond);
		pthread_mutex_unlock(&n->lock);
		pthread_join(n->th, NULL);
	}
	for (uint32_t i = 0; i < n->nr_procs; i++) {
		names_src__close(n->procs[i]);
		jit_syms__exit(&n->procs[i]->syms);
		free(n->procs[i]->elf_name);
		free(n->procs[i]);
	}
	free(n->procs);
	names_bin__exit(n);
	if (n->proc_fd >= 0)
		close(n->proc_fd);
	pthread_mutex_destroy(&n->lock);
	pthread_mutex_destroy(&n->io);
	pthread_cond_destroy(&n->cond);
	free(n->jit_dir);
	free(n);
}

/* ---- the ELFs ---- */

/* path's bytes become img, never seen half-written: a temporary file
 * beside it, then a rename. 0 or -errno. */
static int write_file(const char *path, const void *img, size_t len)
{
	char tmp[PATH_MAX];
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fchmod(fd, 0644) ? -errno : fd__write_all(fd, img, len, NULL);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static int names__write_elf(struct names *n, struct names_proc *p)
{
	const struct jit_sym *v;
	struct jit_elf_sym *es;
	struct build_id bid;
	size_t nr, len;
	void *img = NULL;
	int err;

	err = jit_syms__sorted(&p->syms, &v, &nr);
	if (err || !nr)
		return err;
	es = calloc(nr, sizeof(*es));
	if (!es)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		es[i] = (struct jit_elf_sym){ .addr = v[i].addr, .size = v[i].size, .name = v[i].name };
	err = jit_elf__build(es, nr, host_machine(), &img, &len, &bid);
	free(es);
	if (!err)
		err = buildid_cache__mkdir(n->jit_dir);
	if (!err)
		err = write_file(p->elf_name, img, len);
	free(img);
	if (!err) {
		p->written_gen = p->gen;
		n->st.elfs++;
		n->st.syms += nr;
	}
	return err;
}

int names__write_elfs(struct names *n)
{
	int first = 0;

	if (!n || !n->jit_dir)
		return 0;
	pthread_mutex_lock(&n->io);
	names__poll_all(n, true);
	for (uint32_t i = 0;; i++) {
		struct names_proc *p;
		int err;

		pthread_mutex_lock(&n->lock);
		p = i < n->nr_procs ? n->procs[i] : NULL;
		pthread_mutex_unlock(&n->lock);
		if (!p)
			break;
		if (p->gen == p->written_gen)
			continue;
		err = names__write_elf(n, p);
		if (err && !first)
			first = err;
	}
	pthread_mutex_unlock(&n->io);
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
