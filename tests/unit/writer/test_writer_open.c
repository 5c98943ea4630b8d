// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output file's life outside its contents: perf's .old backup, the mode,
 * refusing an unusable directory before touching anything, and abort.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prec/writer.h"

struct tdir {
	char dir[64];
	char path[128];
	char old[160];
};

static int tdir_setup(void **state)
{
	struct tdir *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->dir, "/tmp/prec-test-wopen-XXXXXX");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	snprintf(t->path, sizeof(t->path), "%s/perf.data", t->dir);
	snprintf(t->old, sizeof(t->old), "%s.old", t->path);
	*state = t;
	return 0;
}

static int tdir_teardown(void **state)
{
	struct tdir *t = *state;
	char cmd[128];

	chmod(t->dir, 0700);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file's contents as a string ("" for empty); NULL when it is missing. */
static char *get_file(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* F_GETFD flags of the one open fd of this process that points at path. */
static int fd_flags_of(const char *path)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int flags = -1;

	assert_non_null(d);
	while ((de = readdir(d))) {
		char target[256];
		ssize_t n = readlinkat(dirfd(d), de->d_name, target, sizeof(target) - 1);

		if (n <= 0)
			continue;
		target[n] = '\0';
		if (!strcmp(target, path))
			flags = fcntl(atoi(de->d_name), F_GETFD);
	}
	closedir(d);
	assert_true(flags >= 0);
	return flags;
}

static void test_new_file_mode(void **state)
{
	struct tdir *t = *state;
	struct writer *w;
	struct stat st;

	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(stat(t->path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_size, 0);
	assert_null(get_file(t->old));
	/* the fd must not leak into the forked workload */
	assert_int_equal(fd_flags_of(t->path) & FD_CLOEXEC, FD_CLOEXEC);
	assert_int_equal(writer__begin(w, NULL, 0), 0);
	assert_int_equal(writer__finish(w, NULL), 0);
	assert_int_equal(stat(t->path, &st), 0);
	assert_int_equal(st.st_size >= 104, 1);
}

static void test_rotates_nonempty(void **state)
{
	struct tdir *t = *state;
	struct writer *w;

	put_file(t->old, "older");
	put_file(t->path, "previous recording");
	assert_int_equal(writer__open(&w, t->path), 0);
	/* the previous file replaced the older .old */
	assert_string_equal(get_file(t->old), "previous recording");
	assert_string_equal(get_file(t->path), "");
	writer__abort(w);
	assert_null(get_file(t->path));
	assert_string_equal(get_file(t->old), "previous recording");
}

static void test_empty_not_rotated(void **state)
{
	struct tdir *t = *state;
	struct writer *w;

	put_file(t->path, "");
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_null(get_file(t->old));
	writer__abort(w);
}

static void test_missing_dir(void **state)
{
	struct tdir *t = *state;
	char path[192];
	struct writer *w = (struct writer *)0x1;

	snprintf(path, sizeof(path), "%s/no/such/dir/perf.data", t->dir);
	assert_int_equal(writer__open(&w, path), -ENOENT);
	assert_null(w);
	/* a file where a directory should be */
	put_file(t->path, "data");
	snprintf(path, sizeof(path), "%s/perf.data/perf.data", t->dir);
	assert_int_equal(writer__open(&w, path), -ENOTDIR);
	assert_string_equal(get_file(t->path), "data");
	assert_null(get_file(t->old));
}

static void test_bad_args(void **state)
{
	struct writer *w;

	(void)state;
	assert_int_equal(writer__open(&w, ""), -EINVAL);
	assert_int_equal(writer__open(&w, NULL), -EINVAL);
	assert_int_equal(writer__open(NULL, "x"), -EINVAL);
	writer__abort(NULL);
}

/* A directory that is not a directory we can write into: open() would fail,
 * so the existing file must stay where it is (not end up as .old). */
static void test_a_directory_as_path(void **state)
{
	struct tdir *t = *state;
	struct writer *w;

	assert_int_equal(mkdir(t->path, 0700), 0);
	assert_int_equal(writer__open(&w, t->path), -EISDIR);
	assert_null(get_file(t->old));
}

/*
 * An unwritable directory holding a previous recording: nothing is renamed.
 * Root writes anywhere, so the check runs as nobody in a child when we are
 * root, and in place otherwise.
 */
static void test_unwritable_dir(void **state)
{
	struct tdir *t = *state;
	struct writer *w;
	int status;
	pid_t pid;

	put_file(t->path, "previous recording");
	assert_int_equal(chmod(t->path, 0644), 0);
	assert_int_equal(chmod(t->dir, 0555), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int err;

		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(2);
		err = writer__open(&w, t->path);
		_exit(err == -EACCES ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(get_file(t->path), "previous recording");
	assert_null(get_file(t->old));
}

static void test_abort_unlinks(void **state)
{
	struct tdir *t = *state;
	struct writer *w;
	const char rec[8] = { 68, 0, 0, 0, 0, 0, 8, 0 };

	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, NULL, 0), 0);
	assert_int_equal(writer__write(w, rec, sizeof(rec)), 0);
	writer__abort(w);
	assert_int_equal(access(t->path, F_OK), -1);
	assert_int_equal(errno, ENOENT);
}

/*
 * A writev cut short inside a span (here by RLIMIT_FSIZE, as a full disk
 * would): the rest of the span is retried, the error comes back, it sticks to
 * every later write, and finish keeps what was whole (here nothing). In a child, so the
 * limit stays there.
 */
static void test_short_write_error_sticks(void **state)
{
	struct tdir *t = *state;
	int status;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { 104 + 100, 104 + 100 };
		static char span[2][64];
		struct iovec iov[2] = { { span[0], 64 }, { span[1], 64 } };
		struct writer *w;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(10);
		if (writer__open(&w, t->path) || writer__begin(w, NULL, 0))
			_exit(11);
		if (writer__writev(w, iov, 2) != -EFBIG)
			_exit(12);
		if (writer__write(w, span[0], 8) != -EFBIG)
			_exit(13);
		if (writer__writev(w, iov, 1) != -EFBIG)
			_exit(14);
		if (writer__finish(w, NULL) != -EFBIG)
			_exit(15);
		/* Kept, not removed: cut at the last whole record (none: the
		 * spans are not records), the features do not fit the limit,
		 * so a header that says no data. */
		struct stat st;
		_exit(!stat(t->path, &st) && st.st_size == 104 ? 0 : 16);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A recording with one record in it, then finish; 0 or what finish said. */
static int write_one(const char *path)
{
	const char rec[8] = { 68, 0, 0, 0, 0, 0, 8, 0 };
	struct writer *w;
	int err = writer__open(&w, path);

	if (err)
		return err;
	err = writer__begin(w, NULL, 0);
	if (!err)
		err = writer__write(w, rec, sizeof(rec));
	if (err) {
		writer__abort(w);
		return err;
	}
	return writer__finish(w, NULL);
}

/* A device node in the test directory (copies of /dev/null, /dev/full, or a
 * block device nobody has): tests run as root; without it they are skipped. */
static void make_node(const char *path, mode_t kind, unsigned int major, unsigned int minor)
{
	if (mknod(path, kind | 0600, makedev(major, minor)))
		skip();
}

/*
 * -o FIFO: never opened (with no reader it would block; with one, the header
 * patch at the end cannot seek), never removed or renamed: -ESPIPE.
 */
static void test_fifo_refused_and_kept(void **state)
{
	struct tdir *t = *state;
	struct writer *w = (struct writer *)0x1;
	struct stat st;

	assert_int_equal(mkfifo(t->path, 0600), 0);
	assert_int_equal(writer__open(&w, t->path), -ESPIPE);
	assert_null(w);
	assert_int_equal(lstat(t->path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_null(get_file(t->old));
}

/* A copy of /dev/null takes a whole recording (thrown away, as perf). */
static void test_devnull_works_and_stays(void **state)
{
	struct tdir *t = *state;
	struct stat st;

	make_node(t->path, S_IFCHR, 1, 3);
	assert_int_equal(write_one(t->path), 0);
	assert_int_equal(lstat(t->path, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

/* A copy of /dev/full: the write fails, and the failure removes nothing:
 * before, abort unlinked whatever -o named (with /dev/full itself, /dev/full). */
static void test_devfull_error_keeps_node(void **state)
{
	struct tdir *t = *state;
	struct stat st;

	make_node(t->path, S_IFCHR, 1, 7);
	assert_int_equal(write_one(t->path), -ENOSPC);
	assert_int_equal(lstat(t->path, &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(major(st.st_rdev), 1);
	assert_int_equal(minor(st.st_rdev), 7);
}

/* A block device is never written: -ENOTSUP before any open. The major is
 * one /proc/devices does not list, so even a regression writes nowhere. */
static void test_blockdev_refused(void **state)
{
	struct tdir *t = *state;
	struct writer *w;
	struct stat st;
	unsigned int m;
	char line[128], name[64];
	bool used[256] = { false };
	FILE *f = fopen("/proc/devices", "r");
	bool block = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Block devices:", 14))
			block = true;
		else if (block && sscanf(line, "%u %63s", &m, name) == 2 && m < 256)
			used[m] = true;
	}
	fclose(f);
	for (m = 254; m >= 240 && used[m]; m--)
		;
	assert_true(m >= 240);
	make_node(t->path, S_IFBLK, m, 0);
	assert_int_equal(writer__open(&w, t->path), -ENOTSUP);
	assert_int_equal(lstat(t->path, &st), 0);
	assert_true(S_ISBLK(st.st_mode));
}

/* The .old rename would delete what is at .old: a directory or a FIFO there
 * stops the open, and both names keep what they held. */
static void test_old_not_clobbered(void **state)
{
	struct tdir *t = *state;
	struct writer *w;
	struct stat st;

	put_file(t->path, "previous recording");
	assert_int_equal(mkdir(t->old, 0700), 0);
	assert_int_equal(writer__open(&w, t->path), -EISDIR);
	assert_string_equal(get_file(t->path), "previous recording");
	assert_int_equal(rmdir(t->old), 0);

	assert_int_equal(mkfifo(t->old, 0600), 0);
	assert_int_equal(writer__open(&w, t->path), -EEXIST);
	assert_string_equal(get_file(t->path), "previous recording");
	assert_int_equal(lstat(t->old, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

/* An empty file that was there is not prec's to delete: abort empties it. */
static void test_abort_empties_existing(void **state)
{
	struct tdir *t = *state;
	struct writer *w;
	struct stat st;

	put_file(t->path, "");
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, NULL, 0), 0);
	assert_int_equal(stat(t->path, &st), 0);
	assert_true(st.st_size > 0); /* the header is there: a torn file */
	writer__abort(w);
	assert_string_equal(get_file(t->path), "");
}

/* -o a symlink to a new file: abort removes the file it created, and the
 * user's symlink stays. */
static void test_abort_through_symlink(void **state)
{
	struct tdir *t = *state;
	char real[192];
	struct writer *w;
	struct stat st;

	snprintf(real, sizeof(real), "%s/real.data", t->dir);
	assert_int_equal(symlink(real, t->path), 0);
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, NULL, 0), 0);
	assert_int_equal(access(real, F_OK), 0);
	writer__abort(w);
	assert_int_equal(access(real, F_OK), -1);
	assert_int_equal(lstat(t->path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
}

/* A file someone else put at the path meanwhile is not the one to remove. */
static void test_abort_spares_replacement(void **state)
{
	struct tdir *t = *state;
	char other[192];
	struct writer *w;

	snprintf(other, sizeof(other), "%s/other", t->dir);
	assert_int_equal(writer__open(&w, t->path), 0);
	put_file(other, "someone else's");
	assert_int_equal(rename(other, t->path), 0);
	writer__abort(w);
	assert_string_equal(get_file(t->path), "someone else's");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_file_mode, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_rotates_nonempty, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_empty_not_rotated, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_missing_dir, tdir_setup, tdir_teardown),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test_setup_teardown(test_a_directory_as_path, tdir_setup,
						tdir_teardown),
		cmocka_unit_test_setup_teardown(test_unwritable_dir, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_abort_unlinks, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_short_write_error_sticks, tdir_setup,
						tdir_teardown),
		cmocka_unit_test_setup_teardown(test_fifo_refused_and_kept, tdir_setup,
						tdir_teardown),
		cmocka_unit_test_setup_teardown(test_devnull_works_and_stays, tdir_setup,
						tdir_teardown),
		cmocka_unit_test_setup_teardown(test_devfull_error_keeps_node, tdir_setup,
						tdir_teardown),
		cmocka_unit_test_setup_teardown(test_blockdev_refused, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_old_not_clobbered, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_abort_empties_existing, tdir_setup,
						tdir_teardown),
		cmocka_unit_test_setup_teardown(test_abort_through_symlink, tdir_setup,
						tdir_teardown),
		cmocka_unit_test_setup_teardown(test_abort_spares_replacement, tdir_setup,
						tdir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
