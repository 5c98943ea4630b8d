// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build-id hit set (dso_track.h), its entry and cold half: the
 * tracker's lifecycle, the side-band records that build the maps, the
 * writer's stream and the ring, and the end, where the hit DSOs' build-ids
 * are read. Samples and the pending set are in dso_hits.c, the DSO and
 * process tables in dso_table.c; both are below this file.
 *
 * What is written is perf 6.1's machine__write_buildid_table(): every hit
 * DSO that has a build-id, plus "[vdso]" whenever a process mapped it; pid -1
 * (the host), misc KERNEL for the kernel and modules, USER for the rest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "prec/buildid.h"
#include "dsos/dso_track.h"
#include "drain/ring.h"
#include "prec/writer.h"
#include "dsos/dso_track_int.h"

int dso_track__layout(uint64_t st, bool sample_id_all, struct dso_track_layout *l)
{
	int off = 0, after_time = 0;

	if (!l)
		return -EINVAL;
	if (st & PERF_SAMPLE_IDENTIFIER)
		off += 8;
	l->ip_off = (st & PERF_SAMPLE_IP) ? off : -1;
	if (st & PERF_SAMPLE_IP)
		off += 8;
	l->tid_off = (st & PERF_SAMPLE_TID) ? off : -1;
	/* sample_id: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER, at the end. */
	after_time += (st & PERF_SAMPLE_ID) ? 8 : 0;
	after_time += (st & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	after_time += (st & PERF_SAMPLE_CPU) ? 8 : 0;
	after_time += (st & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	l->id_time_back = sample_id_all && (st & PERF_SAMPLE_TIME) ? after_time + 8 : 0;
	return 0;
}

int dso_track__new(struct dso_track **out, const struct dso_track_layout *l)
{
	struct dso_track *t;

	if (!out || !l)
		return -EINVAL;
	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->l = *l;
	t->kernel.pid = (uint32_t)-1;
	t->kernel_start = 1ULL << 63;
	t->carry = malloc(RECORD_MAX);
	if (dso_track_tables_init(t) || !t->carry) {
		dso_track__delete(t);
		return -ENOMEM;
	}
	*out = t;
	return 0;
}

int dso_track__set_sys_dir(struct dso_track *t, const char *sys_dir)
{
	char *s = sys_dir ? strdup(sys_dir) : NULL;

	if (sys_dir && !s)
		return -ENOMEM;
	free(t->sys_dir);
	t->sys_dir = s;
	return 0;
}

void dso_track__set_buildids(struct dso_track *t, enum dso_track_buildids which)
{
	t->which = which;
}

void dso_track__set_kernel_name(struct dso_track *t, const char *name)
{
	t->kernel_name = name;
}

void dso_track__delete(struct dso_track *t)
{
	if (!t)
		return;
	dso_track_tables_exit(t);
	dso_maps__exit(&t->kernel.maps);
	free(t->pend);
	free(t->pend_tmp);
	free(t->carry);
	free(t->scratch);
	free(t->out);
	free(t->sys_dir);
	free(t);
}

/* ---- records ---- */

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The sample_id TIME of a non-sample record whose fixed part is body bytes. */
static uint64_t record_time(const struct dso_track *t, const uint8_t *rec, size_t size, size_t body)
{
	size_t back = (size_t)t->l.id_time_back;

	if (!back || size < body + back)
		return 0;
	return rd64(rec + size - back);
}

bool dso_track__is_anon_name(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14) || !strncmp(name, "[stack", 6) ||
	       !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

void dso_track__set_namer(struct dso_track *t, const struct dso_track_namer *n)
{
	if (n)
		t->namer = *n;
	else
		memset(&t->namer, 0, sizeof(t->namer));
}

/* The DSO of a user mapping: JIT code gets its ELF's name; a file seen the
 * first time has its build-id read through the mapping. */
static struct dso *user_dso(struct dso_track *t, const struct dso_track_mapping *m, uint64_t time)
{
	const struct dso_track_namer *nm = &t->namer;
	const char *name = m->name;
	uint32_t before = t->nr_dsos;
	struct build_id bid;
	struct dso *d;

	if (nm->anon_name && m->exec && dso_track__is_anon_name(name)) {
		const char *jit = nm->anon_name(nm->arg, m->pid, time);

		name = jit ? jit : name;
	}
	d = dso_track_dso(t, name, false);
	if (d && t->nr_dsos != before && d->kind == DSO_FILE && m->exec && name == m->name &&
	    nm->file_bid && t->which != DSO_TRACK_BUILDIDS_NONE &&
	    !nm->file_bid(nm->arg, m, &bid)) {
		d->bid = bid;
		d->has_bid = true;
	}
	return d;
}

static void on_mmap(struct dso_track *t, uint16_t misc, const struct dso_track_mapping *m,
		    uint64_t time, const struct build_id *bid)
{
	uint16_t cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel_space = cpumode == PERF_RECORD_MISC_KERNEL;
	uint64_t start = m->start,
		 end = m->start + m->len < m->start ? UINT64_MAX : m->start + m->len;
	struct proc *p;
	struct dso *d = NULL;

	if (!m->len || (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_USER))
		return; /* guests and hypervisors are not followed */
	p = kernel_space ? &t->kernel : dso_track_proc_findnew(t, m->pid);
	if (p)
		d = kernel_space || bid ? dso_track_dso(t, m->name, kernel_space) :
					  user_dso(t, m, time);
	if (!d || dso_maps__insert_file(&p->maps, start, end, m->pgoff, time, d)) {
		t->st.nomem++;
		return;
	}
	if (d->seq + 1 == t->nr_dsos && !d->first_time)
		d->first_time = time; /* just made (or its first was timeless) */
	if (bid && !d->has_bid) {
		d->bid = *bid;
		d->has_bid = true;
	}
	if (d->kind == DSO_KERNEL && start < t->kernel_start)
		t->kernel_start = start;
	t->maps_changed = true;
}

static void on_fork(struct dso_track *t, uint16_t misc, uint32_t pid, uint32_t ppid, uint64_t time)
{
	struct proc *child, *parent;

	if (pid == ppid)
		return; /* a thread: it shares its process's maps */
	child = dso_track_proc_findnew(t, pid);
	if (!child) {
		t->st.nomem++;
		return;
	}
	/* perf's synthesized FORK of a process whose maps follow, or a child
	 * whose exec came through first (out of order): nothing to copy. */
	if ((misc & PERF_RECORD_MISC_FORK_EXEC) || child->exec_seen)
		return;
	parent = dso_track_proc(t, ppid);
	if (!parent || parent == child)
		return;
	for (uint32_t i = 0; i < parent->maps.nr; i++) {
		const struct dso_map *m = &parent->maps.v[i];

		if (time && m->time > time)
			continue; /* mapped by the parent after the fork */
		if (dso_maps__insert_file(&child->maps, m->start, m->end, m->pgoff, m->time,
					  m->dso)) {
			t->st.nomem++;
			return;
		}
	}
	t->maps_changed = true;
}

static void on_exec(struct dso_track *t, uint32_t pid, uint64_t time)
{
	struct proc *p = dso_track_proc_findnew(t, pid);

	if (!p) {
		t->st.nomem++;
		return;
	}
	/* The old image goes; maps of the new one that came first stay. */
	dso_maps__drop_older(&p->maps, time);
	p->exec_seen = true;
	t->maps_changed = true;
}

static void on_exit_rec(struct dso_track *t, uint32_t pid, uint32_t tid)
{
	struct proc *p;

	if (pid != tid)
		return; /* a thread: the process lives on */
	p = dso_track_proc(t, pid);
	if (!p || p->dead)
		return;
	/* Samples from other rings may still be on their way: drop it a pass
	 * later (dso_track__end_pass). */
	p->dead = true;
	p->dead_pass = t->pass;
	if (!p->on_dead_list) {
		p->on_dead_list = true;
		p->dead_next = t->dead;
		t->dead = p;
	}
}

void dso_track__event(struct dso_track *t, const void *rec, size_t len)
{
	const uint8_t *r = rec;
	struct perf_event_header h;
	size_t n;

	if (!t || !rec || len < sizeof(h))
		return;
	memcpy(&h, r, sizeof(h));
	if (h.size < sizeof(h) || h.size > len)
		return;
	switch (h.type) {
	case PERF_RECORD_SAMPLE:
		if (t->l.ip_off >= 0 && h.size >= 8 + (size_t)t->l.ip_off + 8) {
			uint32_t pid = (uint32_t)-1;

			if (t->l.tid_off >= 0 && h.size >= 8 + (size_t)t->l.tid_off + 4)
				pid = rd32(r + 8 + t->l.tid_off);
			dso_track__sample(t, h.misc, pid, rd64(r + 8 + t->l.ip_off));
		}
		break;
	case PERF_RECORD_MMAP: {
		/* pid, tid, start, len, pgoff, filename */
		struct dso_track_mapping m;

		if (h.size <= 40 ||
		    (n = strnlen((const char *)r + 40, h.size - 40u)) == h.size - 40u)
			break;
		m = (struct dso_track_mapping){
			.pid = rd32(r + 8),
			.start = rd64(r + 16),
			.len = rd64(r + 24),
			.pgoff = rd64(r + 32),
			.exec = !(h.misc & PERF_RECORD_MISC_MMAP_DATA),
			.name = (const char *)r + 40,
		};
		on_mmap(t, h.misc, &m, record_time(t, r, h.size, 40 + n + 1), NULL);
		break;
	}
	case PERF_RECORD_MMAP2: {
		/* pid, tid, start, len, pgoff, {maj, min, ino, ino_generation |
		 * build_id_size, 3 reserved, build_id[20]}, prot, flags, filename */
		struct build_id bid, *pbid = NULL;
		struct dso_track_mapping m;

		if (h.size <= 72 ||
		    (n = strnlen((const char *)r + 72, h.size - 72u)) == h.size - 72u)
			break;
		m = (struct dso_track_mapping){
			.pid = rd32(r + 8),
			.start = rd64(r + 16),
			.len = rd64(r + 24),
			.pgoff = rd64(r + 32),
			.exec = rd32(r + 64) & PROT_EXEC,
			.name = (const char *)r + 72,
		};
		if ((h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && r[40] && r[40] <= BUILD_ID_MAX) {
			memset(&bid, 0, sizeof(bid));
			bid.size = r[40];
			memcpy(bid.data, r + 44, bid.size);
			pbid = &bid;
		} else if (!(h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			m.has_ino = true;
			m.maj = rd32(r + 40);
			m.min = rd32(r + 44);
			m.ino = rd64(r + 48);
			m.ino_generation = rd64(r + 56);
		}
		on_mmap(t, h.misc, &m, record_time(t, r, h.size, 72 + n + 1), pbid);
		break;
	}
	case PERF_RECORD_COMM:
		if (h.size >= 16 && (h.misc & PERF_RECORD_MISC_COMM_EXEC))
			on_exec(t, rd32(r + 8),
				record_time(t, r, h.size,
					    16 + strnlen((const char *)r + 16, h.size - 16)));
		break;
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid, time */
		if (h.size >= 32)
			on_fork(t, h.misc, rd32(r + 8), rd32(r + 12), rd64(r + 24));
		break;
	case PERF_RECORD_EXIT:
		if (h.size >= 32)
			on_exit_rec(t, rd32(r + 8), rd32(r + 16));
		break;
	default:
		break;
	}
}

/* ---- the ring and the writer's stream ---- */

void dso_track__ring_record(struct dso_track *t, const struct ring *r, uint64_t pos,
			    const struct perf_event_header *h)
{
	uint64_t off = pos & r->mask, size = r->mask + 1;

	switch (h->type) {
	case PERF_RECORD_SAMPLE: {
		uint32_t pidtid[2] = { (uint32_t)-1, 0 };
		uint64_t v;

		if (t->l.ip_off < 0 || h->size < 8 + t->l.ip_off + 8)
			return;
		if (t->l.tid_off >= 0 && h->size >= 8 + t->l.tid_off + 8) {
			v = ring__peek_u64(r, pos + 8 + t->l.tid_off);
			memcpy(pidtid, &v, sizeof(v));
		}
		dso_track__sample(t, h->misc, pidtid[0], ring__peek_u64(r, pos + 8 + t->l.ip_off));
		return;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		break;
	default:
		return;
	}
	if (off + h->size <= size) {
		dso_track__event(t, r->data + off, h->size);
		return;
	}
	if (!t->scratch && !(t->scratch = malloc(RECORD_MAX))) {
		t->st.nomem++;
		return;
	}
	memcpy(t->scratch, r->data + off, size - off);
	memcpy(t->scratch + (size - off), r->data, h->size - (size - off));
	dso_track__event(t, t->scratch, h->size);
}

void dso_track__stream(void *arg, const void *buf, size_t len)
{
	struct dso_track *t = arg;
	const uint8_t *p = buf;

	while (len && !t->stream_broken) {
		struct perf_event_header h;
		size_t n;

		if (!t->carry_len && len >= sizeof(h)) {
			memcpy(&h, p, sizeof(h));
			if (h.size >= sizeof(h) && h.size <= len) {
				dso_track__event(t, p, h.size);
				p += h.size;
				len -= h.size;
				continue;
			}
		}
		/* A record cut short: gather it in carry. */
		n = t->carry_len < sizeof(h) ? sizeof(h) - t->carry_len : 0;
		if (!n) {
			memcpy(&h, t->carry, sizeof(h));
			n = h.size - t->carry_len;
		}
		n = n < len ? n : len;
		memcpy(t->carry + t->carry_len, p, n);
		t->carry_len += n;
		p += n;
		len -= n;
		if (t->carry_len < sizeof(h))
			continue;
		memcpy(&h, t->carry, sizeof(h));
		if (h.size < sizeof(h)) {
			t->stream_broken = true; /* no framing left to trust */
			break;
		}
		if (t->carry_len == h.size) {
			dso_track__event(t, t->carry, h.size);
			t->carry_len = 0;
		}
	}
}

/* ---- the end ---- */

static int dso_read_bid(const struct dso_track *t, const struct dso *d, struct build_id *bid)
{
	if (d->has_bid) {
		*bid = d->bid;
		return 0;
	}
	switch (d->kind) {
	case DSO_KERNEL:
		return buildid__read_kernel(t->sys_dir, bid);
	case DSO_MODULE:
		/* perf reads the loaded module's notes; the .ko when named. */
		if (!buildid__read_module(t->sys_dir, d->name, bid))
			return 0;
		return d->name[0] == '/' ? buildid__read_file(d->name, bid) : -ENOENT;
	case DSO_VDSO:
		return buildid__read_vdso(bid);
	case DSO_FILE:
		if (t->namer.late_bid) {
			int err = t->namer.late_bid(t->namer.arg, d->name, bid);

			if (!err || err == -ETIMEDOUT)
				return err;
		}
		return buildid__read_file(d->name, bid);
	default:
		return -ENOENT;
	}
}

/* The last look at the pending samples: nothing is dropped any more, so
 * all may resolve; what does not is counted once. */
static void dso_track_settle(struct dso_track *t)
{
	for (struct proc *p = t->dead; p; p = p->dead_next)
		p->freeing = false;
	if (t->nr_pend) {
		dso_track_pend_retry(t);
		t->st.unresolved += t->nr_pend;
		t->nr_pend = 0;
	}
}

int dso_track__merge(struct dso_track *dst, struct dso_track *src)
{
	int ret = 0;

	dso_track_settle(src);
	for (uint32_t i = 0; i < src->nr_dsos; i++) {
		const struct dso *s = src->dsos[i];
		struct dso *d =
			dso_track_dso(dst, s->name, s->kind == DSO_KERNEL || s->kind == DSO_MODULE);

		if (!d) {
			dst->st.nomem++;
			ret = -ENOMEM;
			continue;
		}
		d->hit |= s->hit;
		if (!d->first_time || s->first_time < d->first_time)
			d->first_time = s->first_time;
		if (s->has_bid && !d->has_bid) {
			d->bid = s->bid;
			d->has_bid = true;
		}
	}
	dst->st.samples += src->st.samples;
	dst->st.unresolved += src->st.unresolved;
	dst->st.pending_full += src->st.pending_full;
	dst->st.nomem += src->st.nomem;
	return ret;
}

/* perf's order of HEADER_BUILD_ID, which its readers' ties follow: the
 * kernel (made with the machine), then the DSOs as perf's ordered events
 * meet their first mapping: synthesized ones (no time) as read, then by
 * time; the rings' drain order is not time order across CPUs. */
static int dso_order(const void *a, const void *b)
{
	const struct dso *x = *(const struct dso *const *)a, *y = *(const struct dso *const *)b;

	if ((x->kind == DSO_KERNEL) != (y->kind == DSO_KERNEL))
		return x->kind == DSO_KERNEL ? -1 : 1;
	if (x->first_time != y->first_time)
		return x->first_time < y->first_time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int dso_track__finish(struct dso_track *t, const struct writer_buildid **out, uint32_t *nr)
{
	struct dso **order;

	*out = NULL;
	*nr = 0;
	dso_track_settle(t);
	free(t->out);
	t->nr_out = 0;
	t->out = calloc(t->nr_dsos ? t->nr_dsos : 1, sizeof(*t->out));
	order = malloc((t->nr_dsos ? t->nr_dsos : 1) * sizeof(*order));
	if (!t->out || !order) {
		free(order);
		return -ENOMEM;
	}
	if (t->nr_dsos)
		memcpy(order, t->dsos, t->nr_dsos * sizeof(*order));
	qsort(order, t->nr_dsos, sizeof(*order), dso_order);
	for (uint32_t i = 0; i < t->nr_dsos; i++) {
		const struct dso *d = order[i];
		struct writer_buildid *w = &t->out[t->nr_out];
		struct build_id bid;

		if (t->which == DSO_TRACK_BUILDIDS_NONE)
			break;
		if (d->kind == DSO_OTHER ||
		    (!d->hit && t->which != DSO_TRACK_BUILDIDS_ALL && d->kind != DSO_VDSO))
			continue;
		if (dso_read_bid(t, d, &bid))
			continue;
		w->pid = -1;
		w->misc = d->kind == DSO_KERNEL || d->kind == DSO_MODULE ? PERF_RECORD_MISC_KERNEL :
									   PERF_RECORD_MISC_USER;
		w->size = bid.size;
		memcpy(w->id, bid.data, sizeof(w->id));
		/* --vmlinux: perf names the kernel by that file (its id stays
		 * the running kernel's). */
		w->filename = d->kind == DSO_KERNEL && t->kernel_name ? t->kernel_name : d->name;
		w->source = d->kind == DSO_FILE && t->namer.source ?
				    t->namer.source(t->namer.arg, &bid) :
				    NULL;
		t->nr_out++;
	}
	free(order);
	*out = t->out;
	*nr = t->nr_out;
	return 0;
}

void dso_track__stats(const struct dso_track *t, struct dso_track_stats *st)
{
	*st = t->st;
	st->dsos = t->nr_dsos;
	st->hit = 0;
	for (uint32_t i = 0; i < t->nr_dsos; i++)
		st->hit += t->dsos[i]->hit;
}
