// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build-id hit set, fed synthetic records: maps of the kernel, a module
 * and files (small ELF files with known ids written under mkdtemp, a sysfs
 * fixture for the kernel's and the module's notes), exec, fork, threads,
 * exit, samples that come before their map or in none, records cut anywhere
 * (the writer's observer), records wrapping a ring, and hostile records.
 * The range list under it (dso_maps) is checked on its own first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/buildid.h"
#include "recorder/dsos/dso_track.h"
#include "recorder/drain/ring.h"
#include "prec/writer.h"
#include "recorder/dsos/dso_maps.h"
#include "recorder/synth/synthesize.h"

/* ---- dso_maps ---- */

static struct dso *D(int n)
{
	return (struct dso *)(uintptr_t)(0x1000 * n);
}

struct span {
	uint64_t start, end;
	int dso;
};

static void assert_maps(const struct dso_maps *m, const struct span *want, uint32_t n)
{
	if (m->nr != n) {
		for (uint32_t i = 0; i < m->nr; i++)
			print_message("  [%#llx, %#llx) %d\n", (unsigned long long)m->v[i].start,
				      (unsigned long long)m->v[i].end,
				      (int)((uintptr_t)m->v[i].dso / 0x1000));
		fail_msg("%u ranges, want %u", m->nr, n);
	}
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(m->v[i].start, want[i].start);
		assert_int_equal(m->v[i].end, want[i].end);
		assert_ptr_equal(m->v[i].dso, D(want[i].dso));
	}
}

static void test_maps(void **state)
{
	struct dso_maps m = { 0 };

	(void)state;
	assert_int_equal(dso_maps__insert(&m, 0x1000, 0x3000, 5, D(1)), 0);
	assert_int_equal(dso_maps__insert(&m, 0x5000, 0x6000, 5, D(2)), 0);
	/* inside one: split */
	assert_int_equal(dso_maps__insert(&m, 0x2000, 0x2800, 6, D(3)), 0);
	assert_maps(&m,
		    (struct span[]){ { 0x1000, 0x2000, 1 },
				     { 0x2000, 0x2800, 3 },
				     { 0x2800, 0x3000, 1 },
				     { 0x5000, 0x6000, 2 } },
		    4);
	assert_ptr_equal(dso_maps__find(&m, 0x1fff)->dso, D(1));
	assert_ptr_equal(dso_maps__find(&m, 0x2000)->dso, D(3));
	assert_ptr_equal(dso_maps__find(&m, 0x2900)->dso, D(1));
	assert_null(dso_maps__find(&m, 0x3000));
	assert_null(dso_maps__find(&m, 0xfff));
	assert_null(dso_maps__find(&m, 0x6000));
	/* an older one over all of it only fills the gaps */
	assert_int_equal(dso_maps__insert(&m, 0x0, 0x7000, 1, D(4)), 0);
	assert_maps(&m,
		    (struct span[]){ { 0x0, 0x1000, 4 },
				     { 0x1000, 0x2000, 1 },
				     { 0x2000, 0x2800, 3 },
				     { 0x2800, 0x3000, 1 },
				     { 0x3000, 0x5000, 4 },
				     { 0x5000, 0x6000, 2 },
				     { 0x6000, 0x7000, 4 } },
		    7);
	/* a newer one trims on both sides and covers what is between */
	assert_int_equal(dso_maps__insert(&m, 0x1800, 0x5800, 7, D(5)), 0);
	assert_maps(&m,
		    (struct span[]){ { 0x0, 0x1000, 4 },
				     { 0x1000, 0x1800, 1 },
				     { 0x1800, 0x5800, 5 },
				     { 0x5800, 0x6000, 2 },
				     { 0x6000, 0x7000, 4 } },
		    5);
	/* the same time (or no time) replaces: arrival order */
	assert_int_equal(dso_maps__insert(&m, 0x0, 0x1000, 1, D(6)), 0);
	assert_ptr_equal(dso_maps__find(&m, 0x800)->dso, D(6));
	/* an exec at 6 keeps only what was made at 6 or later */
	dso_maps__drop_older(&m, 6);
	assert_maps(&m, (struct span[]){ { 0x1800, 0x5800, 5 } }, 1);
	/* a range reaching the top of the address space */
	assert_int_equal(dso_maps__insert(&m, 0xffffffff81000000ULL, UINT64_MAX, 9, D(7)), 0);
	assert_ptr_equal(dso_maps__find(&m, UINT64_MAX - 1)->dso, D(7));
	dso_maps__drop_older(&m, 0);
	assert_int_equal(m.nr, 0);
	/* many: sorted and disjoint after random inserts */
	uint64_t seed = 42;

	for (int i = 0; i < 3000; i++) {
		seed = seed * 6364136223846793005ULL + 1;
		uint64_t s = (seed >> 40) & 0xffff0, len = 0x10 + ((seed >> 20) & 0xff0);

		assert_int_equal(dso_maps__insert(&m, s, s + len, (seed >> 8) & 7, D(1 + i % 7)),
				 0);
	}
	for (uint32_t i = 0; i + 1 < m.nr; i++) {
		assert_true(m.v[i].start < m.v[i].end);
		assert_true(m.v[i].end <= m.v[i + 1].start);
	}
	dso_maps__exit(&m);
}

/* ---- the record builder ---- */

/* sample_type IP|TID|TIME|PERIOD with sample_id_all: the trailer is
 * {pid, tid}, time. */
#define STYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

struct rbuf {
	uint8_t b[1 << 16];
	size_t n;
	size_t nr;
	size_t off[256]; /* where each record starts */
};

static void *rec_begin(struct rbuf *r, uint32_t type, uint16_t misc)
{
	struct perf_event_header *h = (void *)(r->b + r->n);

	assert_true(r->nr < 256);
	r->off[r->nr++] = r->n;
	memset(h, 0, 512);
	h->type = type;
	h->misc = misc;
	return h;
}

static void rec_end(struct rbuf *r, void *body_end, uint32_t pid, uint32_t tid, uint64_t time)
{
	uint8_t *p = body_end;
	struct perf_event_header *h = (void *)(r->b + r->n);

	memcpy(p, &pid, 4);
	memcpy(p + 4, &tid, 4);
	memcpy(p + 8, &time, 8);
	p += 16;
	h->size = (uint16_t)(p - (uint8_t *)h);
	r->n += h->size;
}

static size_t name_pad(const char *name)
{
	return (strlen(name) + 1 + 7) & ~(size_t)7;
}

static void mmap_k(struct rbuf *r, uint64_t start, uint64_t len, const char *name)
{
	uint8_t *h = rec_begin(r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	uint32_t pid = (uint32_t)-1;

	memcpy(h + 8, &pid, 4);
	memcpy(h + 16, &start, 8);
	memcpy(h + 24, &len, 8);
	memcpy(h + 32, &start, 8);
	strcpy((char *)h + 40, name);
	rec_end(r, h + 40 + name_pad(name), pid, 0, 0);
}

static void mmap2_bid(struct rbuf *r, uint32_t pid, uint64_t start, uint64_t len, const char *name,
		      uint64_t time, const uint8_t *bid, uint8_t bid_size)
{
	uint8_t *h = rec_begin(r, PERF_RECORD_MMAP2,
			       PERF_RECORD_MISC_USER | (bid ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0));
	uint32_t prot = 5, flags = 2;

	memcpy(h + 8, &pid, 4);
	memcpy(h + 12, &pid, 4);
	memcpy(h + 16, &start, 8);
	memcpy(h + 24, &len, 8);
	if (bid) {
		h[40] = bid_size;
		memcpy(h + 44, bid, bid_size);
	}
	memcpy(h + 64, &prot, 4);
	memcpy(h + 68, &flags, 4);
	strcpy((char *)h + 72, name);
	rec_end(r, h + 72 + name_pad(name), pid, pid, time);
}

static void mmap2(struct rbuf *r, uint32_t pid, uint64_t start, uint64_t len, const char *name,
		  uint64_t time)
{
	mmap2_bid(r, pid, start, len, name, time, NULL, 0);
}

static void comm(struct rbuf *r, uint32_t pid, const char *name, bool exec, uint64_t time)
{
	uint8_t *h = rec_begin(r, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);

	memcpy(h + 8, &pid, 4);
	memcpy(h + 12, &pid, 4);
	strcpy((char *)h + 16, name);
	rec_end(r, h + 16 + name_pad(name), pid, pid, time);
}

static void task(struct rbuf *r, uint32_t type, uint16_t misc, uint32_t pid, uint32_t ppid,
		 uint32_t tid, uint32_t ptid, uint64_t time)
{
	uint8_t *h = rec_begin(r, type, misc);

	memcpy(h + 8, &pid, 4);
	memcpy(h + 12, &ppid, 4);
	memcpy(h + 16, &tid, 4);
	memcpy(h + 20, &ptid, 4);
	memcpy(h + 24, &time, 8);
	rec_end(r, h + 32, pid, tid, time);
}

static void fork_(struct rbuf *r, uint32_t pid, uint32_t ppid, uint64_t time)
{
	task(r, PERF_RECORD_FORK, 0, pid, ppid, pid, ppid, time);
}

static void exit_(struct rbuf *r, uint32_t pid, uint32_t tid, uint64_t time)
{
	task(r, PERF_RECORD_EXIT, 0, pid, pid, tid, tid, time);
}

/* A sample: ip, {pid, tid}, time, period; no trailer. */
static void sample(struct rbuf *r, uint16_t cpumode, uint32_t pid, uint64_t ip)
{
	uint8_t *h = rec_begin(r, PERF_RECORD_SAMPLE, cpumode);
	uint64_t period = 1, time = 1000;

	memcpy(h + 8, &ip, 8);
	memcpy(h + 16, &pid, 4);
	memcpy(h + 20, &pid, 4);
	memcpy(h + 24, &time, 8);
	memcpy(h + 32, &period, 8);
	((struct perf_event_header *)h)->size = 40;
	r->n += 40;
}

/* ---- fixture: ELF files with known ids, a sysfs with notes ---- */

static char dir[] = "/tmp/prec-dso-track-XXXXXX";
static char sys_dir[256];

#define KBASE 0xffffffff81000000ULL
#define KLEN 0x1000000ULL
#define MBASE 0xffffffffc0400000ULL
#define MLEN 0x20000ULL

static void id_of(int n, uint8_t id[20])
{
	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(n * 16 + i);
}

static void write_file(const char *path, const void *b, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	close(fd);
}

static size_t note(uint8_t *b, int n)
{
	uint32_t hdr[3] = { 4, 20, 3 };

	memcpy(b, hdr, 12);
	memcpy(b + 12, "GNU", 4);
	id_of(n, b + 16);
	return 36;
}

/* An ELF64 file: header, one PT_NOTE, the note. */
static void write_elf(const char *name, int n)
{
	uint8_t b[256] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	uint64_t phoff = 64, noff = 120, nlen = 36, align = 4;
	uint16_t phentsize = 56, phnum = 1;
	uint32_t pt_note = 4;
	char path[512];

	memcpy(b + 32, &phoff, 8);
	memcpy(b + 54, &phentsize, 2);
	memcpy(b + 56, &phnum, 2);
	memcpy(b + 64, &pt_note, 4);
	memcpy(b + 64 + 8, &noff, 8);
	memcpy(b + 64 + 32, &nlen, 8);
	memcpy(b + 64 + 48, &align, 8);
	note(b + noff, n);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_file(path, b, noff + nlen);
}

static const char *P(const char *name)
{
	static char paths[8][512];
	static int k;
	char *p = paths[k++ % 8];

	snprintf(p, 512, "%s/%s", dir, name);
	return p;
}

static int setup(void **state)
{
	char path[512];
	uint8_t b[64];

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	for (int i = 1; i <= 6; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%c.so", 'a' + i - 1);
		write_elf(name, i);
	}
	snprintf(sys_dir, sizeof(sys_dir), "%s/sys", dir);
	mkdir(sys_dir, 0755);
	snprintf(path, sizeof(path), "%s/kernel", sys_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/kernel/notes", sys_dir);
	write_file(path, b, note(b, 10));
	snprintf(path, sizeof(path), "%s/module", sys_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module/ext4", sys_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module/ext4/notes", sys_dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module/ext4/notes/.note.gnu.build-id", sys_dir);
	write_file(path, b, note(b, 11));
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static struct dso_track *new_track(void)
{
	struct dso_track_layout l;
	struct dso_track *t;

	assert_int_equal(dso_track__layout(STYPE, true, &l), 0);
	assert_int_equal(dso_track__new(&t, &l), 0);
	assert_int_equal(dso_track__set_sys_dir(t, sys_dir), 0);
	return t;
}

static void feed(struct dso_track *t, const struct rbuf *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		size_t end = i + 1 < r->nr ? r->off[i + 1] : r->n;

		dso_track__event(t, r->b + r->off[i], end - r->off[i]);
	}
}

/* The names finish returns, space-separated, "~" standing for the dir. */
static char *listing(struct dso_track *t)
{
	static char out[4096];
	const struct writer_buildid *b;
	uint32_t nr;
	size_t dl = strlen(dir);

	assert_int_equal(dso_track__finish(t, &b, &nr), 0);
	out[0] = '\0';
	for (uint32_t i = 0; i < nr; i++) {
		const char *f = b[i].filename;

		if (i)
			strcat(out, " ");
		if (!strncmp(f, dir, dl) && f[dl] == '/') {
			strcat(out, "~");
			f += dl + 1;
		}
		if (strcmp(f, "[vdso]"))
			strcat(out, f);
		else if (i)
			out[strlen(out) - 1] = '\0'; /* listed when this machine has one */
	}
	return out;
}

static bool have_vdso(void)
{
	struct build_id bid;

	return buildid__read_vdso(&bid) == 0;
}

/* ---- tests ---- */

static void test_layout(void **state)
{
	struct dso_track_layout l;

	(void)state;
	assert_int_equal(dso_track__layout(STYPE, true, &l), 0);
	assert_int_equal(l.ip_off, 0);
	assert_int_equal(l.tid_off, 8);
	assert_int_equal(l.id_time_back, 8);
	assert_int_equal(dso_track__layout(STYPE | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CPU |
						   PERF_SAMPLE_ID,
					   true, &l),
			 0);
	assert_int_equal(l.ip_off, 8);
	assert_int_equal(l.tid_off, 16);
	assert_int_equal(l.id_time_back, 32);
	assert_int_equal(dso_track__layout(STYPE, false, &l), 0);
	assert_int_equal(l.id_time_back, 0);
	assert_int_equal(dso_track__layout(PERF_SAMPLE_TID, true, &l), 0);
	assert_int_equal(l.ip_off, -1);
	assert_int_equal(l.tid_off, 0);
	assert_int_equal(l.id_time_back, 0);
	assert_int_equal(dso_track__layout(0, true, NULL), -EINVAL);
}

static void test_basic_hits(void **state)
{
	struct dso_track *t = new_track();
	const struct writer_buildid *b;
	struct dso_track_stats st;
	struct build_id vdso;
	struct rbuf r = { 0 };
	uint8_t id[20];
	uint32_t nr;

	(void)state;
	mmap_k(&r, KBASE, KLEN, "[kernel.kallsyms]_text");
	mmap_k(&r, MBASE, MLEN, "[ext4]");
	mmap_k(&r, MBASE + MLEN, MLEN, "[xfs]"); /* no notes: never hit anyway */
	comm(&r, 100, "ls", true, 10);
	mmap2(&r, 100, 0x400000, 0x1000, P("a.so"), 11);
	mmap2(&r, 100, 0x500000, 0x1000, P("b.so"), 12);
	mmap2(&r, 100, 0x7fff0000, 0x2000, "[vdso]", 13);
	mmap2(&r, 100, 0x600000, 0x1000, "//anon", 14);
	mmap2(&r, 100, 0x700000, 0x1000, "[heap]", 15);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x400010);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x400ff0);
	sample(&r, PERF_RECORD_MISC_KERNEL, 100, KBASE + 0x1234);
	sample(&r, PERF_RECORD_MISC_KERNEL, 100, MBASE + 8);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x600010);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x700010);
	feed(t, &r);
	dso_track__end_pass(t);

	assert_int_equal(dso_track__finish(t, &b, &nr), 0);
	/* first-mapped order; b.so not hit; [vdso] listed unhit, as perf */
	assert_int_equal(nr, have_vdso() ? 4 : 3);
	assert_string_equal(b[0].filename, "[kernel.kallsyms]");
	assert_int_equal(b[0].pid, -1);
	assert_int_equal(b[0].misc, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(b[0].size, 20);
	id_of(10, id);
	assert_memory_equal(b[0].id, id, 20);
	assert_string_equal(b[1].filename, "[ext4]");
	assert_int_equal(b[1].misc, PERF_RECORD_MISC_KERNEL);
	id_of(11, id);
	assert_memory_equal(b[1].id, id, 20);
	assert_string_equal(b[2].filename, P("a.so"));
	assert_int_equal(b[2].pid, -1);
	assert_int_equal(b[2].misc, PERF_RECORD_MISC_USER);
	id_of(1, id);
	assert_memory_equal(b[2].id, id, 20);
	if (nr == 4) {
		assert_string_equal(b[3].filename, "[vdso]");
		assert_int_equal(b[3].misc, PERF_RECORD_MISC_USER);
		assert_int_equal(buildid__read_vdso(&vdso), 0);
		assert_memory_equal(b[3].id, vdso.data, 20);
	}
	dso_track__stats(t, &st);
	assert_int_equal(st.samples, 6);
	assert_int_equal(st.unresolved, 0);
	assert_int_equal(st.dsos, 8);
	assert_int_equal(st.hit, 5);
	dso_track__delete(t);
}

static void test_exec(void **state)
{
	struct dso_track *t = new_track();
	struct dso_track_stats st;
	struct rbuf r = { 0 };

	(void)state;
	/* the old image goes at exec: a sample in its old range hits nothing */
	mmap2(&r, 100, 0x400000, 0x1000, P("a.so"), 5);
	comm(&r, 100, "new", true, 50);
	mmap2(&r, 100, 0x500000, 0x1000, P("b.so"), 60);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x400010);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x500010);
	/* a plain COMM (prctl) changes nothing */
	mmap2(&r, 200, 0x400000, 0x1000, P("c.so"), 5);
	comm(&r, 200, "renamed", false, 50);
	sample(&r, PERF_RECORD_MISC_USER, 200, 0x400010);
	/* out of order: the new image's map came before the exec record */
	mmap2(&r, 300, 0x400000, 0x1000, P("d.so"), 5);
	mmap2(&r, 300, 0x900000, 0x1000, P("e.so"), 60);
	comm(&r, 300, "new", true, 50);
	sample(&r, PERF_RECORD_MISC_USER, 300, 0x900010);
	sample(&r, PERF_RECORD_MISC_USER, 300, 0x400010);
	/* perf's order: the kernel, then by the first mapping's time */
	feed(t, &r);
	assert_string_equal(listing(t), "~c.so ~b.so ~e.so");
	dso_track__stats(t, &st);
	assert_int_equal(st.unresolved, 2);
	dso_track__delete(t);
}

static void test_fork(void **state)
{
	struct dso_track *t = new_track();
	struct rbuf r = { 0 };

	(void)state;
	mmap2(&r, 100, 0x400000, 0x1000, P("a.so"), 5);
	/* a child copies its parent's maps ... */
	fork_(&r, 200, 100, 10);
	sample(&r, PERF_RECORD_MISC_USER, 200, 0x400010);
	/* ... but not what the parent mapped after the fork */
	mmap2(&r, 100, 0x500000, 0x1000, P("b.so"), 20);
	fork_(&r, 201, 100, 15);
	sample(&r, PERF_RECORD_MISC_USER, 201, 0x500010);
	/* a thread shares its process's maps */
	task(&r, PERF_RECORD_FORK, 0, 100, 100, 101, 100, 30);
	mmap2(&r, 100, 0x600000, 0x1000, P("c.so"), 31);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x600010);
	/* perf's synthesized FORK_EXEC copies nothing */
	task(&r, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, 300, 100, 300, 100, 0);
	sample(&r, PERF_RECORD_MISC_USER, 300, 0x400010);
	feed(t, &r);
	assert_string_equal(listing(t), "~a.so ~c.so");
	dso_track__delete(t);

	/* the child's own map came first (another ring): the copy goes under */
	t = new_track();
	memset(&r, 0, sizeof(r));
	mmap2(&r, 100, 0x400000, 0x2000, P("a.so"), 5);
	mmap2(&r, 100, 0x800000, 0x1000, P("b.so"), 6);
	mmap2(&r, 400, 0x400000, 0x1000, P("d.so"), 40);
	fork_(&r, 400, 100, 30);
	sample(&r, PERF_RECORD_MISC_USER, 400, 0x400010);
	sample(&r, PERF_RECORD_MISC_USER, 400, 0x800010);
	/* the child's exec came first: the late FORK copies nothing */
	mmap2(&r, 500, 0x900000, 0x1000, P("e.so"), 42);
	comm(&r, 500, "x", true, 41);
	fork_(&r, 500, 100, 30);
	sample(&r, PERF_RECORD_MISC_USER, 500, 0x400010);
	sample(&r, PERF_RECORD_MISC_USER, 500, 0x900010);
	feed(t, &r);
	assert_string_equal(listing(t), "~b.so ~d.so ~e.so");
	dso_track__delete(t);
}

static void test_out_of_order_samples(void **state)
{
	struct dso_track *t = new_track();
	struct dso_track_stats st;
	struct rbuf r = { 0 };

	(void)state;
	/* before its process and map are known: kept, found after the pass */
	sample(&r, PERF_RECORD_MISC_USER, 700, 0x400010);
	sample(&r, PERF_RECORD_MISC_USER, 700, 0x400020); /* same page: one kept */
	mmap2(&r, 700, 0x400000, 0x1000, P("a.so"), 5);
	feed(t, &r);
	dso_track__end_pass(t);
	/* found only at the end (no pass ended since) */
	memset(&r, 0, sizeof(r));
	sample(&r, PERF_RECORD_MISC_USER, 800, 0x500010);
	mmap2(&r, 800, 0x500000, 0x1000, P("b.so"), 5);
	/* in no map at all */
	sample(&r, PERF_RECORD_MISC_USER, 700, 0x123456);
	sample(&r, PERF_RECORD_MISC_KERNEL, 700, KBASE + 5); /* no kernel map yet: the kernel */
	feed(t, &r);
	assert_string_equal(listing(t), "[kernel.kallsyms] ~a.so ~b.so");
	dso_track__stats(t, &st);
	assert_int_equal(st.samples, 5);
	assert_int_equal(st.unresolved, 1);
	dso_track__delete(t);
}

static void test_exit(void **state)
{
	struct dso_track *t = new_track();
	struct rbuf r = { 0 };

	(void)state;
	mmap2(&r, 100, 0x400000, 0x1000, P("a.so"), 5);
	exit_(&r, 100, 101, 8); /* a thread's exit: the process lives on */
	exit_(&r, 100, 100, 9);
	feed(t, &r);
	/* a sample from another ring, drained after the EXIT, still resolves */
	memset(&r, 0, sizeof(r));
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x400010);
	feed(t, &r);
	dso_track__end_pass(t);
	/* one pass later still there (a sample of the next pass may be late) */
	memset(&r, 0, sizeof(r));
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x400020);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x401000); /* pending */
	feed(t, &r);
	dso_track__end_pass(t);
	/* then gone, and so is its pending sample: pid 100 is reused by a
	 * process that maps b.so where that sample was */
	memset(&r, 0, sizeof(r));
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x400030);
	fork_(&r, 100, 1, 50);
	mmap2(&r, 100, 0x401000, 0x1000, P("b.so"), 55);
	feed(t, &r);
	dso_track__end_pass(t);
	assert_string_equal(listing(t), "~a.so");
	dso_track__delete(t);

	/* pid reuse before the old one was dropped: its maps do not leak */
	t = new_track();
	memset(&r, 0, sizeof(r));
	mmap2(&r, 100, 0x400000, 0x1000, P("a.so"), 5);
	exit_(&r, 100, 100, 9);
	fork_(&r, 100, 1, 50);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x400010);
	feed(t, &r);
	dso_track__end_pass(t);
	dso_track__end_pass(t);
	assert_string_equal(listing(t), "");
	dso_track__delete(t);
}

static void test_cpumodes(void **state)
{
	struct dso_track *t = new_track();
	struct dso_track_stats st;
	struct rbuf r = { 0 };

	(void)state;
	mmap_k(&r, KBASE, KLEN, "[kernel.kallsyms]_text");
	mmap_k(&r, MBASE, MLEN, "[ext4]");
	mmap2(&r, 100, 0x400000, 0x1000, P("a.so"), 5);
	/* perf's machine__addr_cpumode: the other space is tried by address */
	sample(&r, PERF_RECORD_MISC_USER, 100, MBASE + 16);
	sample(&r, PERF_RECORD_MISC_KERNEL, 100, 0x400010);
	/* guests and the hypervisor are not followed */
	sample(&r, PERF_RECORD_MISC_GUEST_KERNEL, 100, KBASE + 16);
	sample(&r, PERF_RECORD_MISC_HYPERVISOR, 100, KBASE + 16);
	/* a kernel address in no kernel map (BPF): no hit, not kept */
	sample(&r, PERF_RECORD_MISC_KERNEL, 100, 0xffffffffa0000000ULL);
	feed(t, &r);
	assert_string_equal(listing(t), "[ext4] ~a.so");
	dso_track__stats(t, &st);
	assert_int_equal(st.unresolved, 1);
	dso_track__delete(t);
}

static void test_mmap2_build_id(void **state)
{
	struct dso_track *t = new_track();
	const struct writer_buildid *b;
	struct rbuf r = { 0 };
	uint8_t id[20];
	uint32_t nr;

	(void)state;
	id_of(7, id);
	/* the kernel gave the id: the file need not exist */
	mmap2_bid(&r, 100, 0x400000, 0x1000, "/no/such/file.so", 5, id, 16);
	mmap2(&r, 100, 0x500000, 0x1000, "/no/such/other.so", 5);
	mmap2(&r, 100, 0x600000, 0x1000, "/usr/lib/x.so (deleted)", 5);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x400010);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x500010);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x600010);
	feed(t, &r);
	assert_int_equal(dso_track__finish(t, &b, &nr), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(b[0].filename, "/no/such/file.so");
	assert_int_equal(b[0].size, 16);
	assert_memory_equal(b[0].id, id, 16);
	assert_int_equal(b[0].id[16], 0);
	dso_track__delete(t);
}

/* More processes and DSOs than the tables' first 256 buckets: they double
 * (twice), and every process still finds its maps, every DSO its name. */
static void test_many(void **state)
{
	static struct rbuf r;
	struct dso_track *t = new_track();
	struct dso_track_stats st;
	char name[64];

	(void)state;
	for (uint32_t pid = 1000; pid < 1600; pid++) {
		memset(&r, 0, sizeof(r));
		comm(&r, pid, "w", true, 10);
		mmap2(&r, pid, 0x400000, 0x1000, P("a.so"), 11);
		snprintf(name, sizeof(name), "/nonexistent/lib%u.so", pid);
		mmap2(&r, pid, 0x500000, 0x1000, name, 12);
		feed(t, &r);
	}
	for (uint32_t pid = 1000; pid < 1600; pid++) {
		memset(&r, 0, sizeof(r));
		sample(&r, PERF_RECORD_MISC_USER, pid, 0x400010);
		sample(&r, PERF_RECORD_MISC_USER, pid, 0x500010);
		feed(t, &r);
	}
	dso_track__end_pass(t);
	dso_track__stats(t, &st);
	assert_int_equal(st.samples, 1200);
	assert_int_equal(st.unresolved, 0);
	assert_int_equal(st.dsos, 601);
	assert_int_equal(st.hit, 601);
	dso_track__delete(t);
}

static void test_pending_bound(void **state)
{
	struct dso_track *t = new_track();
	struct dso_track_stats st;

	(void)state;
	for (uint64_t i = 0; i < 10000; i++)
		dso_track__sample(t, PERF_RECORD_MISC_USER, 900, 0x10000000 + i * 4096);
	for (uint64_t i = 0; i < 100; i++)
		dso_track__sample(t, PERF_RECORD_MISC_USER, 900, 0x10000000 + i);
	dso_track__stats(t, &st);
	assert_int_equal(st.samples, 10100);
	assert_int_equal(st.pending_full, 10000 - DSO_TRACK_PENDING_MAX);
	/* the kept ones still resolve */
	dso_track__event(t, NULL, 0);
	{
		struct rbuf r = { 0 };

		mmap2(&r, 900, 0x10000000, 0x1000, P("a.so"), 5);
		feed(t, &r);
	}
	dso_track__end_pass(t);
	assert_string_equal(listing(t), "~a.so");
	dso_track__stats(t, &st);
	assert_true(st.unresolved > 0 && st.unresolved < DSO_TRACK_PENDING_MAX);
	dso_track__delete(t);
}

/* The whole story once, for the stream and ring tests. */
static void story(struct rbuf *r)
{
	mmap_k(r, KBASE, KLEN, "[kernel.kallsyms]_text");
	mmap_k(r, MBASE, MLEN, "[ext4]");
	comm(r, 100, "ls", true, 10);
	mmap2(r, 100, 0x400000, 0x1000, P("a.so"), 11);
	mmap2(r, 100, 0x500000, 0x1000, P("b.so"), 12);
	fork_(r, 200, 100, 20);
	mmap2(r, 200, 0x600000, 0x1000, P("c.so"), 21);
	sample(r, PERF_RECORD_MISC_USER, 200, 0x500010);
	sample(r, PERF_RECORD_MISC_USER, 200, 0x600010);
	sample(r, PERF_RECORD_MISC_KERNEL, 100, MBASE + 1);
	exit_(r, 200, 200, 30);
}

#define STORY "[ext4] ~b.so ~c.so"

static void test_stream_split(void **state)
{
	struct rbuf *r = calloc(1, sizeof(*r));

	(void)state;
	assert_non_null(r);
	story(r);
	for (size_t chunk = 1; chunk <= r->n; chunk += chunk < 64 ? 1 : 37) {
		struct dso_track *t = new_track();

		for (size_t off = 0; off < r->n; off += chunk)
			dso_track__stream(t, r->b + off, off + chunk <= r->n ? chunk : r->n - off);
		assert_string_equal(listing(t), STORY);
		dso_track__delete(t);
	}
	free(r);
}

static void test_writer_observer(void **state)
{
	struct rbuf *r = calloc(1, sizeof(*r));
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.size = sizeof(attr),
					.sample_type = STYPE,
					.sample_id_all = 1 };
	uint64_t ids[1] = { 1 };
	struct writer_event ev = { &attr, "cpu-clock", ids, 1 };
	struct dso_track *t = new_track();
	struct writer *w;
	struct iovec iov;
	char path[600];
	size_t half;

	(void)state;
	assert_non_null(r);
	story(r);
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	assert_int_equal(writer__open(&w, path), 0);
	assert_int_equal(writer__begin(w, &ev, 1), 0);
	/* the synthesized records' way out: the writer, then the tracker */
	struct synth_out out = { .writer = w, .tap = dso_track__stream, .tap_arg = t };
	/* cut mid-record, as synth__id_index_entries writes a header then its entries */
	half = r->off[3] + 5;
	assert_int_equal(synth_out__write(&out, r->b, half), 0);
	assert_int_equal(synth_out__write(&out, r->b + half, r->off[7] - half), 0);
	/* the drain's writev is not observed */
	iov.iov_base = r->b + r->off[7];
	iov.iov_len = r->off[8] - r->off[7];
	assert_int_equal(writer__writev(w, &iov, 1), 0);
	assert_int_equal(synth_out__write(&out, r->b + r->off[8], r->n - r->off[8]), 0);
	assert_int_equal(writer__finish(w, NULL), 0);
	unlink(path);
	/* b.so's sample went by writev: only c.so and the module are hit */
	assert_string_equal(listing(t), "[ext4] ~c.so");
	dso_track__delete(t);
	free(r);
}

/* Records in a ring whose end falls inside them. */
static void test_ring_wrap(void **state)
{
	enum { SIZE = 4096 };
	struct rbuf *r = calloc(1, sizeof(*r));
	struct perf_event_mmap_page *ctl = calloc(1, sizeof(*ctl));
	uint8_t *data = calloc(1, SIZE);

	(void)state;
	assert_non_null(r);
	assert_non_null(ctl);
	assert_non_null(data);
	story(r);
	assert_true(r->n < SIZE);
	/* start so that the fourth record (a.so's MMAP2) straddles the end */
	for (uint64_t base = SIZE - r->off[3] - 40; base < SIZE - r->off[3] + 40; base += 8) {
		struct dso_track *t = new_track();
		struct ring ring;
		uint64_t start = SIZE * 3 + base, pos;
		const struct perf_event_header *h;

		ring__init_mem(&ring, ctl, data, SIZE);
		for (size_t i = 0; i < r->n; i++)
			data[(start + i) & (SIZE - 1)] = r->b[i];
		ctl->data_tail = start;
		ctl->data_head = start + r->n;
		assert_int_equal(ring__read_init(&ring), r->n);
		pos = ring.start;
		for (;;) {
			uint64_t at = pos;

			h = ring__read_event(&ring, &pos);
			if (!h)
				break;
			dso_track__ring_record(t, &ring, at, h);
		}
		assert_int_equal(pos, start + r->n);
		assert_string_equal(listing(t), STORY);
		dso_track__delete(t);
	}
	free(r);
	free(ctl);
	free(data);
}

static void test_hostile_records(void **state)
{
	struct dso_track *t = new_track();
	struct rbuf r = { 0 };
	uint8_t junk[256];
	struct perf_event_header *h = (void *)junk;

	(void)state;
	mmap2(&r, 100, 0x400000, 0x1000, P("a.so"), 5);
	/* cut: the last byte of the record is missing */
	dso_track__event(t, r.b, r.n - 1);
	/* a filename without its NUL */
	memset(r.b + 72, 'x', r.n - 72);
	dso_track__event(t, r.b, r.n);
	/* header sizes that lie, records too short for their type */
	memset(junk, 0x7f, sizeof(junk)); /* user addresses, pid 0x7f7f7f7f */
	for (uint32_t type = 1; type <= 12; type++) {
		for (uint16_t size = 0; size <= 80; size += 4) {
			h->type = type;
			h->misc = PERF_RECORD_MISC_USER;
			h->size = size;
			dso_track__event(t, junk, sizeof(junk));
			dso_track__event(t, junk, size);
		}
	}
	dso_track__event(t, junk, 4);
	dso_track__event(NULL, junk, sizeof(junk));
	/* a stream that breaks its framing stops being followed */
	h->size = 0;
	dso_track__stream(t, junk, 16);
	memset(&r, 0, sizeof(r));
	mmap2(&r, 100, 0x400000, 0x1000, P("a.so"), 5);
	sample(&r, PERF_RECORD_MISC_USER, 100, 0x400010);
	dso_track__stream(t, r.b, r.n);
	assert_string_equal(listing(t), "");
	dso_track__delete(t);
	dso_track__delete(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maps),	       cmocka_unit_test(test_layout),
		cmocka_unit_test(test_basic_hits),     cmocka_unit_test(test_exec),
		cmocka_unit_test(test_fork),	       cmocka_unit_test(test_out_of_order_samples),
		cmocka_unit_test(test_exit),	       cmocka_unit_test(test_cpumodes),
		cmocka_unit_test(test_mmap2_build_id), cmocka_unit_test(test_pending_bound),
		cmocka_unit_test(test_stream_split),   cmocka_unit_test(test_writer_observer),
		cmocka_unit_test(test_ring_wrap),      cmocka_unit_test(test_hostile_records),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
