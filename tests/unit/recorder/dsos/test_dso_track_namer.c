// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build-id tracker's namer (dso_track.h, struct dso_track_namer): an
 * anonymous executable mapping is named by anon_name (its JIT ELF, which
 * samples then hit and finish lists), other anonymous memory is not; a new
 * file DSO's build-id comes from file_bid (called once, with the record's
 * device and inode) rather than from its path; finish asks source for where
 * a FILE DSO's bytes are; an MMAP2 carrying a build-id, or -B, asks nothing.
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
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "prec/buildid.h"
#include "prec/writer.h"
#include "recorder/dsos/dso_track.h"

#define STYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static char dir[] = "/tmp/prec-dso-namer-XXXXXX";
static char jit[600], lib[600]; /* an ELF of id 1; an ELF of id 2 */

static void id_of(int n, uint8_t id[20])
{
	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(n * 16 + i);
}

/* An ELF64 file: header, one PT_NOTE, a GNU build-id note of id n. */
static void write_elf(const char *path, int n)
{
	uint8_t b[256] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	uint64_t phoff = 64, noff = 120, nlen = 36, align = 4;
	uint16_t phentsize = 56, phnum = 1;
	uint32_t pt_note = 4, hdr[3] = { 4, 20, 3 };
	int fd;

	memcpy(b + 32, &phoff, 8);
	memcpy(b + 54, &phentsize, 2);
	memcpy(b + 56, &phnum, 2);
	memcpy(b + 64, &pt_note, 4);
	memcpy(b + 64 + 8, &noff, 8);
	memcpy(b + 64 + 32, &nlen, 8);
	memcpy(b + 64 + 48, &align, 8);
	memcpy(b + noff, hdr, 12);
	memcpy(b + noff + 12, "GNU", 4);
	id_of(n, b + noff + 16);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, noff + nlen), (ssize_t)(noff + nlen));
	close(fd);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(jit, sizeof(jit), "%s/jitted-100.so", dir);
	snprintf(lib, sizeof(lib), "%s/lib.so", dir);
	write_elf(jit, 1);
	write_elf(lib, 2);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(jit);
	unlink(lib);
	return rmdir(dir);
}

/* An MMAP2 of pid with the kernel's sample_id {pid, tid}, time; bid: the
 * build-id form, else maj 8, min 1, inode ino. */
static size_t mmap2(uint8_t *b, uint32_t pid, uint64_t start, const char *name, uint32_t prot,
		    uint64_t ino, const uint8_t *bid)
{
	struct perf_event_header *h = (void *)b;
	size_t nlen = (strlen(name) + 8) & ~(size_t)7;
	uint32_t maj = 8, min = 1, flags = MAP_PRIVATE;
	uint64_t len = 0x10000, time = 10;

	memset(b, 0, 512);
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER | (bid ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0);
	memcpy(b + 8, &pid, 4);
	memcpy(b + 12, &pid, 4);
	memcpy(b + 16, &start, 8);
	memcpy(b + 24, &len, 8);
	if (bid) {
		b[40] = 20;
		memcpy(b + 44, bid, 20);
	} else {
		memcpy(b + 40, &maj, 4);
		memcpy(b + 44, &min, 4);
		memcpy(b + 48, &ino, 8);
	}
	memcpy(b + 64, &prot, 4);
	memcpy(b + 68, &flags, 4);
	strcpy((char *)b + 72, name);
	memcpy(b + 72 + nlen, &pid, 4);
	memcpy(b + 76 + nlen, &pid, 4);
	memcpy(b + 80 + nlen, &time, 8);
	h->size = (uint16_t)(88 + nlen);
	return h->size;
}

static void sample(struct dso_track *t, uint32_t pid, uint64_t ip)
{
	uint8_t b[40] = { 0 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 40 };
	uint64_t time = 1000, period = 1;

	memcpy(b, &h, 8);
	memcpy(b + 8, &ip, 8);
	memcpy(b + 16, &pid, 4);
	memcpy(b + 20, &pid, 4);
	memcpy(b + 24, &time, 8);
	memcpy(b + 32, &period, 8);
	dso_track__event(t, b, sizeof(b));
}

struct namer_probe {
	int anon_calls, bid_calls, source_calls, late_calls;
	int late_err; /* what late_bid answers */
	uint64_t anon_time;
	uint32_t anon_pid;
	struct dso_track_mapping last;
	char last_name[600];
};

static const char *anon_name(void *arg, uint32_t pid, uint64_t time)
{
	struct namer_probe *p = arg;

	p->anon_time = time;
	p->anon_calls++;
	p->anon_pid = pid;
	return pid == 100 ? jit : NULL;
}

/* The mapped file's id: 3, whatever the path holds now. */
static int file_bid(void *arg, const struct dso_track_mapping *m, struct build_id *bid)
{
	struct namer_probe *p = arg;

	p->bid_calls++;
	p->last = *m;
	snprintf(p->last_name, sizeof(p->last_name), "%s", m->name);
	p->last.name = p->last_name;
	memset(bid, 0, sizeof(*bid));
	bid->size = 20;
	id_of(3, bid->data);
	return 0;
}

static const char *source(void *arg, const struct build_id *bid)
{
	struct namer_probe *p = arg;
	uint8_t id3[20];

	p->source_calls++;
	id_of(3, id3);
	return bid->size == 20 && !memcmp(bid->data, id3, 20) ? "/proc/self/fd/7" : NULL;
}

static struct dso_track *new_track(struct namer_probe *p)
{
	struct dso_track_namer n = {
		.anon_name = anon_name, .file_bid = file_bid, .source = source, .arg = p
	};
	struct dso_track_layout l;
	struct dso_track *t;

	memset(p, 0, sizeof(*p));
	assert_int_equal(dso_track__layout(STYPE, true, &l), 0);
	assert_int_equal(dso_track__new(&t, &l), 0);
	dso_track__set_namer(t, &n);
	return t;
}

static const struct writer_buildid *find(const struct writer_buildid *v, uint32_t nr,
					 const char *name)
{
	for (uint32_t i = 0; i < nr; i++)
		if (!strcmp(v[i].filename, name))
			return &v[i];
	return NULL;
}

static void test_anon_named(void **state)
{
	struct namer_probe p;
	struct dso_track *t = new_track(&p);
	const struct writer_buildid *v, *w;
	uint8_t b[512], id1[20];
	uint32_t nr;

	(void)state;
	dso_track__event(
		t, b, mmap2(b, 100, 0x7f0000000000ULL, "//anon", PROT_READ | PROT_EXEC, 0, NULL));
	assert_int_equal(p.anon_calls, 1);
	assert_int_equal(p.anon_pid, 100);
	assert_int_equal(p.anon_time, 10); /* the record's sample_id time */
	/* Not executable: not asked, not renamed. */
	dso_track__event(
		t, b, mmap2(b, 100, 0x7f1000000000ULL, "//anon", PROT_READ | PROT_WRITE, 0, NULL));
	assert_int_equal(p.anon_calls, 1);
	/* Another process's JIT code without an ELF stays anonymous. */
	dso_track__event(t, b, mmap2(b, 200, 0x7f2000000000ULL, "//anon", PROT_EXEC, 0, NULL));
	assert_int_equal(p.anon_calls, 2);
	assert_int_equal(p.bid_calls, 0); /* no file DSO */
	sample(t, 100, 0x7f0000000100ULL);
	sample(t, 100, 0x7f1000000100ULL);
	sample(t, 200, 0x7f2000000100ULL);
	assert_int_equal(dso_track__finish(t, &v, &nr), 0);
	w = find(v, nr, jit);
	assert_non_null(w);
	id_of(1, id1);
	assert_int_equal(w->size, 20);
	assert_memory_equal(w->id, id1, 20);
	assert_null(find(v, nr, "//anon"));
	dso_track__delete(t);
}

static void test_file_bid(void **state)
{
	struct namer_probe p;
	struct dso_track *t = new_track(&p);
	const struct writer_buildid *v, *w;
	uint8_t b[512], id[20];
	uint32_t nr;

	(void)state;
	/* lib.so holds id 2 now; the mapped file had id 3. */
	dso_track__event(t, b, mmap2(b, 100, 0x400000, lib, PROT_READ | PROT_EXEC, 4242, NULL));
	assert_int_equal(p.bid_calls, 1);
	assert_int_equal(p.last.pid, 100);
	assert_true(p.last.has_ino);
	assert_int_equal(p.last.maj, 8);
	assert_int_equal(p.last.min, 1);
	assert_int_equal(p.last.ino, 4242);
	assert_true(p.last.exec);
	assert_string_equal(p.last.name, lib);
	/* The same DSO again, in another process: not asked again. */
	dso_track__event(t, b, mmap2(b, 101, 0x400000, lib, PROT_READ | PROT_EXEC, 4242, NULL));
	assert_int_equal(p.bid_calls, 1);
	sample(t, 100, 0x400100);
	assert_int_equal(dso_track__finish(t, &v, &nr), 0);
	w = find(v, nr, lib);
	assert_non_null(w);
	id_of(3, id);
	assert_memory_equal(w->id, id, 20);
	assert_string_equal(w->source, "/proc/self/fd/7");
	assert_true(p.source_calls >= 1);
	dso_track__delete(t);
}

/* A build-id in the record: the kernel's word, nothing asked; source is
 * still asked at finish (NULL for an id it does not hold). */
static void test_record_bid(void **state)
{
	struct namer_probe p;
	struct dso_track *t = new_track(&p);
	const struct writer_buildid *v, *w;
	uint8_t b[512], id[20];
	uint32_t nr;

	(void)state;
	id_of(5, id);
	dso_track__event(t, b, mmap2(b, 100, 0x400000, lib, PROT_READ | PROT_EXEC, 0, id));
	assert_int_equal(p.bid_calls, 0);
	sample(t, 100, 0x400100);
	assert_int_equal(dso_track__finish(t, &v, &nr), 0);
	w = find(v, nr, lib);
	assert_non_null(w);
	assert_memory_equal(w->id, id, 20);
	assert_null(w->source);
	dso_track__delete(t);
}

/* The reader answers after the mapping was seen: file_bid says -EAGAIN. */
static int file_bid_later(void *arg, const struct dso_track_mapping *m, struct build_id *bid)
{
	struct namer_probe *p = arg;

	(void)m;
	(void)bid;
	p->bid_calls++;
	return -EAGAIN;
}

static int late_bid(void *arg, const char *name, struct build_id *bid)
{
	struct namer_probe *p = arg;

	p->late_calls++;
	snprintf(p->last_name, sizeof(p->last_name), "%s", name);
	if (p->late_err)
		return p->late_err;
	memset(bid, 0, sizeof(*bid));
	bid->size = 20;
	id_of(3, bid->data);
	return 0;
}

static struct dso_track *new_late_track(struct namer_probe *p, int late_err)
{
	struct dso_track_namer n = {
		.file_bid = file_bid_later, .late_bid = late_bid, .source = source, .arg = p
	};
	struct dso_track_layout l;
	struct dso_track *t;

	memset(p, 0, sizeof(*p));
	p->late_err = late_err;
	assert_int_equal(dso_track__layout(STYPE, true, &l), 0);
	assert_int_equal(dso_track__new(&t, &l), 0);
	dso_track__set_namer(t, &n);
	return t;
}

/* An id the reader gave by the end wins over the path's (lib.so holds id
 * 2 now); a file that stalled the reader is not read by its path at all;
 * one the reader could not read is. */
static void test_late_bid(void **state)
{
	const int errs[] = { 0, -ETIMEDOUT, -ENOENT };
	const struct writer_buildid *v, *w;
	uint8_t b[512], id[20];
	struct namer_probe p;
	uint32_t nr;

	(void)state;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		struct dso_track *t = new_late_track(&p, errs[i]);

		dso_track__event(t, b,
				 mmap2(b, 100, 0x400000, lib, PROT_READ | PROT_EXEC, 4242, NULL));
		assert_int_equal(p.bid_calls, 1);
		sample(t, 100, 0x400100);
		assert_int_equal(dso_track__finish(t, &v, &nr), 0);
		assert_int_equal(p.late_calls, 1);
		assert_string_equal(p.last_name, lib);
		w = find(v, nr, lib);
		if (errs[i] == -ETIMEDOUT) {
			assert_null(w);
		} else {
			assert_non_null(w);
			id_of(errs[i] ? 2 : 3, id);
			assert_memory_equal(w->id, id, 20);
		}
		dso_track__delete(t);
	}
}

/* -B: no build-ids listed, none read. */
static void test_buildids_none(void **state)
{
	struct namer_probe p;
	struct dso_track *t = new_track(&p);
	const struct writer_buildid *v;
	uint8_t b[512];
	uint32_t nr;

	(void)state;
	dso_track__set_buildids(t, DSO_TRACK_BUILDIDS_NONE);
	dso_track__event(t, b, mmap2(b, 100, 0x400000, lib, PROT_READ | PROT_EXEC, 4242, NULL));
	assert_int_equal(p.bid_calls, 0);
	sample(t, 100, 0x400100);
	assert_int_equal(dso_track__finish(t, &v, &nr), 0);
	assert_int_equal(nr, 0);
	dso_track__delete(t);
}

static void test_is_anon_name(void **state)
{
	(void)state;
	assert_true(dso_track__is_anon_name("//anon"));
	assert_true(dso_track__is_anon_name("/dev/zero (deleted)"));
	assert_true(dso_track__is_anon_name("/anon_hugepage (deleted)"));
	assert_true(dso_track__is_anon_name("[stack]"));
	assert_true(dso_track__is_anon_name("[heap]"));
	assert_true(dso_track__is_anon_name("/SYSV00000000 (deleted)"));
	assert_false(dso_track__is_anon_name("//anonx"));
	assert_false(dso_track__is_anon_name("/usr/lib/libc.so.6"));
	assert_false(dso_track__is_anon_name("[vdso]"));
	assert_false(dso_track__is_anon_name(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_anon_named),   cmocka_unit_test(test_file_bid),
		cmocka_unit_test(test_record_bid),   cmocka_unit_test(test_buildids_none),
		cmocka_unit_test(test_is_anon_name), cmocka_unit_test(test_late_bid),
	};

	return cmocka_run_group_tests_name("dso_track_namer", tests, setup, teardown);
}
