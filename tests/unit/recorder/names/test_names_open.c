// SPDX-License-Identifier: GPL-2.0-only
/*
 * names_open.c against what a hostile container can put in its /tmp and its
 * root, built here in a scratch tree: links out to a "host" file (direct,
 * chained, absolute, through a /tmp that is itself a link), `..` escapes,
 * magic links, a FIFO (refused without blocking: an alarm fails a hang), a
 * directory, a socket, a foreign owner and a sparse file over the bound.
 * The foreign owner is made with chown as root; as another user the test's
 * own uid plays the owner and another uid the process's user.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "recorder/names/names.h"
#include "recorder/names/names_reader_int.h"

#define MAX (1ULL << 20)
#define HOST_TEXT "0x1000 10 HOST_SECRET_SYMBOL\n"
#define ROOT_TEXT "0x2000 20 inside_root\n"

struct tree {
	char top[PATH_MAX]; /* scratch: host/ and root/ below */
	char host_secret[PATH_MAX]; /* a "host" file outside the root */
	int root_fd, tmp_fd; /* root/ and root/tmp/ */
};

static void path_of(char *out, const struct tree *t, const char *rel)
{
	int n = snprintf(out, PATH_MAX, "%s/%s", t->top, rel);

	assert_true(n > 0 && n < PATH_MAX);
}

static void make_file(const struct tree *t, const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	path_of(p, t, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void make_dir(const struct tree *t, const char *rel)
{
	char p[PATH_MAX];

	path_of(p, t, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void make_link(const struct tree *t, const char *target, const char *rel)
{
	char p[PATH_MAX];

	path_of(p, t, rel);
	assert_int_equal(symlink(target, p), 0);
}

static void on_alarm(int sig)
{
	(void)sig;
	/* An open that blocks is the bug under test: fail loudly. */
	static const char msg[] = "test_names_open: an open blocked (FIFO?)\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

static int setup(void **state)
{
	static struct tree t;
	char p[PATH_MAX];

	snprintf(t.top, sizeof(t.top), "%s/prec-names-open.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(t.top))
		return -1;
	make_dir(&t, "host");
	make_dir(&t, "root");
	make_dir(&t, "root/tmp");
	make_file(&t, "host/secret", HOST_TEXT);
	path_of(t.host_secret, &t, "host/secret");
	path_of(p, &t, "root");
	t.root_fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	path_of(p, &t, "root/tmp");
	t.tmp_fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (t.root_fd < 0 || t.tmp_fd < 0)
		return -1;
	signal(SIGALRM, on_alarm);
	alarm(20);
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char cmd[PATH_MAX + 16];

	alarm(0);
	close(t->root_fd);
	close(t->tmp_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->top);
	return system(cmd) ? -1 : 0;
}

/* The first line of fd, which must be open. */
static void assert_reads(int fd, const char *want)
{
	char buf[256];
	ssize_t n;

	assert_true(fd >= 0);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	assert_true(n >= 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
	close(fd);
}

static void test_regular_file_opens(void **state)
{
	struct tree *t = *state;

	make_file(t, "root/tmp/perf-1.map", ROOT_TEXT);
	assert_reads(names_open__beneath(t->tmp_fd, "perf-1.map", getuid(), MAX), ROOT_TEXT);
	assert_reads(names_open__in_root(t->root_fd, "/tmp/perf-1.map"), ROOT_TEXT);
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-2.map", getuid(), MAX), -ENOENT);
}

static void test_links_refused_beneath(void **state)
{
	struct tree *t = *state;

	/* To the host file, absolute and relative, and a chain. */
	make_link(t, t->host_secret, "root/tmp/perf-10.map");
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-10.map", (uid_t)-1, MAX), -ELOOP);
	make_link(t, "../../host/secret", "root/tmp/perf-11.map");
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-11.map", (uid_t)-1, MAX), -ELOOP);
	make_file(t, "root/tmp/real.map", ROOT_TEXT);
	make_link(t, "real.map", "root/tmp/chain-b");
	make_link(t, "chain-b", "root/tmp/perf-12.map");
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-12.map", (uid_t)-1, MAX), -ELOOP);
	/* Not even a link that stays inside. */
	make_link(t, "real.map", "root/tmp/perf-13.map");
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-13.map", (uid_t)-1, MAX), -ELOOP);
	/* A name that climbs out is no name beneath. */
	assert_true(names_open__beneath(t->tmp_fd, "../../host/secret", (uid_t)-1, MAX) < 0);
	assert_true(names_open__beneath(t->tmp_fd, t->host_secret, (uid_t)-1, MAX) < 0);
}

static void test_magic_links_refused(void **state)
{
	struct tree *t = *state;
	char p[64];
	int host = open(t->host_secret, O_RDONLY | O_CLOEXEC), proc, self;

	assert_true(host >= 0);
	proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	self = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(proc >= 0 && self >= 0);
	snprintf(p, sizeof(p), "self/fd/%d", host);
	assert_int_equal(names_open__beneath(proc, p, (uid_t)-1, MAX), -ELOOP);
	snprintf(p, sizeof(p), "/proc/self/fd/%d", host);
	assert_int_equal(names_open__in_root(self, p), -ELOOP);
	assert_int_equal(names_open__dir_in_root(self, "/proc/self/root/tmp"), -ELOOP);
	close(host);
	close(proc);
	close(self);
}

static void test_fifo_refused_without_blocking(void **state)
{
	struct tree *t = *state;
	char p[PATH_MAX];

	path_of(p, t, "root/tmp/perf-20.map");
	assert_int_equal(mkfifo(p, 0644), 0);
	alarm(5);
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-20.map", (uid_t)-1, MAX), -EINVAL);
	assert_int_equal(names_open__in_root(t->root_fd, "/tmp/perf-20.map"), -EINVAL);
	alarm(20);
}

static void test_dir_and_socket_refused(void **state)
{
	struct tree *t = *state;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s, n;

	make_dir(t, "root/tmp/perf-21.map");
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-21.map", (uid_t)-1, MAX), -EINVAL);
	assert_int_equal(names_open__in_root(t->root_fd, "/tmp/perf-21.map"), -EINVAL);

	n = snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/root/tmp/perf-22.map", t->top);
	if (n <= 0 || (size_t)n >= sizeof(sa.sun_path))
		skip(); /* TMPDIR too deep for a socket's name */
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s >= 0);
	assert_int_equal(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	/* The kernel will not open a socket (-ENXIO): either way, no fd. */
	n = names_open__beneath(t->tmp_fd, "perf-22.map", (uid_t)-1, MAX);
	assert_true(n == -ENXIO || n == -EINVAL);
	n = names_open__in_root(t->root_fd, "/tmp/perf-22.map");
	assert_true(n == -ENXIO || n == -EINVAL);
	close(s);
}

static void test_foreign_owner_refused(void **state)
{
	struct tree *t = *state;
	uid_t me = getuid(), owner = me, user = me + 1000;
	char p[PATH_MAX];

	make_file(t, "root/tmp/perf-30.map", ROOT_TEXT);
	if (me == 0) {
		/* A file of uid 4242, read for a process of uid 4343. */
		path_of(p, t, "root/tmp/perf-30.map");
		assert_int_equal(chown(p, 4242, 4242), 0);
		owner = 4242;
		user = 4343;
	}
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-30.map", user, MAX), -EPERM);
	/* Its owner's process reads it, and so does "anyone" (uid -1). */
	assert_reads(names_open__beneath(t->tmp_fd, "perf-30.map", owner, MAX), ROOT_TEXT);
	assert_reads(names_open__beneath(t->tmp_fd, "perf-30.map", (uid_t)-1, MAX), ROOT_TEXT);
	if (me != 0)
		return;
	/* A root-owned file is anyone's process's. */
	path_of(p, t, "root/tmp/perf-30.map");
	assert_int_equal(chown(p, 0, 0), 0);
	assert_reads(names_open__beneath(t->tmp_fd, "perf-30.map", 4343, MAX), ROOT_TEXT);
}

static void test_size_bound(void **state)
{
	struct tree *t = *state;
	char p[PATH_MAX];
	int fd, in;

	path_of(p, t, "root/tmp/perf-40.map");
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	/* Sparse: costs no disk. At the bound it opens, one byte over not. */
	assert_int_equal(ftruncate(fd, (off_t)MAX), 0);
	assert_true(names_open__check(fd, (uid_t)-1, MAX) == 0);
	in = names_open__beneath(t->tmp_fd, "perf-40.map", (uid_t)-1, MAX);
	assert_true(in >= 0);
	close(in);
	assert_int_equal(ftruncate(fd, (off_t)MAX + 1), 0);
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-40.map", (uid_t)-1, MAX), -EFBIG);
	assert_int_equal(names_open__check(fd, (uid_t)-1, MAX), -EFBIG);
	/* Over 1 GiB, the default bound: still no read, no disk. */
	assert_int_equal(ftruncate(fd, (off_t)(NAMES_MAX_FILE + 4096)), 0);
	assert_int_equal(names_open__beneath(t->tmp_fd, "perf-40.map", (uid_t)-1, NAMES_MAX_FILE),
			 -EFBIG);
	/* 0: no bound. */
	assert_int_equal(names_open__check(fd, (uid_t)-1, 0), 0);
	close(fd);
}

static void test_in_root_stays_inside(void **state)
{
	struct tree *t = *state;

	make_dir(t, "root/etc");
	make_file(t, "root/etc/passwd", ROOT_TEXT);
	make_dir(t, "root/lib");
	make_file(t, "root/lib/real.so", ROOT_TEXT);
	/* `..` past the root stops at the root. */
	assert_reads(names_open__in_root(t->root_fd, "../../../../etc/passwd"), ROOT_TEXT);
	assert_reads(names_open__in_root(t->root_fd, "/tmp/../../../etc/passwd"), ROOT_TEXT);
	/* An absolute link inside the root resolves inside it. */
	make_link(t, "/lib/real.so", "root/lib/abs.so");
	assert_reads(names_open__in_root(t->root_fd, "/lib/abs.so"), ROOT_TEXT);
	/* A link to the host's path of the secret: that path, in the root. */
	make_link(t, t->host_secret, "root/lib/out.so");
	assert_int_equal(names_open__in_root(t->root_fd, "/lib/out.so"), -ENOENT);
	make_link(t, "../../../../../../../../etc/passwd", "root/lib/up.so");
	assert_reads(names_open__in_root(t->root_fd, "/lib/up.so"), ROOT_TEXT);
	/* The root's own path given as a path: not the root (no such dir). */
	assert_int_equal(names_open__in_root(t->root_fd, t->host_secret), -ENOENT);
}

static void test_tmp_is_a_link(void **state)
{
	struct tree *t = *state;
	struct stat in, got;
	char p[PATH_MAX];
	int root, tmp;

	/* A second root whose /tmp is a link to /var/tmp, then to the host. */
	make_dir(t, "root2");
	make_dir(t, "root2/var");
	make_dir(t, "root2/var/tmp");
	make_file(t, "root2/var/tmp/perf-1.map", ROOT_TEXT);
	make_link(t, "/var/tmp", "root2/tmp");
	path_of(p, t, "root2");
	root = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(root >= 0);
	tmp = names_open__dir_in_root(root, "tmp");
	assert_true(tmp >= 0);
	path_of(p, t, "root2/var/tmp");
	assert_int_equal(stat(p, &in), 0);
	assert_int_equal(fstat(tmp, &got), 0);
	assert_true(in.st_ino == got.st_ino && in.st_dev == got.st_dev);
	assert_reads(names_open__beneath(tmp, "perf-1.map", (uid_t)-1, MAX), ROOT_TEXT);
	close(tmp);

	/* /tmp -> the host's directory holding the secret: not reached. That
	 * path read in root2 starts with its /tmp, the link itself (a loop)
	 * when TMPDIR is /tmp, a missing directory otherwise. */
	path_of(p, t, "root2/tmp");
	assert_int_equal(unlink(p), 0);
	path_of(p, t, "host");
	make_link(t, p, "root2/tmp");
	tmp = names_open__dir_in_root(root, "tmp");
	assert_true(tmp == -ELOOP || tmp == -ENOENT);
	/* ... nor with `..` enough to climb out of any root: that is the
	 * root's /tmp, the link itself, a loop. */
	path_of(p, t, "root2/tmp");
	assert_int_equal(unlink(p), 0);
	make_link(t, "../../../../../../../../../../tmp", "root2/tmp");
	assert_int_equal(names_open__dir_in_root(root, "tmp"), -ELOOP);
	/* A file, not a directory. */
	path_of(p, t, "root2/tmp");
	assert_int_equal(unlink(p), 0);
	make_file(t, "root2/tmp", ROOT_TEXT);
	assert_int_equal(names_open__dir_in_root(root, "tmp"), -ENOTDIR);
	close(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_file_opens),
		cmocka_unit_test(test_links_refused_beneath),
		cmocka_unit_test(test_magic_links_refused),
		cmocka_unit_test(test_fifo_refused_without_blocking),
		cmocka_unit_test(test_dir_and_socket_refused),
		cmocka_unit_test(test_foreign_owner_refused),
		cmocka_unit_test(test_size_bound),
		cmocka_unit_test(test_in_root_stays_inside),
		cmocka_unit_test(test_tmp_is_a_link),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
