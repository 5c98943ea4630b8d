// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kallsyms scan that stands on the build-id cache's copy
 * (recorder/synth/kallsyms_cached.c): _etext and _edata move with this boot's
 * _text by the copy's distances; any missing piece means the full scan
 * (-EAGAIN), a missing _edata only a map that ends at _etext.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "recorder/synth/synthesize.h"

static const char copy_text[] = "0000000000000000 A fixed_percpu_data\n"
				"ffffffff81000000 T startup_64\n"
				"ffffffff81000000 T _text\n"
				"ffffffff81001000 t foo\n"
				"ffffffff8220bb08 T _etext\n"
				"ffffffffc0000000 t mod_fn\t[mod]\n";

/* A KALLSYMS_ALL kernel's copy: data symbols, _edata after _etext. */
static const char copy_all[] = "ffffffff81000000 T _text\n"
			       "ffffffff8220bb08 T _etext\n"
			       "ffffffff82400000 D __start_rodata\n"
			       "ffffffff83600000 d my_edata\n"
			       "ffffffff8372a000 D _edata\n"
			       "ffffffff84000000 B _end\n"
			       "ffffffffc0000000 d _edata\t[mod]\n";

static void test_text_range(void **state)
{
	uint64_t t, e, d;
	char buf[256];

	(void)state;
	assert_int_equal(kallsyms__text_range(copy_text, strlen(copy_text), &t, &e, &d), 0);
	assert_int_equal(t, 0xffffffff81000000ull);
	assert_int_equal(e, 0xffffffff8220bb08ull);
	assert_int_equal(d, 0); /* no KALLSYMS_ALL: no _edata */
	assert_int_equal(kallsyms__text_range(copy_all, strlen(copy_all), &t, &e, &d), 0);
	assert_int_equal(e, 0xffffffff8220bb08ull);
	assert_int_equal(d, 0xffffffff8372a000ull);
	/* A module's _edata and a name that only ends like it are not the kernel's. */
	snprintf(buf, sizeof(buf),
		 "ffffffff81000000 T _text\nffffffff82000000 T _etext\n"
		 "ffffffff83000000 d my_edata\nffffffffc0000000 d _edata\t[mod]\n");
	assert_int_equal(kallsyms__text_range(buf, strlen(buf), &t, &e, &d), 0);
	assert_int_equal(d, 0);
	/* _edata alone is not enough: _etext is still needed. */
	snprintf(buf, sizeof(buf), "ffffffff81000000 T _text\nffffffff8372a000 D _edata\n");
	assert_int_equal(kallsyms__text_range(buf, strlen(buf), &t, &e, &d), -ENOENT);
	/* No _etext, a hidden address, a name that only ends like it. */
	snprintf(buf, sizeof(buf), "ffffffff81000000 T _text\nffffffff81000010 T my_etext\n");
	assert_int_equal(kallsyms__text_range(buf, strlen(buf), &t, &e, &d), -ENOENT);
	snprintf(buf, sizeof(buf), "0000000000000000 T _text\n0000000000000000 T _etext\n");
	assert_int_equal(kallsyms__text_range(buf, strlen(buf), &t, &e, &d), -ENOENT);
	assert_int_equal(kallsyms__text_range("", 0, &t, &e, &d), -ENOENT);
}

static void put_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static bool bpf_programs_absent(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	return syscall(__NR_bpf, BPF_PROG_GET_NEXT_ID, &attr, sizeof(attr)) < 0 && errno == ENOENT;
}

/* The copy at path from a KALLSYMS_ALL kernel: _edata moves with _text too. */
static void check_edata_copy(const char *path, const char *proc, const char *sys)
{
	struct kallsyms_scan ks;

	put_file(path, copy_all, strlen(copy_all));
	assert_int_equal(kallsyms__scan_cached(proc, sys, NULL, &ks), 0);
	assert_int_equal(ks.etext, 0xffffffff83000000ull + 0x120bb08);
	assert_int_equal(ks.have_edata, 1);
	assert_int_equal(ks.edata, 0xffffffff83000000ull + 0x272a000);
	kallsyms_scan__exit(&ks);
	put_file(path, copy_text, strlen(copy_text));
}

/* A fixture machine: sys/kernel/notes with a build-id, proc/kallsyms of a
 * boot that moved the kernel by 0x2000000, and a cache root. */
static void test_scan_cached(void **state)
{
	static const unsigned char note[] = {
		4,    0,    0,	  0,	20,   0,    0,	  0,	3,    0,    0,	  0,
		'G',  'N',  'U',  0,	0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43,
		0x7a, 0xbc, 0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9
	};
	static const char live[] = "0000000000000000 A fixed_percpu_data\n"
				   "ffffffff83000000 T startup_64\n"
				   "ffffffff83000000 T _text\n";
	char dir[] = "/tmp/prec-ksc-XXXXXX", path[512];
	struct kallsyms_scan ks;
	int ret;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sys", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/kernel", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/kernel/notes", dir);
	put_file(path, note, sizeof(note));
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/kallsyms", dir);
	put_file(path, live, strlen(live));
	snprintf(path, sizeof(path), "%s/cache", dir);
	setenv("PERF_BUILDID_DIR", path, 1);

	char proc[256], sys[256];

	snprintf(proc, sizeof(proc), "%s/proc", dir);
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	/* No copy in the cache yet: the full scan. */
	assert_int_equal(kallsyms__scan_cached(proc, sys, NULL, &ks), -EAGAIN);

	snprintf(path, sizeof(path), "%s/cache", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/cache/[kernel.kallsyms]", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path),
		 "%s/cache/[kernel.kallsyms]/4a5a9b0affb66c437abcd455d2738af879985fa9", dir);
	mkdir(path, 0755);
	strcat(path, "/kallsyms");
	put_file(path, copy_text, strlen(copy_text));
	ret = kallsyms__scan_cached(proc, sys, NULL, &ks);
	if (bpf_programs_absent()) {
		assert_int_equal(ret, 0);
		assert_int_equal(ks.text, 0xffffffff83000000ull);
		assert_int_equal(ks.etext, 0xffffffff83000000ull + 0x120bb08);
		assert_int_equal(ks.have_edata, 0);
		assert_int_equal(ks.nr_images, 0);
		check_edata_copy(path, proc, sys);
	} else {
		/* Programs loaded (or bpf() refused): their images need the full read. */
		assert_int_equal(ret, -EAGAIN);
	}
	kallsyms_scan__exit(&ks);
	/* perf's buildid.dir, as the options pass it, finds the same copy;
	 * without it (and $HOME's cache empty) there is none. */
	unsetenv("PERF_BUILDID_DIR");
	snprintf(path, sizeof(path), "%s/cache", dir);
	assert_int_equal(kallsyms__scan_cached(proc, sys, path, &ks), ret);
	kallsyms_scan__exit(&ks);
	{
		char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;

		setenv("HOME", dir, 1);
		assert_int_equal(kallsyms__scan_cached(proc, sys, NULL, &ks), -EAGAIN);
		kallsyms_scan__exit(&ks);
		if (home)
			setenv("HOME", home, 1);
		else
			unsetenv("HOME");
		free(home);
	}
	setenv("PERF_BUILDID_DIR", path, 1);

	/* kptr_restrict: this boot's _text reads as zero. */
	snprintf(path, sizeof(path), "%s/proc/kallsyms", dir);
	put_file(path, "0000000000000000 T _text\n", 25);
	assert_int_equal(kallsyms__scan_cached(proc, sys, NULL, &ks), -EAGAIN);
	unsetenv("PERF_BUILDID_DIR");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_range),
		cmocka_unit_test(test_scan_cached),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
