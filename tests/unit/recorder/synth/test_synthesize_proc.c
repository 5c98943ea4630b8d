// SPDX-License-Identifier: GPL-2.0-only
/*
 * The side-band of existing tasks, read from the fixture /proc tree in
 * tests/fixtures/proc/basic (three processes, a kernel thread, a process of
 * three threads with a deleted library, names with spaces, a hugetlbfs map,
 * a vanished pid, a leader gone before its thread) and the cgroup tree in
 * tests/fixtures/proc/cgroup. Every record is compared byte for byte with
 * one built here from perf's layout; then the records go into a perf.data
 * that stock perf must parse (perf report -D).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/event.h"
#include "prec/writer.h"
#include "recorder/synth/synthesize.h"
#include "prec/bpf.h"
#include "tests/unit/fixture_path.h"

#define PERF_BIN "/usr/bin/perf"
#define R PROT_READ
#define W PROT_WRITE
#define X PROT_EXEC
#define P MAP_PRIVATE
#define S MAP_SHARED

static char proc_dir[512], cgroup_dir[512];

/* ---- byte buffers and hand-built records ---- */

struct bytes {
	uint8_t *b;
	size_t n, cap;
};

static uint8_t *grow(struct bytes *e, size_t n)
{
	if (e->n + n > e->cap) {
		e->cap = (e->n + n) * 2 + 256;
		e->b = realloc(e->b, e->cap);
		assert_non_null(e->b);
	}
	memset(e->b + e->n, 0, n);
	e->n += n;
	return e->b + e->n - n;
}

static void put(uint8_t *p, size_t off, const void *v, size_t n)
{
	memcpy(p + off, v, n);
}

#define PUT(p, off, type, v)                  \
	do {                                  \
		type v_ = (type)(v);          \
		put(p, off, &v_, sizeof(v_)); \
	} while (0)

static size_t pad8(size_t n)
{
	return (n + 7) / 8 * 8;
}

static uint8_t *header(struct bytes *e, uint32_t type, uint16_t misc, size_t size)
{
	uint8_t *p = grow(e, size);

	PUT(p, 0, uint32_t, type);
	PUT(p, 4, uint16_t, misc);
	PUT(p, 6, uint16_t, size);
	return p;
}

static void x_fork(struct bytes *e, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid,
		   size_t idh)
{
	uint8_t *p = header(e, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, 32 + idh);

	PUT(p, 8, uint32_t, pid);
	PUT(p, 12, uint32_t, ppid);
	PUT(p, 16, uint32_t, tid);
	PUT(p, 20, uint32_t, ptid);
}

static void x_comm(struct bytes *e, uint32_t pid, uint32_t tid, const char *comm, size_t idh)
{
	size_t len = strlen(comm) > 15 ? 15 : strlen(comm);
	uint8_t *p = header(e, PERF_RECORD_COMM, 0, 16 + pad8(len + 1) + idh);

	PUT(p, 8, uint32_t, pid);
	PUT(p, 12, uint32_t, tid);
	put(p, 16, comm, len);
}

/* Namespaces as perf reads them: stat of each link, zeros when it fails. */
static void x_ns(struct bytes *e, uint32_t pid, uint32_t tid, const char *dir, size_t idh)
{
	static const char *const names[7] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	uint8_t *p = header(e, PERF_RECORD_NAMESPACES, 0, 24 + 7 * 16 + idh);

	PUT(p, 8, uint32_t, pid);
	PUT(p, 12, uint32_t, tid);
	PUT(p, 16, uint64_t, 7);
	for (int i = 0; i < 7; i++) {
		char path[1024];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s/%s", proc_dir, dir, names[i]);
		if (stat(path, &st))
			continue;
		PUT(p, 24 + 16 * i, uint64_t, st.st_dev);
		PUT(p, 32 + 16 * i, uint64_t, st.st_ino);
	}
}

static void x_mmap2(struct bytes *e, uint16_t misc, uint32_t pid, uint32_t tid, uint64_t start,
		    uint64_t len, uint64_t pgoff, uint32_t maj, uint32_t min, uint64_t ino,
		    uint32_t prot, uint32_t flags, const char *name, size_t idh)
{
	uint8_t *p = header(e, PERF_RECORD_MMAP2, misc, 72 + pad8(strlen(name) + 1) + idh);

	PUT(p, 8, uint32_t, pid);
	PUT(p, 12, uint32_t, tid);
	PUT(p, 16, uint64_t, start);
	PUT(p, 24, uint64_t, len);
	PUT(p, 32, uint64_t, pgoff);
	PUT(p, 40, uint32_t, maj);
	PUT(p, 44, uint32_t, min);
	PUT(p, 48, uint64_t, ino);
	/* ino_generation 0 at 56 */
	PUT(p, 64, uint32_t, prot);
	PUT(p, 68, uint32_t, flags);
	put(p, 72, name, strlen(name));
}

static void x_cgroup(struct bytes *e, uint64_t id, const char *path, size_t idh)
{
	uint8_t *p = header(e, PERF_RECORD_CGROUP, 0, 16 + pad8(strlen(path) + 1) + idh);

	PUT(p, 8, uint64_t, id);
	put(p, 16, path, strlen(path));
}

static void x_ksymbol(struct bytes *e, uint64_t addr, uint32_t len, const char *name, size_t idh)
{
	uint8_t *p = header(e, PERF_RECORD_KSYMBOL, 0, 24 + pad8(strlen(name) + 1) + idh);

	PUT(p, 8, uint64_t, addr);
	PUT(p, 16, uint32_t, len);
	PUT(p, 20, uint16_t, PERF_RECORD_KSYMBOL_TYPE_BPF);
	put(p, 24, name, strlen(name));
}

/* ---- what the fixture's processes hold ---- */

struct xmap {
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min, prot, flags;
	const char *name; /* NULL: anonymous */
};

static const struct xmap maps_1[] = {
	{ 0x55d0c0a00000, 0x55d0c0a20000, 0, 1311, 0xfd, 1, R, P, "/usr/lib/systemd/systemd" },
	{ 0x55d0c0a20000, 0x55d0c0ab0000, 0x20000, 1311, 0xfd, 1, R | X, P,
	  "/usr/lib/systemd/systemd" },
	{ 0x7ffc1a3f0000, 0x7ffc1a411000, 0, 0, 0, 0, R | W, P, "[stack]" },
	{ 0x7ffc1a5f9000, 0x7ffc1a5fb000, 0, 0, 0, 0, R | X, P, "[vdso]" },
};

static const struct xmap maps_1000[] = {
	{ 0x400000, 0x401000, 0, 131, 8, 2, R, P, "/opt/My App/bin/my prog" },
	{ 0x401000, 0x402000, 0x1000, 131, 8, 2, R | X, P, "/opt/My App/bin/my prog" },
	{ 0x402000, 0x403000, 0x2000, 131, 8, 2, R | W, P, "/opt/My App/bin/my prog" },
	{ 0x1e4f000, 0x1e70000, 0, 0, 0, 0, R | W, P, "[heap]" },
	{ 0x7f0000000000, 0x7f0000001000, 0, 18446744073709551615ULL, 0, 0x2a, R | X, P,
	  "/tmp/libgone.so (deleted)" },
	{ 0x7f0000001000, 0x7f0000002000, 0, 3, 0, 5, R | W, S, "/dev/shm/ring buf" },
	{ 0x7f0000002000, 0x7f0000003000, 0, 77, 0, 0xf, R | W, S, "/dev/hugepages/big" },
	{ 0x7f0000003000, 0x7f0000004000, 0, 0, 0, 0, 0, P, NULL },
	{ 0x7f0000004000, 0x7f0000005000, 0, 0, 0, 0, R | W, P, NULL },
	/* the garbage line falls between these two */
	{ 0x7f0000005000, 0x7f0000006000, 0, 99, 0x103, 5, R | X, P,
	  "/usr/lib/x86_64-linux-gnu/libc.so.6" },
	{ 0x7ffd00000000, 0x7ffd00021000, 0, 0, 0, 0, R | W, P, "[stack]" },
	{ 0x7ffd000fe000, 0x7ffd00100000, 0, 0, 0, 0, R | X, P, "[vdso]" },
	{ 0xffffffffff600000, 0xffffffffff601000, 0, 0, 0, 0, X, P, "[vsyscall]" },
};

/* perf's MMAP2s for one maps file under opts. */
static void x_maps(struct bytes *e, const struct xmap *m, size_t nr, uint32_t pid,
		   const struct synth_opts *o)
{
	for (size_t i = 0; i < nr; i++) {
		uint16_t misc = PERF_RECORD_MISC_USER;
		uint32_t flags = m[i].flags;
		const char *name = m[i].name ? m[i].name : "//anon";

		if (o->proc_map_timeout_ns == 1) {
			/* the first line is past the deadline: written as it is, then
			 * nothing more */
			misc |= PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT;
		} else if (!(m[i].prot & X)) {
			if (!o->data_mmaps || !(m[i].prot & R))
				continue;
			misc |= PERF_RECORD_MISC_MMAP_DATA;
		}
		if (o->hugetlbfs_mnt && m[i].name &&
		    !strncmp(m[i].name, o->hugetlbfs_mnt, strlen(o->hugetlbfs_mnt))) {
			name = "//anon";
			flags |= MAP_HUGETLB;
		}
		x_mmap2(e, misc, pid, pid, m[i].start, m[i].end - m[i].start, m[i].pgoff, m[i].maj,
			m[i].min, m[i].ino, m[i].prot, flags, name, o->id_hdr_size);
		if (o->proc_map_timeout_ns == 1)
			break;
	}
}

/* One thread of the system-wide walk: FORK, NAMESPACES, COMM, maps. */
static void x_full_thread(struct bytes *e, int pid, int tid, const struct synth_opts *o)
{
	size_t idh = o->id_hdr_size;
	char ns[64];

	snprintf(ns, sizeof(ns), "%d/task/%d/ns", pid, tid);
	switch (tid) {
	case 1:
		x_fork(e, 1, 0, 1, 0, idh);
		if (o->namespaces)
			x_ns(e, 1, 1, ns, idh);
		x_comm(e, 1, 1, "systemd", idh);
		if (!o->no_mmaps)
			x_maps(e, maps_1, sizeof(maps_1) / sizeof(maps_1[0]), 1, o);
		break;
	case 2: /* a kernel thread: no maps */
		x_fork(e, 2, 0, 2, 0, idh);
		if (o->namespaces)
			x_ns(e, 2, 2, ns, idh);
		x_comm(e, 2, 2, "kthreadd", idh);
		break;
	case 1000:
		x_fork(e, 1000, 1, 1000, 1, idh);
		if (o->namespaces)
			x_ns(e, 1000, 1000, ns, idh);
		x_comm(e, 1000, 1000, "my prog", idh);
		if (!o->no_mmaps)
			x_maps(e, maps_1000, sizeof(maps_1000) / sizeof(maps_1000[0]), 1000, o);
		break;
	case 1001:
	case 1002:
		/* perf makes the leader every thread's parent */
		x_fork(e, 1000, 1000, (uint32_t)tid, 1000, idh);
		if (o->namespaces)
			x_ns(e, 1000, (uint32_t)tid, ns, idh);
		x_comm(e, 1000, (uint32_t)tid, tid == 1001 ? "worker-thread-with" : "io", idh);
		break;
	case 1601: /* its leader's status is gone; it still counts */
		x_fork(e, 1600, 1600, 1601, 1600, idh);
		if (o->namespaces)
			x_ns(e, 1600, 1601, ns, idh);
		x_comm(e, 1600, 1601, "orphan-thr", idh);
		break;
	default: /* 1600: vanished */
		break;
	}
}

/* Numeric entries of a fixture directory in readdir order: the order perf
 * (and prec) walk /proc in. */
static int list_dir(const char *dir, int *out, int cap)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);

		if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && !*end && n < cap)
			out[n++] = (int)v;
	}
	closedir(d);
	return n;
}

/* Everything the system-wide walk of the fixture writes. */
static void x_full(struct bytes *e, const struct synth_opts *o)
{
	int pids[64], n = list_dir(proc_dir, pids, 64);

	for (int i = 0; i < n; i++) {
		char task[600];
		struct stat st;
		int tids[16], nt;

		snprintf(task, sizeof(task), "%s/%d/task", proc_dir, pids[i]);
		if (stat(task, &st))
			continue; /* 1500, and the thread links 1001/1002 */
		nt = list_dir(task, tids, 16);
		for (int t = 0; t < nt; t++)
			x_full_thread(e, pids[i], tids[t], o);
	}
}

/* ---- a writer into a temp file ---- */

struct tw {
	char dir[64];
	char path[128];
	struct writer *w;
	uint64_t data_off;
};

static const uint64_t fake_ids[2] = { 1, 2 }; /* the ids ID_INDEX names */
static struct perf_event_attr fake_attr = {
	.type = PERF_TYPE_SOFTWARE,
	.size = sizeof(struct perf_event_attr),
	.config = PERF_COUNT_SW_CPU_CLOCK,
	.sample_period = 4000,
	.freq = 1,
	/* a 16-byte trailer: TID and TIME */
	.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
	.sample_id_all = 1,
	.mmap = 1,
	.comm = 1,
	.task = 1,
	.mmap2 = 1,
	.namespaces = 1,
	.ksymbol = 1,
	.bpf_event = 1,
	.cgroup = 1,
};
static const struct writer_event fake_event = {
	.attr = &fake_attr,
	.name = "cpu-clock",
	.ids = fake_ids,
	.nr_ids = 2,
};

static int tw_setup(void **state)
{
	struct tw *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->dir, "/tmp/prec-test-synthp-XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	snprintf(t->path, sizeof(t->path), "%s/perf.data", t->dir);
	if (writer__open(&t->w, t->path) || writer__begin(t->w, &fake_event, 1))
		return -1;
	t->data_off = writer__file_size(t->w);
	*state = t;
	return 0;
}

static int tw_teardown(void **state)
{
	struct tw *t = *state;

	writer__abort(t->w);
	unlink(t->path); /* a finished file */
	rmdir(t->dir);
	free(t);
	return 0;
}

/* Everything written to the data section so far (flushed first). */
static struct bytes tw_data(struct tw *t)
{
	struct bytes got = { 0 };
	uint64_t n;
	int fd;

	assert_int_equal(writer__writev(t->w, NULL, 0), 0);
	n = writer__data_size(t->w);
	grow(&got, (size_t)n);
	fd = open(t->path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, got.b, n, (off_t)t->data_off), (ssize_t)n);
	close(fd);
	return got;
}

/* Record by record, so a difference names the record and the byte. */
static void assert_records(const struct bytes *got, const struct bytes *want)
{
	size_t off = 0;
	int i = 0;

	while (off < want->n && off < got->n) {
		uint16_t wsz, gsz;
		uint32_t type;

		memcpy(&wsz, want->b + off + 6, 2);
		memcpy(&gsz, got->b + off + 6, 2);
		memcpy(&type, want->b + off, 4);
		if (wsz != gsz || memcmp(got->b + off, want->b + off, wsz)) {
			size_t k = 0;

			while (k < wsz && k < gsz && got->b[off + k] == want->b[off + k])
				k++;
			fail_msg(
				"record %d (type %u) at %zu differs from byte %zu: size %u, want %u",
				i, type, off, k, gsz, wsz);
		}
		off += wsz;
		i++;
	}
	assert_int_equal(got->n, want->n);
}

static int count_type(const struct bytes *b, uint32_t type)
{
	int n = 0;

	for (size_t off = 0; off + 8 <= b->n;) {
		uint32_t t;
		uint16_t sz;

		memcpy(&t, b->b + off, 4);
		memcpy(&sz, b->b + off + 6, 2);
		n += t == type;
		if (!sz)
			break;
		off += sz;
	}
	return n;
}

static void check_full(void **state, const struct synth_opts *o)
{
	struct tw *t = *state;
	struct bytes want = { 0 }, got;

	assert_int_equal(synth__threads(SYNTH_OUT(t->w), proc_dir, NULL, 0, o), 0);
	got = tw_data(t);
	x_full(&want, o);
	assert_records(&got, &want);
	free(got.b);
	free(want.b);
}

/* ---- system-wide ---- */

static void test_full_default(void **state)
{
	struct synth_opts o = { .id_hdr_size = 16 };

	check_full(state, &o);
}

static void test_full_everything(void **state)
{
	struct synth_opts o = {
		.id_hdr_size = 40,
		.data_mmaps = true,
		.namespaces = true,
		.hugetlbfs_mnt = "/dev/hugepages",
	};

	check_full(state, &o);
}

static void test_full_no_trailer_no_mmaps(void **state)
{
	struct synth_opts o = { .id_hdr_size = 0, .no_mmaps = true, .namespaces = true };

	check_full(state, &o);
}

static void test_full_timeout(void **state)
{
	/* A deadline of 1 ns has passed by the first line: perf writes that one
	 * line, executable or not, flagged, and stops. */
	struct synth_opts o = { .id_hdr_size = 8, .proc_map_timeout_ns = 1 };

	check_full(state, &o);
}

static void test_full_no_proc(void **state)
{
	struct tw *t = *state;
	struct synth_opts o = { .id_hdr_size = 8 };

	assert_int_equal(synth__threads(SYNTH_OUT(t->w), "/nonexistent/proc", NULL, 0, &o), -ENOENT);
	o.id_hdr_size = 4096;
	assert_int_equal(synth__threads(SYNTH_OUT(t->w), proc_dir, NULL, 0, &o), -E2BIG);
	assert_int_equal(writer__data_size(t->w), 0);
}

/* ---- listed threads (-p/-t) ---- */

static void test_list_thread_brings_leader(void **state)
{
	struct tw *t = *state;
	struct synth_opts o = { .id_hdr_size = 16, .namespaces = true };
	const pid_t tids[] = { 1001, 2, 1500, -1, 1601 };
	struct bytes want = { 0 }, got;

	assert_int_equal(synth__threads(SYNTH_OUT(t->w), proc_dir, tids, 5, &o), 0);
	got = tw_data(t);
	/* 1001: its COMM and namespaces, then its unlisted leader with maps */
	x_comm(&want, 1000, 1001, "worker-thread-with", 16);
	x_ns(&want, 1000, 1001, "1001/ns", 16);
	x_comm(&want, 1000, 1000, "my prog", 16);
	x_ns(&want, 1000, 1000, "1000/ns", 16);
	x_maps(&want, maps_1000, sizeof(maps_1000) / sizeof(maps_1000[0]), 1000, &o);
	/* 2: a kernel thread; its maps are empty, its ns unreadable */
	x_comm(&want, 2, 2, "kthreadd", 16);
	x_ns(&want, 2, 2, "2/ns", 16);
	/* 1500 vanished, -1 is "any thread", 1601 has no /proc/1601 here */
	assert_records(&got, &want);
	free(got.b);
	free(want.b);
}

static void test_list_leader_twice(void **state)
{
	struct tw *t = *state;
	struct synth_opts o = { .id_hdr_size = 8, .data_mmaps = true };
	const pid_t two[] = { 1001, 1002 }, all[] = { 1000, 1001, 1002 };
	struct bytes want = { 0 }, got;

	/* Neither thread's leader is listed: perf brings it after each. */
	assert_int_equal(synth__threads(SYNTH_OUT(t->w), proc_dir, two, 2, &o), 0);
	for (int i = 0; i < 2; i++) {
		x_comm(&want, 1000, (uint32_t)two[i], i ? "io" : "worker-thread-with", 8);
		x_comm(&want, 1000, 1000, "my prog", 8);
		x_maps(&want, maps_1000, sizeof(maps_1000) / sizeof(maps_1000[0]), 1000, &o);
	}
	/* -p: the whole process, leader first */
	assert_int_equal(synth__threads(SYNTH_OUT(t->w), proc_dir, all, 3, &o), 0);
	x_comm(&want, 1000, 1000, "my prog", 8);
	x_maps(&want, maps_1000, sizeof(maps_1000) / sizeof(maps_1000[0]), 1000, &o);
	x_comm(&want, 1000, 1001, "worker-thread-with", 8);
	x_comm(&want, 1000, 1002, "io", 8);
	got = tw_data(t);
	assert_records(&got, &want);
	free(got.b);
	free(want.b);
}

/* ---- namespaces, cgroups, mounts ---- */

static void test_namespaces(void **state)
{
	struct tw *t = *state;
	struct bytes want = { 0 }, got;

	assert_int_equal(synth__namespaces(SYNTH_OUT(t->w), proc_dir, 1000, 1001, 24), 0);
	assert_int_equal(synth__namespaces(SYNTH_OUT(t->w), proc_dir, 2, 2, 0), 0);
	x_ns(&want, 1000, 1001, "1001/ns", 24);
	x_ns(&want, 2, 2, "2/ns", 0);
	got = tw_data(t);
	assert_records(&got, &want);
	/* the fixture's links are real files: their inodes are not zero */
	assert_true(got.b[32] || got.b[33] || got.b[34] || got.b[35]);
	assert_int_equal(synth__namespaces(SYNTH_OUT(t->w), "/nonexistent", 1, 1, 0), -ENOENT);
	free(got.b);
	free(want.b);
}

/* The fixture cgroup tree, depth first in readdir order, as perf walks it. */
static void x_cgroups(struct bytes *e, char *path, size_t mnt_len, size_t idh)
{
	size_t pos = strlen(path);
	struct dirent *de;
	struct stat st;
	DIR *d;

	assert_int_equal(stat(path, &st), 0);
	x_cgroup(e, st.st_ino, pos > mnt_len ? path + mnt_len : "/", idh);
	d = opendir(path);
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		snprintf(path + pos, 512 - pos, "/%s", de->d_name);
		x_cgroups(e, path, mnt_len, idh);
		path[pos] = '\0';
	}
	closedir(d);
}

static void test_cgroups(void **state)
{
	struct tw *t = *state;
	struct bytes want = { 0 }, got;
	struct synth_opts o = {
		.id_hdr_size = 16, .cgroups = true, .cgroup_mnt = cgroup_dir, .no_mmaps = true
	};
	const pid_t one[] = { 2 };
	char path[512], slash[520];

	assert_int_equal(synth__cgroups(SYNTH_OUT(t->w), cgroup_dir, 16), 0);
	/* a trailing slash changes nothing */
	snprintf(slash, sizeof(slash), "%s/", cgroup_dir);
	assert_int_equal(synth__cgroups(SYNTH_OUT(t->w), slash, 0), 0);
	/* synth__threads writes the tree first when asked */
	assert_int_equal(synth__threads(SYNTH_OUT(t->w), proc_dir, one, 1, &o), 0);
	snprintf(path, sizeof(path), "%s", cgroup_dir);
	x_cgroups(&want, path, strlen(path), 16);
	x_cgroups(&want, path, strlen(path), 0);
	x_cgroups(&want, path, strlen(path), 16);
	x_comm(&want, 2, 2, "kthreadd", 16);
	got = tw_data(t);
	assert_records(&got, &want);
	/* root, system.slice, ssh.service, user.slice: four records a walk */
	assert_int_equal(count_type(&got, PERF_RECORD_CGROUP), 12);
	assert_int_equal(synth__cgroups(SYNTH_OUT(t->w), "/nonexistent/cgroup", 0), -ENOENT);
	free(got.b);
	free(want.b);
}

static void test_mounts(void **state)
{
	char buf[256], dir[] = "/tmp/prec-test-mounts-XXXXXX", path[300];
	FILE *f;

	(void)state;
	/* no perf_event v1 hierarchy ("name=perf_event_x" is not the option):
	 * the first cgroup2, unescaped */
	assert_int_equal(synth__cgroup_mount(proc_dir, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/fs/cgroup/unified tree");
	assert_int_equal(synth__hugetlbfs_mount(proc_dir, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/dev/hugepages");
	assert_int_equal(synth__cgroup_mount(proc_dir, buf, 10), -ENAMETOOLONG);
	assert_int_equal(synth__cgroup_mount("/nonexistent", buf, sizeof(buf)), -ENOENT);

	/* a v1 perf_event hierarchy wins over cgroup2, wherever it is listed */
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/mounts", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n"
	      "garbage\n"
	      "\n"
	      "cgroup /sys/fs/cgroup/perf_event cgroup rw,nosuid,perf_event 0 0\n",
	      f);
	fclose(f);
	assert_int_equal(synth__cgroup_mount(dir, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/fs/cgroup/perf_event");
	assert_int_equal(synth__hugetlbfs_mount(dir, buf, sizeof(buf)), -ENOENT);
	unlink(path);
	rmdir(dir);
}

/* ---- BPF ---- */

static void test_bpf_images(void **state)
{
	struct tw *t = *state;
	struct bytes want = { 0 }, got;
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);

	/* No programs: the trampolines and dispatchers of kallsyms only (not
	 * the programs listed there, not empty names, not other modules, not
	 * hidden addresses). */
	assert_int_equal(synth__bpf(SYNTH_OUT(t->w), NULL, proc_dir, 16), 0);
	x_ksymbol(&want, 0xffffffffc0004000ULL, page, "bpf_trampoline_6442453466", 16);
	x_ksymbol(&want, 0xffffffffc0006000ULL, page, "bpf_dispatcher_xdp", 16);
	got = tw_data(t);
	assert_records(&got, &want);
	/* no kallsyms at all is no error */
	assert_int_equal(synth__bpf(SYNTH_OUT(t->w), NULL, "/nonexistent", 16), 0);
	free(got.b);
	free(want.b);
}

/* One program as sysinfo keeps it: info with offsets into data. */
struct fake_prog {
	struct sysinfo_bpf_prog prog;
	uint8_t data[64];
};

static void fake_prog(struct fake_prog *f, uint32_t id, const char *name, uint32_t nsub,
		      const uint64_t *addrs, const uint32_t *lens, const uint8_t (*tags)[8])
{
	struct bpf_prog_info *info = &f->prog.info;
	size_t off = 0;

	memset(f, 0, sizeof(*f));
	info->id = id;
	snprintf(info->name, sizeof(info->name), "%s", name);
	memcpy(info->tag, tags[0], 8);
	info->nr_jited_ksyms = info->nr_jited_func_lens = info->nr_prog_tags = nsub;
	info->jited_ksyms = off;
	memcpy(f->data + off, addrs, 8 * nsub);
	off += 8 * nsub;
	info->jited_func_lens = off;
	memcpy(f->data + off, lens, 4 * nsub);
	off = (off + 4 * nsub + 7) / 8 * 8;
	info->prog_tags = off;
	memcpy(f->data + off, tags, 8 * nsub);
	off += 8 * nsub;
	f->prog.arrays = (1ULL << SYSINFO_BPF_JITED_KSYMS) | (1ULL << SYSINFO_BPF_JITED_FUNC_LENS) |
			 (1ULL << SYSINFO_BPF_PROG_TAGS);
	f->prog.data = f->data;
	f->prog.data_len = (uint32_t)off;
}

static void test_bpf_progs(void **state)
{
	/* What perf 6.1 wrote on this machine for prec_bpf_hold's program
	 * (perf record -a, perf report -D), trailer of 32 bytes. */
	static const uint8_t perf_ksymbol[104] = {
		0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x68, 0x00, 0x28, 0x21, 0x02, 0xc0, 0xff,
		0xff, 0xff, 0xff, 0x14, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 'b',	'p',
		'f',  '_',  'p',  'r',	'o',  'g',  '_',  '5',	'9',  'f',  '4',  'a',	'9',
		'3',  '1',  '7',  '4',	'4',  'd',  'c',  'd',	'c',  '6',  '_',  'p',	'r',
		'e',  'c',  '_',  't',	'e',  's',  't',  '_',	'p',  'r',  'o',  'g',
	};
	static const uint8_t perf_bpf_event[56] = {
		0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x38, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x61, 0x00, 0x00, 0x00, 0x59, 0xf4, 0xa9, 0x31, 0x74, 0x4d, 0xcd, 0xc6,
	};
	static const uint8_t tag1[1][8] = { { 0x59, 0xf4, 0xa9, 0x31, 0x74, 0x4d, 0xcd, 0xc6 } };
	static const uint8_t tag2[2][8] = { { 1, 2, 3, 4, 5, 6, 7, 8 },
					    { 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0, 1 } };
	const uint64_t addr1 = 0xffffffffc0022128ULL,
		       addr2[2] = { 0xffffffffc0030000ULL, 0xffffffffc0031000ULL };
	const uint32_t len1 = 20, len2[2] = { 64, 32 };
	struct fake_prog p[3];
	struct sysinfo_bpf bpf;
	struct sysinfo_bpf_prog progs[3];
	struct tw *t = *state;
	struct bytes want = { 0 }, got;
	uint8_t tagev[8];

	fake_prog(&p[0], 97, "prec_test_prog", 1, &addr1, &len1, tag1);
	fake_prog(&p[1], 98, "prec_test_multi", 2, addr2, len2, tag2);
	fake_prog(&p[2], 99, "broken", 1, &addr1, &len1, tag1);
	p[2].prog.info.nr_jited_func_lens = 0; /* counts that disagree: left out */
	for (int i = 0; i < 3; i++)
		progs[i] = p[i].prog;
	memset(&bpf, 0, sizeof(bpf));
	bpf.progs = progs;
	bpf.nr_progs = 3;

	assert_int_equal(synth__bpf(SYNTH_OUT(t->w), &bpf, "/nonexistent", 32), 0);
	got = tw_data(t);
	assert_true(got.n >= sizeof(perf_ksymbol) + sizeof(perf_bpf_event));
	assert_memory_equal(got.b, perf_ksymbol, sizeof(perf_ksymbol));
	assert_memory_equal(got.b + 104, perf_bpf_event, sizeof(perf_bpf_event));

	/* sub-programs without BTF are "F", each with its own tag */
	grow(&want, 160);
	memcpy(want.b, perf_ksymbol, 104);
	memcpy(want.b + 104, perf_bpf_event, 56);
	x_ksymbol(&want, addr2[0], 64, "bpf_prog_0102030405060708_F", 32);
	x_ksymbol(&want, addr2[1], 32, "bpf_prog_0a0b0c0d0e0f0001_F", 32);
	memcpy(tagev, tag2[0], 8);
	{
		uint8_t *ev = header(&want, PERF_RECORD_BPF_EVENT, 0, 24 + 32);

		PUT(ev, 8, uint16_t, PERF_BPF_EVENT_PROG_LOAD);
		PUT(ev, 12, uint32_t, 98);
		put(ev, 16, tagev, 8);
	}
	assert_records(&got, &want);
	free(got.b);
	free(want.b);
}

/* ---- stock perf reads it all ---- */

static char *run(const char *cmd)
{
	size_t cap = 1 << 22, len;
	char *out = calloc(1, cap);
	FILE *p = popen(cmd, "r");

	assert_non_null(out);
	assert_non_null(p);
	len = fread(out, 1, cap - 1, p);
	out[len] = '\0';
	pclose(p);
	return out;
}

static void assert_has(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("\"%s\" not in perf report -D output", needle);
}

static void test_perf_reads_everything(void **state)
{
	struct tw *t = *state;
	struct synth_opts o = { .id_hdr_size = 16,
				.data_mmaps = true,
				.namespaces = true,
				.cgroups = true,
				.cgroup_mnt = cgroup_dir,
				.hugetlbfs_mnt = "/dev/hugepages" };
	const pid_t tids[3] = { 1000, 1001, 1002 };
	const int list[] = { 0, 1 }, sparse[] = { 0, 2, 4, 6, 8, 10, 12 }, any[] = { -1 },
		  far[] = { 1, 64, 129 };
	int evens[40];
	char evens_s[200] = "PERF_RECORD_CPU_MAP: ";
	struct synth_id ids[2] = { { 1, 0, 0, (uint64_t)-1 }, { 2, 1, 1, (uint64_t)-1 } };
	struct perf_event_mmap_page *pc = calloc(1, 4096);
	struct fake_prog p;
	struct sysinfo_bpf bpf;
	const uint64_t addr = 0xffffffffc0022128ULL;
	const uint32_t len = 20;
	static const uint8_t tag[1][8] = { { 0x59, 0xf4, 0xa9, 0x31, 0x74, 0x4d, 0xcd, 0xc6 } };
	char cmd[600], *out;

	for (int i = 0; i < 40; i++) {
		evens[i] = 2 * i;
		snprintf(evens_s + strlen(evens_s), sizeof(evens_s) - strlen(evens_s), "%s%d",
			 i ? "," : "", 2 * i);
	}
	strcat(evens_s, "\n");
	assert_non_null(pc);
	pc->time_shift = 31;
	pc->time_mult = 1234567;
	pc->time_zero = 987654321;
	pc->time_cycles = 42;
	pc->time_mask = 0xffff;
	pc->cap_user_time_zero = 1;
	pc->cap_user_time_short = 1;
	fake_prog(&p, 97, "prec_test_prog", 1, &addr, &len, tag);
	memset(&bpf, 0, sizeof(bpf));
	bpf.progs = &p.prog;
	bpf.nr_progs = 1;

	assert_int_equal(synth__time_conv(SYNTH_OUT(t->w), pc), 0);
	assert_int_equal(synth__id_index_entries(SYNTH_OUT(t->w), ids, 2), 0);
	assert_int_equal(synth__thread_map_n(SYNTH_OUT(t->w), tids, NULL, 3), 0);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), list, 2, SYNTH_CPU_MAP_COMPAT), 0);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), list, 2, SYNTH_CPU_MAP_PERF61), 0);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), sparse, 7, SYNTH_CPU_MAP_COMPAT), 0);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), sparse, 7, SYNTH_CPU_MAP_PERF61), 0);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), far, 3, SYNTH_CPU_MAP_COMPAT), 0);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), evens, 40, SYNTH_CPU_MAP_COMPAT), 0);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), evens, 40, SYNTH_CPU_MAP_PERF61), 0);
	assert_int_equal(synth__cpu_map_cpus(SYNTH_OUT(t->w), any, 1, SYNTH_CPU_MAP_PERF61), 0);
	assert_int_equal(synth__bpf(SYNTH_OUT(t->w), &bpf, proc_dir, 16), 0);
	assert_int_equal(synth__threads(SYNTH_OUT(t->w), proc_dir, NULL, 0, &o), 0);
	assert_int_equal(synth__marker(SYNTH_OUT(t->w), PERF_RECORD_FINISHED_ROUND), 0);
	assert_int_equal(writer__finish(t->w, NULL), 0);
	t->w = NULL;
	free(pc);

	if (access(PERF_BIN, X_OK))
		return; /* no stock perf here: the byte checks of the other tests stand */
	snprintf(cmd, sizeof(cmd), PERF_BIN " report -D -i '%s' 2>&1", t->path);
	out = run(cmd);
	if (strstr(out, "unprocessable") || strstr(out, "Error") || strstr(out, "WARNING") ||
	    strstr(out, "invalid"))
		fail_msg("perf complained:\n%.4000s", out);
	assert_has(out, "PERF_RECORD_TIME_CONV");
	assert_has(out, "PERF_RECORD_ID_INDEX nr: 2");
	assert_has(out, "PERF_RECORD_THREAD_MAP nr: 3 threads: 1000, 1001, 1002");
	assert_has(out, "PERF_RECORD_CPU_MAP: 0-1\n");
	assert_has(out, "PERF_RECORD_CPU_MAP: 0,2,4,6,8,10,12\n");
	assert_has(out, "PERF_RECORD_CPU_MAP: 1,64,129\n");
	assert_has(out, "PERF_RECORD_CPU_MAP: -1\n");
	assert_has(out, evens_s);
	assert_has(out, "PERF_RECORD_KSYMBOL addr ffffffffc0022128 len 20 type 1 flags 0x0 name "
			"bpf_prog_59f4a931744dcdc6_prec_test_prog");
	assert_has(out, "PERF_RECORD_BPF_EVENT type 1, flags 0, id 97");
	assert_has(out, "name bpf_trampoline_6442453466");
	assert_has(out, "name bpf_dispatcher_xdp");
	assert_has(out, " /system.slice/ssh.service\n");
	assert_has(out, "PERF_RECORD_FORK(1:1):(0:0)");
	assert_has(out, "PERF_RECORD_FORK(1000:1001):(1000:1000)");
	assert_has(out, "PERF_RECORD_FORK(1600:1601):(1600:1600)");
	assert_has(out, "PERF_RECORD_NAMESPACES 1000/1001 - nr_namespaces: 7");
	assert_has(out, "PERF_RECORD_COMM: my prog:1000/1000");
	assert_has(out, "PERF_RECORD_COMM: worker-thread-w:1000/1001");
	assert_has(out, "PERF_RECORD_COMM: kthreadd:2/2");
	assert_has(out, "PERF_RECORD_MMAP2 1000/1000: [0x401000(0x1000) @ 0x1000 08:02 131 0]: "
			"r-xp /opt/My App/bin/my prog\n");
	assert_has(out, "PERF_RECORD_MMAP2 1000/1000: [0x7f0000000000(0x1000) @ 0 00:2a "
			"18446744073709551615 0]: r-xp /tmp/libgone.so (deleted)\n");
	assert_has(out, "PERF_RECORD_MMAP2 1000/1000: [0x7f0000001000(0x1000) @ 0 00:05 3 0]: "
			"rw-s /dev/shm/ring buf\n");
	assert_has(out, "PERF_RECORD_MMAP2 1000/1000: [0x1e4f000(0x21000) @ 0 00:00 0 0]: rw-p "
			"[heap]\n");
	assert_has(out, "PERF_RECORD_MMAP2 1000/1000: [0x7f0000004000(0x1000) @ 0 00:00 0 0]: "
			"rw-p //anon\n");
	assert_has(out, "PERF_RECORD_MMAP2 1/1: [0x7ffc1a5f9000(0x2000) @ 0 00:00 0 0]: r-xp "
			"[vdso]\n");
	free(out);
}

#define TW(fn) cmocka_unit_test_setup_teardown(fn, tw_setup, tw_teardown)

int main(void)
{
	fixture_path(proc_dir, sizeof(proc_dir), "proc/basic");
	fixture_path(cgroup_dir, sizeof(cgroup_dir), "proc/cgroup");

	/* clang-format off */
	const struct CMUnitTest tests[] = {
		TW(test_full_default),
		TW(test_full_everything),
		TW(test_full_no_trailer_no_mmaps),
		TW(test_full_timeout),
		TW(test_full_no_proc),
		TW(test_list_thread_brings_leader),
		TW(test_list_leader_twice),
		TW(test_namespaces),
		TW(test_cgroups),
		cmocka_unit_test(test_mounts),
		TW(test_bpf_images),
		TW(test_bpf_progs),
		TW(test_perf_reads_everything),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
