// SPDX-License-Identifier: GPL-2.0-only
/*
 * The background synthesis (background.h): one coordinator thread lists
 * /proc and cuts the pids into chunks; it and its helpers take the chunks
 * in order from one counter, each chunk's records going to its own buffer,
 * so that writing the buffers one after another gives /proc's readdir
 * order, as perf's single walk writes it. Chunk 0 is the kernel's part.
 * Between two processes a worker first reads those the drains saw samples
 * of (hints.h): a process that exits before the walk reaches it loses its
 * maps, and only the sampled ones need them. Such a process's records go
 * into the buffer of the chunk its reader was on; its place in the walk is
 * skipped.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "evlist/evlist.h"
#include "prec/log.h"
#include "prec/mono_clock.h"
#include "prec/thread.h"
#include "targets/thread_map.h"
#include "drain/wake.h"
#include "synth/background.h"
#include "synth/hints.h"
#include "synth/sideband.h"
#include "synth/synth_config.h"
#include "synth/synthesize.h"

/* Chunks per worker: small enough that one slow process (a huge maps file)
 * does not leave the others idle at the end. */
#define BG_CHUNKS_PER_THREAD 8
#define BG_DEFAULT_MAX 8 /* the default's cap */
#define BG_MAX_THREADS 64 /* --num-thread-synthesize's */
/* A worker's stack: the /proc walk's and the kernel part's buffers, under
 * 48 KB touched; the coordinator also holds helpers[]. */
#define BG_STACK (256 * 1024)

struct bg_chunk {
	struct synth_buf buf;
	const pid_t *pids; /* NULL: the kernel's part (chunk 0) or a -p/-t list */
	size_t nr;
	int err;
};

struct synth_bg {
	const struct evlist *evlist;
	const struct sysinfo *si;
	const struct synth_config *cfg;
	struct synth_task_opts t;
	pid_t *pids; /* /proc's pids, system-wide */
	struct bg_chunk *chunks;
	size_t nr_chunks;
	atomic_size_t next; /* the next chunk to take */
	atomic_bool cancel;
	atomic_bool done;
	unsigned nr_threads;
	pthread_t coord;
	struct wake *wake; /* the main loop's, poked when done (NULL: none) */
	struct synth_hints *hints; /* the sampled pids, read first (NULL: none) */
	void (*made)(void *arg, uint64_t bytes); /* each chunk's size (NULL: none) */
	void *made_arg;
	const char *(*anon_name)(void *arg, uint32_t pid); /* the output's naming */
	void *anon_arg;
	uint64_t t0_ns, t1_ns; /* started, done (mono_clock__ns; printed under -v) */
	bool started, finished;
};

/* The worker threads for --num-thread-synthesize=n: n (at most 64 are
 * started), or with 0 the CPUs prec may run on, at most 8 (the walk is
 * bound by the kernel's /proc locks beyond that). */
static unsigned synth_bg__nr_threads(unsigned n)
{
	cpu_set_t set;
	int cpus;

	if (n)
		return n;
	cpus = sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
	return cpus < 1 ? 1 : cpus > BG_DEFAULT_MAX ? BG_DEFAULT_MAX : (unsigned)cpus;
}

/* A chunk of /proc's pids, the sampled processes first as they come; a
 * recording that ends early stops it between processes. */
static int bg__walk(struct synth_bg *bg, struct synth_out *w, const struct bg_chunk *c)
{
	struct synth_walk *wk;
	int ret = synth_walk__new(&wk, w, "/proc", &bg->t.so);

	for (size_t k = 0; !ret && k < c->nr && !atomic_load(&bg->cancel); k++) {
		pid_t hot;

		while (!ret && bg->hints && (hot = synth_hints__take(bg->hints)) > 0)
			ret = synth_walk__process(wk, hot);
		if (!ret && (!bg->hints || synth_hints__claim(bg->hints, c->pids[k])))
			ret = synth_walk__process(wk, c->pids[k]);
	}
	synth_walk__delete(wk);
	return ret;
}

/* One chunk's records into its buffer. */
static void bg__run_chunk(struct synth_bg *bg, struct bg_chunk *c, size_t i)
{
	struct synth_out w = { .buf = &c->buf,
			       .anon_name = bg->anon_name,
			       .anon_arg = bg->anon_arg };
	const struct thread_map *threads = bg->evlist->threads;
	int ret;

	if (i == 0) {
		ret = synth__sideband_kernel(&w, bg->evlist, bg->si, bg->cfg);
		if (!ret && bg->t.so.cgroups && bg->t.so.cgroup_mnt) {
			ret = synth__cgroups(&w, bg->t.so.cgroup_mnt, bg->t.so.id_hdr_size);
			if (ret == -ENOENT || ret == -EACCES)
				ret = 0; /* a missing cgroup tree only costs its records */
		}
	} else if (c->pids) {
		ret = bg__walk(bg, &w, c);
	} else {
		/* -p/-t/-u: the listed threads, few; one chunk. */
		ret = synth__threads(&w, "/proc", threads->pid, (size_t)threads->nr, &bg->t.so);
	}
	c->err = ret == -ENOENT || ret == -EACCES ? 0 : ret;
	if (bg->made && c->buf.len)
		bg->made(bg->made_arg, c->buf.len);
}

static void *bg__worker(void *arg)
{
	struct synth_bg *bg = arg;
	size_t i;

	while ((i = atomic_fetch_add(&bg->next, 1)) < bg->nr_chunks)
		if (!atomic_load(&bg->cancel))
			bg__run_chunk(bg, &bg->chunks[i], i);
	return NULL;
}

/* The chunks: the kernel's, then /proc's pids cut in order. 0 or -errno. */
static int bg__plan(struct synth_bg *bg)
{
	const struct thread_map *threads = bg->evlist->threads;
	bool tasks = !bg->evlist->workload_only && bg->cfg->tasks;
	bool any = threads->nr == 1 && threads->pid[0] == -1;
	size_t nr = 0, per, want;
	int ret;

	if (tasks && any) {
		ret = proc__pids("/proc", &bg->pids, &nr);
		if (ret) {
			pr_warn("cannot list /proc: existing processes will not resolve (is /proc mounted?)");
			nr = 0;
		}
	}
	if (bg->hints)
		synth_hints__list(bg->hints, bg->pids, nr);
	want = (size_t)bg->nr_threads * BG_CHUNKS_PER_THREAD;
	per = nr / want + 1;
	bg->nr_chunks = 1 + (nr + per - 1) / per + (tasks && !any);
	bg->chunks = calloc(bg->nr_chunks, sizeof(*bg->chunks));
	if (!bg->chunks)
		return -ENOMEM;
	for (size_t k = 1, at = 0; at < nr; k++, at += per) {
		bg->chunks[k].pids = bg->pids + at;
		bg->chunks[k].nr = nr - at < per ? nr - at : per;
	}
	return 0;
}

/*
 * The drain sleeps until a ring's watermark or its 1 s tick; the side-band
 * should reach the file (and its committed header: a recording killed now
 * must still resolve the kernel) as soon as it is ready: the main loop's
 * wake eventfd (drain/wake.h) takes it out of its ppoll.
 */
static void bg__wake(const struct synth_bg *bg)
{
	wake__poke(bg->wake);
}

static void *bg__coordinate(void *arg)
{
	struct synth_bg *bg = arg;
	pthread_t helpers[BG_MAX_THREADS];
	unsigned started = 0;

	synth__task_opts(bg->evlist, bg->cfg, &bg->t);
	if (bg__plan(bg)) {
		bg->nr_chunks = 0;
		goto out;
	}
	for (unsigned i = 1; i < bg->nr_threads && i < bg->nr_chunks; i++) {
		char name[THREAD_NAME_MAX];

		snprintf(name, sizeof(name), "prec-synth-%u", i % 10000u);
		if (!thread__start(&helpers[started], name, BG_STACK, bg__worker, bg))
			started++;
	}
	bg__worker(bg);
	for (unsigned i = 0; i < started; i++)
		pthread_join(helpers[i], NULL);
out:
	bg->t1_ns = mono_clock__ns(false);
	atomic_store(&bg->done, true);
	bg__wake(bg);
	return NULL;
}

int synth_bg__start(struct synth_bg **out, const struct evlist *evlist, const struct sysinfo *si,
		    const struct synth_config *cfg, const struct synth_out *like,
		    const struct synth_bg_links *links)
{
	struct synth_bg *bg = calloc(1, sizeof(*bg));
	int ret;

	*out = NULL;
	if (!bg)
		return -ENOMEM;
	bg->evlist = evlist;
	bg->si = si;
	bg->cfg = cfg;
	bg->nr_threads = synth_bg__nr_threads(cfg->nr_threads);
	if (links) {
		bg->wake = links->wake;
		bg->hints = links->hints;
		bg->made = links->made;
		bg->made_arg = links->made_arg;
	}
	bg->anon_name = like ? like->anon_name : NULL;
	bg->anon_arg = like ? like->anon_arg : NULL;
	bg->t0_ns = mono_clock__ns(false);
	if (bg->nr_threads > BG_MAX_THREADS)
		bg->nr_threads = BG_MAX_THREADS;
	/* The workers take no signal: the recorder's stay with its thread. */
	ret = thread__start(&bg->coord, "prec-synth", BG_STACK, bg__coordinate, bg);
	if (ret) {
		free(bg);
		return ret;
	}
	bg->started = true;
	*out = bg;
	return 0;
}

bool synth_bg__done(const struct synth_bg *bg)
{
	return atomic_load(&((struct synth_bg *)bg)->done);
}

int synth_bg__finish(struct synth_bg *bg, struct synth_out *w)
{
	size_t bytes = 0;
	int ret = 0;

	if (bg->started)
		pthread_join(bg->coord, NULL);
	bg->started = false;
	if (bg->finished)
		return 0;
	bg->finished = true;
	for (size_t i = 0; !ret && i < bg->nr_chunks; i++) {
		struct bg_chunk *c = &bg->chunks[i];

		ret = c->err;
		bytes += c->buf.len;
		if (!ret && c->buf.len)
			ret = synth_out__write(w, c->buf.data, c->buf.len);
	}
	/* A file that took no more may cut back what went in: synth_bg__keep
	 * still has every buffer. */
	for (size_t i = 0; !ret && i < bg->nr_chunks; i++)
		synth_buf__exit(&bg->chunks[i].buf);
	/* The tests compare it with when the command started. */
	pr_verbose(
		"side-band of existing tasks: %zu bytes, ready %.3f s after it started, beside the recording\n",
		bytes, (double)(bg->t1_ns - bg->t0_ns) / 1e9);
	return ret;
}

/* Appends len bytes to out. 0 or -ENOMEM. */
static int bg__append(struct synth_buf *out, const void *p, size_t len)
{
	struct synth_out w = { .buf = out };

	return synth_out__write(&w, p, len);
}

int synth_bg__keep(struct synth_bg *bg, bool (*keep)(void *arg, uint32_t pid), void *arg,
		   struct synth_buf *out)
{
	int ret = 0;

	if (bg->started)
		pthread_join(bg->coord, NULL);
	bg->started = false;
	for (size_t i = 0; !ret && i < bg->nr_chunks; i++) {
		const struct synth_buf *b = &bg->chunks[i].buf;
		size_t at = 0;

		if (i == 0) {
			ret = b->len ? bg__append(out, b->data, b->len) : 0;
			continue;
		}
		/* FORK, COMM, NAMESPACES, MMAP2: the pid follows the header. */
		while (!ret && at + 12 <= b->len) {
			struct perf_event_header h;
			uint32_t pid;

			memcpy(&h, b->data + at, sizeof(h));
			if (h.size < 12 || h.size > b->len - at)
				break;
			memcpy(&pid, b->data + at + 8, sizeof(pid));
			if (keep(arg, pid))
				ret = bg__append(out, b->data + at, h.size);
			at += h.size;
		}
	}
	return ret;
}

void synth_bg__delete(struct synth_bg *bg)
{
	if (!bg)
		return;
	atomic_store(&bg->cancel, true);
	if (bg->started)
		pthread_join(bg->coord, NULL);
	for (size_t i = 0; i < bg->nr_chunks; i++)
		synth_buf__exit(&bg->chunks[i].buf);
	free(bg->chunks);
	free(bg->pids);
	free(bg);
}
