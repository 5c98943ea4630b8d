// SPDX-License-Identifier: GPL-2.0-only
/*
 * buildid_cache__prune_jit over a temporary cache: recordings made as prec
 * makes them (a JIT ELF from writer/jit_elf.c under jit/prec-PID-TIME/,
 * added by buildid_cache__add), pruned oldest first to the cap with their
 * entries and .build-id links; a running recording kept whatever the cap;
 * perf's entries, perf inject's jit/java-jit-*, names that are not prec's
 * and a link of the same id to another entry untouched; links inside a
 * recording removed, never followed; an entry whose jit directory is gone
 * found and pruned; a cap of 0, no jit directory and no root do nothing;
 * the ELF and its entry's hard link counted once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/buildid.h"
#include "prec/buildid_cache.h"
#include "prec/jit_elf.h"

/* Above the kernel's PID_MAX_LIMIT: never a running process. */
#define DEAD_PID 4194400

struct fx {
	char dir[64]; /* the temp dir */
	char root[128]; /* the cache: dir/cache */
	char real[PATH_MAX]; /* realpath(root/jit) */
};

struct rec {
	char jit[256]; /* root/jit/prec-PID-TIME */
	char elf[512]; /* its jitted-PID.so */
	struct buildid_cache_paths p; /* its cache entry */
};

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static void write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char jit[PATH_MAX + 8];

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/prec-prune-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->root, sizeof(f->root), "%s/cache", f->dir);
	assert_int_equal(mkdir(f->root, 0755), 0);
	snprintf(jit, sizeof(jit), "%s/jit", f->root);
	assert_int_equal(mkdir(jit, 0755), 0);
	assert_non_null(realpath(jit, f->real));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", f->dir);
	free(f);
	return 0;
}

/*
 * A recording of prec process pid started at time: one JIT ELF of about kb
 * KiB (symbols with long names), written and cached as prec does.
 */
static void add_rec(const struct fx *f, int pid, long long time, size_t kb, struct rec *r)
{
	size_t n = kb * 1024 / 256 + 1;
	struct jit_elf_sym *syms = calloc(n, sizeof(*syms));
	char(*names)[240] = calloc(n, sizeof(*names));
	struct buildid_cache c;
	struct build_id bid;
	char sbid[SBUILD_ID_LEN], real[PATH_MAX];
	void *img;
	size_t len;

	assert_non_null(syms);
	assert_non_null(names);
	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "LazyCompile:*fn%zu_%d_%lld_%0200d", i, pid,
			 time, 0);
		syms[i] = (struct jit_elf_sym){ 0x10000 + i * 64, 64, names[i] };
	}
	assert_int_equal(jit_elf__build(syms, n, EM_X86_64, &img, &len, &bid), 0);
	snprintf(r->jit, sizeof(r->jit), "%s/jit/prec-%d-%lld", f->root, pid, time);
	assert_int_equal(mkdir(r->jit, 0755), 0);
	snprintf(r->elf, sizeof(r->elf), "%s/jitted-%d.so", r->jit, pid + 1);
	write_file(r->elf, img, len);
	buildid_cache__init(&c, f->root);
	assert_int_equal(buildid_cache__add(&c, r->elf, &bid, BUILDID_CACHE_ELF), 0);
	buildid__snprintf(&bid, sbid, sizeof(sbid));
	assert_non_null(realpath(r->elf, real));
	assert_int_equal(buildid_cache__paths(f->root, real, sbid, BUILDID_CACHE_ELF, &r->p), 0);
	assert_true(exists(r->p.file));
	assert_true(exists(r->p.link));
	free(img);
	free(names);
	free(syms);
}

/* The recording's directory, entry and link are all there (or all gone). */
static void rec_there(const struct rec *r, bool there)
{
	assert_int_equal(exists(r->jit), there);
	assert_int_equal(exists(r->elf), there);
	assert_int_equal(exists(r->p.dir), there);
	assert_int_equal(exists(r->p.link), there);
}

static void test_unbounded_and_empty(void **state)
{
	struct fx *f = *state;
	struct buildid_cache_prune p = { .max_bytes = 0 };
	struct rec a;
	char none[PATH_MAX + 8];

	add_rec(f, DEAD_PID, 100, 64, &a);
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_int_equal(p.recordings, 0);
	assert_int_equal(p.removed, 0);
	rec_there(&a, true);
	/* No root, and a root without jit/: nothing to do. */
	p.max_bytes = 1;
	snprintf(none, sizeof(none), "%s/none", f->dir);
	assert_int_equal(buildid_cache__prune_jit(none, &p), 0);
	assert_int_equal(p.recordings, 0);
	assert_int_equal(mkdir(none, 0755), 0);
	assert_int_equal(buildid_cache__prune_jit(none, &p), 0);
	assert_int_equal(p.recordings, 0);
	assert_int_equal(buildid_cache__prune_jit("", &p), 0);
}

static void test_oldest_first(void **state)
{
	struct fx *f = *state;
	struct buildid_cache_prune p = { .max_bytes = UINT64_MAX };
	struct rec r[4];
	uint64_t all;

	/* Made out of order: the TIME in the name orders them. */
	add_rec(f, DEAD_PID + 3, 400, 64, &r[3]);
	add_rec(f, DEAD_PID + 1, 200, 64, &r[1]);
	add_rec(f, DEAD_PID + 0, 100, 64, &r[0]);
	add_rec(f, DEAD_PID + 2, 300, 64, &r[2]);
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_int_equal(p.recordings, 4);
	assert_int_equal(p.removed, 0);
	assert_true(p.bytes_before >= 4 * 64 * 1024);
	assert_true(p.bytes_after == p.bytes_before);
	all = p.bytes_before;
	/* One byte under: the oldest goes, with its entry and link. */
	p.max_bytes = all - 1;
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_int_equal(p.bytes_before, all);
	assert_int_equal(p.removed, 1);
	assert_int_equal(p.links_removed, 1);
	assert_true(p.bytes_after <= p.max_bytes);
	rec_there(&r[0], false);
	rec_there(&r[1], true);
	rec_there(&r[2], true);
	rec_there(&r[3], true);
	/* Room for one: the two next oldest go. */
	p.max_bytes = p.bytes_after / 3 + 8192;
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_int_equal(p.recordings, 3);
	assert_int_equal(p.removed, 2);
	assert_true(p.bytes_after <= p.max_bytes);
	rec_there(&r[1], false);
	rec_there(&r[2], false);
	rec_there(&r[3], true);
}

static void test_running_kept(void **state)
{
	struct fx *f = *state;
	struct buildid_cache_prune p = { .max_bytes = 1 };
	struct rec self, old, newer;

	/* This process's recording is the oldest by its name: kept anyway. */
	add_rec(f, (int)getpid(), 50, 64, &self);
	add_rec(f, DEAD_PID, 100, 64, &old);
	add_rec(f, DEAD_PID + 1, 200, 64, &newer);
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_int_equal(p.recordings, 3);
	assert_int_equal(p.running, 1);
	assert_int_equal(p.removed, 2);
	assert_true(p.bytes_after > p.max_bytes); /* the running one alone exceeds it */
	rec_there(&self, true);
	rec_there(&old, false);
	rec_there(&newer, false);
}

/* perf's own entry of a file: NAME/SBUILDID/elf and its link. */
static void perf_entry(const struct fx *f, const char *name, const char *sbid,
		       struct buildid_cache_paths *p)
{
	char xx[PATH_MAX];

	assert_int_equal(buildid_cache__paths(f->root, name, sbid, BUILDID_CACHE_ELF, p), 0);
	assert_int_equal(buildid_cache__mkdir(p->dir), 0);
	write_file(p->file, "perf's", 6);
	snprintf(xx, sizeof(xx), "%s", p->link);
	*strrchr(xx, '/') = '\0'; /* ROOT/.build-id/xx */
	assert_int_equal(buildid_cache__mkdir(xx), 0);
	assert_int_equal(symlink(p->target, p->link), 0);
}

static void test_perf_untouched(void **state)
{
	static const char *const others[] = {
		"java-jit-20240101.XYZ",
		"prec-abc-1",
		"prec-12-34x",
		"prec-0-5",
		"prec--5",
		"prec-12-",
		"prec-12",
		"perf-12-34",
		"prec-1-2-3",
	};
	struct fx *f = *state;
	struct buildid_cache_prune p = { .max_bytes = 1 };
	struct buildid_cache_paths perf;
	char path[PATH_MAX * 2];
	struct rec r;

	perf_entry(f, "/usr/bin/perfs-own", "0123456789abcdef0123456789abcdef01234567", &perf);
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		snprintf(path, sizeof(path), "%s/jit/%s", f->root, others[i]);
		assert_int_equal(mkdir(path, 0755), 0);
		snprintf(path, sizeof(path), "%s/jit/%s/jitted-1-1.so", f->root, others[i]);
		write_file(path, "x", 1);
	}
	add_rec(f, DEAD_PID, 100, 16, &r);
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_int_equal(p.recordings, 1);
	assert_int_equal(p.removed, 1);
	rec_there(&r, false);
	assert_true(exists(perf.file));
	assert_true(exists(perf.link));
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		snprintf(path, sizeof(path), "%s/jit/%s/jitted-1-1.so", f->root, others[i]);
		assert_true(exists(path));
	}
}

/* A link of a prec entry's id that points at another entry (perf cached
 * the same id first) is not prec's: it stays. */
static void test_link_of_another_entry_kept(void **state)
{
	struct fx *f = *state;
	struct buildid_cache_prune p = { .max_bytes = 1 };
	struct rec r;

	add_rec(f, DEAD_PID, 100, 16, &r);
	assert_int_equal(unlink(r.p.link), 0);
	assert_int_equal(symlink("../../usr/bin/other/abcd", r.p.link), 0);
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_int_equal(p.removed, 1);
	assert_int_equal(p.links_removed, 0);
	assert_false(exists(r.jit));
	assert_false(exists(r.p.dir));
	assert_true(exists(r.p.link));
}

/* Links inside a recording are removed, never followed. */
static void test_links_not_followed(void **state)
{
	struct fx *f = *state;
	struct buildid_cache_prune p = { .max_bytes = 1 };
	char outside[PATH_MAX], file[PATH_MAX + 16], link[PATH_MAX + 16];
	struct rec r;

	snprintf(outside, sizeof(outside), "%s/outside", f->dir);
	assert_int_equal(mkdir(outside, 0755), 0);
	snprintf(file, sizeof(file), "%s/keep", outside);
	write_file(file, "keep", 4);
	add_rec(f, DEAD_PID, 100, 16, &r);
	snprintf(link, sizeof(link), "%s/dirlink", r.jit);
	assert_int_equal(symlink(outside, link), 0);
	snprintf(link, sizeof(link), "%s/filelink", r.p.dir);
	assert_int_equal(symlink(file, link), 0);
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_int_equal(p.removed, 1);
	rec_there(&r, false);
	assert_true(exists(file));
}

/* An entry whose jit directory is gone (removed by hand, or a prune cut
 * short) is still prec's: found by its name and pruned. */
static void test_orphan_entry(void **state)
{
	struct fx *f = *state;
	struct buildid_cache_prune p = { .max_bytes = 1 };
	char cmd[PATH_MAX + 16];
	struct rec r;

	add_rec(f, DEAD_PID, 100, 16, &r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r.jit);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_int_equal(p.recordings, 1);
	assert_int_equal(p.removed, 1);
	rec_there(&r, false);
}

/* The ELF and its entry's elf are one file: counted once. */
static void test_hard_link_once(void **state)
{
	struct fx *f = *state;
	struct buildid_cache_prune p = { .max_bytes = UINT64_MAX };
	struct stat st;
	struct rec r;

	add_rec(f, DEAD_PID, 100, 512, &r);
	assert_int_equal(stat(r.elf, &st), 0);
	if (st.st_nlink != 2)
		skip(); /* the cache copied it (another file system) */
	assert_int_equal(buildid_cache__prune_jit(f->root, &p), 0);
	assert_true(p.bytes_before >= (uint64_t)st.st_blocks * 512);
	assert_true(p.bytes_before < 2 * (uint64_t)st.st_blocks * 512);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unbounded_and_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_oldest_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_running_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_perf_untouched, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_of_another_entry_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_links_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_orphan_entry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hard_link_once, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
