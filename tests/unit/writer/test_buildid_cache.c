// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build-id cache: the pure path builder on good and hostile names, the
 * config parser, where the root is, and the filler on a temp dir: perf's
 * names, modes and symlinks for a file (this test's own binary), the kernel
 * (a kallsyms fixture), the vdso (this process's), a distro debuginfo tree,
 * a file that is not what its id says, a copy across file systems, and a
 * HEADER_BUILD_ID list with an entry that has no file; and the entry of a
 * file whose bytes come from elsewhere (buildid_cache__add_from: gone,
 * replaced or only in a container).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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
#include "prec/writer.h"

#define SB "4a5a9b0affb66c437abcd455d2738af879985fa9"

/* ---- buildid_cache__paths ---- */

static void test_paths_elf(void **state)
{
	struct buildid_cache_paths p;

	(void)state;
	assert_int_equal(buildid_cache__paths("/root/.debug", "/usr/lib/libc.so.6", SB,
					      BUILDID_CACHE_ELF, &p),
			 0);
	assert_string_equal(p.dir, "/root/.debug/usr/lib/libc.so.6/" SB);
	assert_string_equal(p.file, "/root/.debug/usr/lib/libc.so.6/" SB "/elf");
	assert_string_equal(p.debug, "/root/.debug/usr/lib/libc.so.6/" SB "/debug");
	assert_string_equal(p.probes, "/root/.debug/usr/lib/libc.so.6/" SB "/probes");
	assert_string_equal(p.link,
			    "/root/.debug/.build-id/4a/5a9b0affb66c437abcd455d2738af879985fa9");
	assert_string_equal(p.target, "../../usr/lib/libc.so.6/" SB);
}

static void test_paths_kernel_vdso(void **state)
{
	struct buildid_cache_paths p;

	(void)state;
	assert_int_equal(buildid_cache__paths("rel", "[kernel.kallsyms]", SB,
					      BUILDID_CACHE_KALLSYMS, &p),
			 0);
	assert_string_equal(p.dir, "rel/[kernel.kallsyms]/" SB);
	assert_string_equal(p.file, "rel/[kernel.kallsyms]/" SB "/kallsyms");
	assert_string_equal(p.debug, "");
	assert_string_equal(p.probes, "");
	assert_string_equal(p.target, "../../[kernel.kallsyms]/" SB);
	assert_int_equal(buildid_cache__paths("/c", "[vdso]", "abcd", BUILDID_CACHE_VDSO, &p), 0);
	assert_string_equal(p.file, "/c/[vdso]/abcd/vdso");
	assert_string_equal(p.probes, "/c/[vdso]/abcd/probes");
	assert_string_equal(p.debug, "");
	assert_string_equal(p.link, "/c/.build-id/ab/cd");
	assert_string_equal(p.target, "../../[vdso]/abcd");
}

static void test_paths_hostile(void **state)
{
	static const struct {
		const char *root, *name, *sbid;
		enum buildid_cache_kind kind;
		int want;
	} cases[] = {
		{ "", "/bin/ls", SB, BUILDID_CACHE_ELF, -EINVAL },
		{ NULL, "/bin/ls", SB, BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "bin/ls", SB, BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/", SB, BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin/../etc/x", SB, BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin/./ls", SB, BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin//ls", SB, BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin/ls/", SB, BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/..", SB, BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "[a/b]", SB, BUILDID_CACHE_VDSO, -EINVAL },
		{ "/c", "..", SB, BUILDID_CACHE_KALLSYMS, -EINVAL },
		{ "/c", "", SB, BUILDID_CACHE_KALLSYMS, -EINVAL },
		{ "/c", "/bin/ls", "", BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin/ls", "a", BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin/ls", "4A5A", BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin/ls", "4a5g", BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin/ls", "../../etc", BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin/ls", SB "00", BUILDID_CACHE_ELF, -EINVAL },
		{ "/c", "/bin/ls", "ab", BUILDID_CACHE_ELF, 0 },
		{ "/c", "/bin/..ls/.x", SB, BUILDID_CACHE_ELF, 0 },
	};
	struct buildid_cache_paths p;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret = buildid_cache__paths(cases[i].root, cases[i].name, cases[i].sbid,
					       cases[i].kind, &p);

		if (ret != cases[i].want)
			fail_msg("case %zu (%s, %s): %d, want %d", i, cases[i].name, cases[i].sbid,
				 ret, cases[i].want);
	}
}

static void test_paths_too_long(void **state)
{
	char *name = malloc(PATH_MAX + 10);
	struct buildid_cache_paths p;

	(void)state;
	name[0] = '/';
	memset(name + 1, 'x', PATH_MAX - 60);
	name[PATH_MAX - 59] = '\0';
	/* Fits as a name, but not with the id and "/elf" after it. */
	assert_int_equal(buildid_cache__paths("/root/.debug", name, SB, BUILDID_CACHE_ELF, &p),
			 -ENAMETOOLONG);
	/* Too long for the directory itself. */
	memset(name + 1, 'x', PATH_MAX - 2);
	name[PATH_MAX - 1] = '\0';
	assert_int_equal(buildid_cache__paths("/r", name, SB, BUILDID_CACHE_ELF, &p), -ENAMETOOLONG);
	free(name);
}

/* ---- the root ---- */

static void test_root(void **state)
{
	char buf[PATH_MAX];

	(void)state;
	setenv("PERF_BUILDID_DIR", "/some/where", 1);
	assert_int_equal(buildid_cache__root("/from/config", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/some/where");

	unsetenv("PERF_BUILDID_DIR");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(buildid_cache__root(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.debug");
	assert_int_equal(buildid_cache__root("", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.debug");
	/* perf's buildid.dir, read by the recorder at start-up. */
	assert_int_equal(buildid_cache__root("/from/config", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/from/config");
	/* No file is read here: PERF_CONFIG means nothing to the writer. */
	setenv("PERF_CONFIG", "/nonexistent/fifo", 1);
	assert_int_equal(buildid_cache__root(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.debug");
	unsetenv("PERF_CONFIG");
	unsetenv("HOME");
	assert_int_equal(buildid_cache__root(NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, ".debug");
	/* The variable still wins: perf sets it for the commands it runs. */
	setenv("PERF_BUILDID_DIR", "/env", 1);
	assert_int_equal(buildid_cache__root("/from/config", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/env");
	assert_int_equal(buildid_cache__root(NULL, buf, 3), -ENAMETOOLONG);
	unsetenv("PERF_BUILDID_DIR");
	assert_int_equal(buildid_cache__root("/from/config", buf, 5), -ENAMETOOLONG);
}

/* ---- the filler ---- */

struct fill {
	char dir[64]; /* the temp dir */
	char root[PATH_MAX]; /* dir/.debug */
	char exe[PATH_MAX]; /* this test's binary */
	struct build_id bid; /* its id */
	char sbid[SBUILD_ID_LEN];
};

static int fill_setup(void **state)
{
	struct fill *f = calloc(1, sizeof(*f));
	char *real = realpath("/proc/self/exe", NULL);

	if (!f || !real)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/prec-bidcache.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->root, sizeof(f->root), "%s/.debug", f->dir);
	snprintf(f->exe, sizeof(f->exe), "%s", real);
	free(real);
	if (buildid__read_file(f->exe, &f->bid))
		return -1;
	buildid__snprintf(&f->bid, f->sbid, sizeof(f->sbid));
	*state = f;
	return 0;
}

static int fill_teardown(void **state)
{
	struct fill *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return (mode_t)-1;
	return st.st_mode;
}

static void assert_link(const char *link, const char *target)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(link, buf, sizeof(buf) - 1);

	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, target);
}

static void assert_same_bytes(const char *a, const void *b, size_t len)
{
	char *buf = malloc(len + 1);
	int fd = open(a, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, len + 1), (ssize_t)len);
	assert_memory_equal(buf, b, len);
	close(fd);
	free(buf);
}

static void test_add_elf(void **state)
{
	struct fill *f = *state;
	struct buildid_cache c;
	struct buildid_cache_paths p;
	struct stat a, b;

	buildid_cache__init(&c, f->root);
	assert_int_equal(mkdir(f->root, 0755), 0);
	assert_int_equal(buildid_cache__add(&c, f->exe, &f->bid, BUILDID_CACHE_ELF), 0);
	assert_int_equal(buildid_cache__paths(f->root, f->exe, f->sbid, BUILDID_CACHE_ELF, &p), 0);
	/* A hard link where the file system allows it, as perf. */
	assert_int_equal(stat(f->exe, &a), 0);
	assert_int_equal(stat(p.file, &b), 0);
	if (a.st_dev == b.st_dev)
		assert_true(a.st_ino == b.st_ino);
	assert_int_equal(mode_of(p.dir), S_IFDIR | 0755);
	assert_int_equal(mode_of(p.probes), S_IFREG | 0644);
	assert_int_equal(b.st_size, a.st_size);
	assert_link(p.link, p.target);
	/* The link resolves to the entry. */
	assert_int_equal(stat(p.link, &b), 0);
	assert_true(S_ISDIR(b.st_mode));
	/* Again: nothing changes, no error. */
	assert_int_equal(buildid_cache__add(&c, f->exe, &f->bid, BUILDID_CACHE_ELF), 0);
	assert_link(p.link, p.target);
}

static void test_add_stale_and_gone(void **state)
{
	struct fill *f = *state;
	struct buildid_cache c;
	struct buildid_cache_paths p;
	struct build_id other = f->bid;
	char sbid[SBUILD_ID_LEN];

	other.data[0] ^= 0xff;
	buildid__snprintf(&other, sbid, sizeof(sbid));
	buildid_cache__init(&c, f->root);
	mkdir(f->root, 0755);
	/* The file now has another id: not cached under the recorded one. */
	assert_int_equal(buildid_cache__add(&c, f->exe, &other, BUILDID_CACHE_ELF), -ESTALE);
	assert_int_equal(buildid_cache__paths(f->root, f->exe, sbid, BUILDID_CACHE_ELF, &p), 0);
	assert_int_equal(access(p.file, F_OK), -1);
	assert_int_equal(access(p.link, F_OK), -1);
	assert_int_equal(buildid_cache__add(&c, "/nonexistent/lib.so", &f->bid, BUILDID_CACHE_ELF),
			 -ENOENT);
	assert_int_equal(buildid_cache__add(&c, f->exe, &(struct build_id){ .size = 0 },
					    BUILDID_CACHE_ELF),
			 -EINVAL);
}

static void test_add_kallsyms(void **state)
{
	static const char text[] = "ffffffff81000000 T _text\nffffffff81000040 T other\n";
	struct fill *f = *state;
	struct buildid_cache c;
	struct buildid_cache_paths p;
	char ks[PATH_MAX];
	FILE *fp;

	snprintf(ks, sizeof(ks), "%s/kallsyms", f->dir);
	fp = fopen(ks, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	buildid_cache__init(&c, f->root);
	c.kallsyms = ks;
	mkdir(f->root, 0755);
	assert_int_equal(
		buildid_cache__add(&c, "[kernel.kallsyms]", &f->bid, BUILDID_CACHE_KALLSYMS), 0);
	assert_int_equal(buildid_cache__paths(f->root, "[kernel.kallsyms]", f->sbid,
					      BUILDID_CACHE_KALLSYMS, &p),
			 0);
	assert_int_equal(mode_of(p.file), S_IFREG | 0755);
	assert_same_bytes(p.file, text, strlen(text));
	assert_link(p.link, p.target);
	/* perf keeps no probes file for the kernel, and leaves no temp file. */
	{
		char probes[PATH_MAX + 8], cmd[PATH_MAX + 64];

		snprintf(probes, sizeof(probes), "%s/probes", p.dir);
		assert_int_equal(access(probes, F_OK), -1);
		snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) = 1", p.dir);
		assert_int_equal(system(cmd), 0);
	}
}

static void test_add_vdso(void **state)
{
	struct fill *f = *state;
	struct buildid_cache c;
	struct buildid_cache_paths p;
	struct build_id bid, other;
	const void *image;
	size_t len;
	char sbid[SBUILD_ID_LEN];

	if (buildid__vdso_image(&image, &len) || buildid__from_elf(image, len, &bid))
		skip();
	buildid__snprintf(&bid, sbid, sizeof(sbid));
	buildid_cache__init(&c, f->root);
	mkdir(f->root, 0755);
	assert_int_equal(buildid_cache__add(&c, "[vdso]", &bid, BUILDID_CACHE_VDSO), 0);
	assert_int_equal(buildid_cache__paths(f->root, "[vdso]", sbid, BUILDID_CACHE_VDSO, &p), 0);
	/* perf links its mkstemp copy: 0600. */
	assert_int_equal(mode_of(p.file), S_IFREG | 0600);
	assert_same_bytes(p.file, image, len);
	assert_int_equal(mode_of(p.probes), S_IFREG | 0644);
	assert_link(p.link, p.target);
	/* Another id than this image's: refused. */
	other = bid;
	other.data[1] ^= 1;
	assert_int_equal(buildid_cache__add(&c, "[vdso]", &other, BUILDID_CACHE_VDSO), -ESTALE);
}

static void test_add_debug_and_copy(void **state)
{
	struct fill *f = *state;
	struct buildid_cache c;
	struct buildid_cache_paths p;
	char dbg[PATH_MAX], path[PATH_MAX + 64], shm[] = "/dev/shm/prec-bidcache.XXXXXX";
	struct stat st;
	FILE *fp;

	/* A distro debuginfo tree: /usr/lib/debug/.build-id/xx/rest.debug. */
	snprintf(dbg, sizeof(dbg), "%s/debug", f->dir);
	snprintf(path, sizeof(path), "mkdir -p '%s/.build-id/%.2s'", dbg, f->sbid);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", dbg, f->sbid, f->sbid + 2);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("debuginfo", fp);
	fclose(fp);
	/* A root on another file system: link() fails, perf copies with 0755. */
	if (!mkdtemp(shm))
		skip();
	buildid_cache__init(&c, shm);
	c.debug_dir = dbg;
	assert_int_equal(buildid_cache__add(&c, f->exe, &f->bid, BUILDID_CACHE_ELF), 0);
	assert_int_equal(buildid_cache__paths(shm, f->exe, f->sbid, BUILDID_CACHE_ELF, &p), 0);
	assert_int_equal(stat(p.file, &st), 0);
	assert_int_equal(st.st_mode, S_IFREG | 0755);
	assert_same_bytes(p.debug, "debuginfo", 9);
	assert_link(p.link, p.target);
	snprintf(path, sizeof(path), "rm -rf '%s'", shm);
	assert_int_equal(system(path), 0);
}

static void test_add_list(void **state)
{
	struct fill *f = *state;
	struct buildid_cache c;
	struct writer_buildid v[3];
	char nested[PATH_MAX + 16];

	memset(v, 0, sizeof(v));
	v[0].size = f->bid.size;
	memcpy(v[0].id, f->bid.data, f->bid.size);
	v[0].filename = f->exe;
	v[1] = v[0];
	v[1].filename = "[ext4]"; /* a module known by name only: skipped */
	v[2] = v[0];
	v[2].filename = "/nonexistent/lib.so";
	buildid_cache__init(&c, f->root);
	/* The root is made (one level, as perf). */
	assert_int_equal(buildid_cache__add_list(&c, v, 3), 1);
	assert_int_equal(mode_of(f->root), S_IFDIR | 0755);
	assert_int_equal(buildid_cache__add_list(&c, v, 0), 0);
	/* A root whose parent is missing: nothing, no crash. */
	snprintf(nested, sizeof(nested), "%s/no/such", f->dir);
	buildid_cache__init(&c, nested);
	assert_int_equal(buildid_cache__add_list(&c, v, 1), 0);
	assert_int_equal(access(nested, F_OK), -1);
}

/* ---- buildid_cache__add_from ---- */

/* A copy of src at dst; with flip, one byte of its build-id changed (so
 * another ELF, another id). */
static void copy_file(const char *src, const char *dst, const struct build_id *flip)
{
	int in = open(src, O_RDONLY), out;
	struct stat st;
	uint8_t *buf;

	assert_true(in >= 0);
	assert_int_equal(fstat(in, &st), 0);
	buf = malloc((size_t)st.st_size);
	assert_non_null(buf);
	assert_int_equal(read(in, buf, (size_t)st.st_size), st.st_size);
	close(in);
	if (flip) {
		uint8_t *at = memmem(buf, (size_t)st.st_size, flip->data, flip->size);

		assert_non_null(at);
		at[0] ^= 0xff;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	assert_true(out >= 0);
	assert_int_equal(write(out, buf, (size_t)st.st_size), st.st_size);
	close(out);
	free(buf);
}

/* The entry of name under f's id: its file's id and inode into *ino. */
static void assert_entry(struct fill *f, const char *name, ino_t *ino)
{
	struct buildid_cache_paths p;
	struct build_id got;
	struct stat st;

	assert_int_equal(buildid_cache__paths(f->root, name, f->sbid, BUILDID_CACHE_ELF, &p), 0);
	assert_int_equal(buildid__read_file(p.file, &got), 0);
	assert_int_equal(got.size, f->bid.size);
	assert_memory_equal(got.data, f->bid.data, f->bid.size);
	/* The id's link is the first entry's (an existing one stays). */
	assert_int_equal(stat(p.link, &st), 0);
	assert_int_equal(stat(p.file, &st), 0);
	*ino = st.st_ino;
}

static void test_add_from(void **state)
{
	struct fill *f = *state;
	struct buildid_cache c;
	struct buildid_cache_paths p;
	char src[PATH_MAX + 8], alt[PATH_MAX + 8], same[PATH_MAX + 8], gone[PATH_MAX + 8];
	char unclean[PATH_MAX + 16];
	struct stat st;
	ino_t ino;

	snprintf(src, sizeof(src), "%s/src", f->dir); /* the kept bytes, f's id */
	snprintf(alt, sizeof(alt), "%s/alt", f->dir); /* another build, another id */
	snprintf(same, sizeof(same), "%s/same", f->dir); /* name holding f's id */
	snprintf(gone, sizeof(gone), "%s/gone/lib.so", f->dir);
	copy_file(f->exe, src, NULL);
	copy_file(f->exe, alt, &f->bid);
	copy_file(f->exe, same, NULL);
	buildid_cache__init(&c, f->root);
	assert_int_equal(mkdir(f->root, 0755), 0);

	/* The path is gone: the bytes are source's. */
	assert_int_equal(buildid_cache__add_from(&c, gone, src, &f->bid), 0);
	assert_entry(f, gone, &ino);
	assert_int_equal(stat(src, &st), 0);
	assert_true(ino == st.st_ino);

	/* The path holds another build (replaced since): source's, filed under
	 * the path. */
	assert_int_equal(buildid_cache__add_from(&c, alt, src, &f->bid), 0);
	assert_entry(f, alt, &ino);
	assert_true(ino == st.st_ino);

	/* The path holds the same id: the path's own file, source unread. */
	assert_int_equal(buildid_cache__add_from(&c, same, alt, &f->bid), 0);
	assert_entry(f, same, &ino);
	assert_int_equal(stat(same, &st), 0);
	assert_true(ino == st.st_ino);

	/* Source holds another id: nothing filed. */
	snprintf(gone, sizeof(gone), "%s/gone/other.so", f->dir);
	assert_int_equal(buildid_cache__add_from(&c, gone, alt, &f->bid), -ESTALE);
	assert_int_equal(buildid_cache__paths(f->root, gone, f->sbid, BUILDID_CACHE_ELF, &p), 0);
	assert_int_equal(access(p.file, F_OK), -1);

	/* Names that are not absolute and clean, existing or not. */
	assert_int_equal(buildid_cache__add_from(&c, "gone/lib.so", src, &f->bid), -EINVAL);
	assert_int_equal(buildid_cache__add_from(&c, "/gone/../lib.so", src, &f->bid), -EINVAL);
	snprintf(unclean, sizeof(unclean), "%s/./alt", f->dir);
	assert_int_equal(buildid_cache__add_from(&c, unclean, src, &f->bid), -EINVAL);
	snprintf(unclean, sizeof(unclean), "%s//gone/x.so", f->dir);
	assert_int_equal(buildid_cache__add_from(&c, unclean, src, &f->bid), -EINVAL);
	assert_int_equal(buildid_cache__add_from(NULL, gone, src, &f->bid), -EINVAL);
	assert_int_equal(buildid_cache__add_from(&c, gone, src, &(struct build_id){ .size = 0 }),
			 -EINVAL);
}

/* A HEADER_BUILD_ID entry with a source: the cache reads the bytes there. */
static void test_add_list_source(void **state)
{
	struct fill *f = *state;
	struct buildid_cache c;
	struct writer_buildid v[2];
	char src[PATH_MAX + 8];
	struct stat st;
	ino_t ino;

	snprintf(src, sizeof(src), "%s/src", f->dir);
	copy_file(f->exe, src, NULL);
	memset(v, 0, sizeof(v));
	v[0].size = f->bid.size;
	memcpy(v[0].id, f->bid.data, f->bid.size);
	v[0].filename = "/nonexistent/prec/jitted-1.so";
	v[0].source = src;
	v[1] = v[0];
	v[1].source = NULL; /* the same name without a source: nothing to read */
	v[1].filename = "/nonexistent/prec/jitted-2.so";
	buildid_cache__init(&c, f->root);
	assert_int_equal(buildid_cache__add_list(&c, v, 2), 1);
	assert_entry(f, v[0].filename, &ino);
	assert_int_equal(stat(src, &st), 0);
	assert_true(ino == st.st_ino);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths_elf),
		cmocka_unit_test(test_paths_kernel_vdso),
		cmocka_unit_test(test_paths_hostile),
		cmocka_unit_test(test_paths_too_long),
		cmocka_unit_test(test_root),
		cmocka_unit_test_setup_teardown(test_add_elf, fill_setup, fill_teardown),
		cmocka_unit_test_setup_teardown(test_add_stale_and_gone, fill_setup, fill_teardown),
		cmocka_unit_test_setup_teardown(test_add_kallsyms, fill_setup, fill_teardown),
		cmocka_unit_test_setup_teardown(test_add_vdso, fill_setup, fill_teardown),
		cmocka_unit_test_setup_teardown(test_add_debug_and_copy, fill_setup, fill_teardown),
		cmocka_unit_test_setup_teardown(test_add_list, fill_setup, fill_teardown),
		cmocka_unit_test_setup_teardown(test_add_from, fill_setup, fill_teardown),
		cmocka_unit_test_setup_teardown(test_add_list_source, fill_setup, fill_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
