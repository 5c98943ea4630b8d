// SPDX-License-Identifier: GPL-2.0-only
/*
 * The write-all loop (base/write_all.c): every byte goes out across short
 * writes and EINTR (a pipe that a slow reader drains while a timer keeps
 * interrupting the writer), pwrite lands at its offset without moving the
 * file's, and a failing write says its errno and how much went out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "prec/write_all.h"

#define BIG (1u << 20) /* far more than a pipe holds: the writer must block */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

struct drain {
	int fd;
	size_t got;
	unsigned char *buf;
};

/* Reads the pipe to EOF in small pieces after a pause, so the writer blocks
 * on a full pipe while the timer fires. */
static void *drain__run(void *arg)
{
	struct drain *d = arg;
	struct timespec pause = { 0, 30 * 1000000L };
	ssize_t n;

	nanosleep(&pause, NULL);
	do {
		n = read(d->fd, d->buf + d->got, 4096);
		if (n > 0)
			d->got += (size_t)n;
	} while (n > 0 || (n < 0 && errno == EINTR));
	return NULL;
}

static void test_pipe_short_writes_and_eintr(void **state)
{
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART: EINTR */
	struct itimerval every = { { 0, 2000 }, { 0, 2000 } }, off = { { 0, 0 }, { 0, 0 } };
	unsigned char *out = malloc(BIG);
	struct drain d = { .buf = malloc(BIG) };
	pthread_t t;
	sigset_t alrm;
	size_t done = 0;
	int p[2];

	(void)state;
	assert_non_null(out);
	assert_non_null(d.buf);
	for (size_t i = 0; i < BIG; i++)
		out[i] = (unsigned char)(i * 7 + (i >> 12));
	assert_int_equal(pipe(p), 0);
	d.fd = p[0];
	sigaction(SIGALRM, &sa, NULL);
	/* The reader is born with SIGALRM blocked: every alarm hits the writer. */
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, NULL);
	assert_int_equal(pthread_create(&t, NULL, drain__run, &d), 0);
	pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);
	setitimer(ITIMER_REAL, &every, NULL);
	assert_int_equal(fd__write_all(p[1], out, BIG, &done), 0);
	setitimer(ITIMER_REAL, &off, NULL);
	close(p[1]);
	pthread_join(t, NULL);
	close(p[0]);
	assert_int_equal(done, BIG);
	assert_int_equal(d.got, BIG);
	assert_memory_equal(d.buf, out, BIG);
	/* The timer did interrupt the blocked writer (else this proved nothing
	 * about EINTR). */
	assert_true(alarms > 0);
	signal(SIGALRM, SIG_DFL);
	free(out);
	free(d.buf);
}

static void test_errors(void **state)
{
	char path[] = "/tmp/prec-write-all-XXXXXX";
	size_t done = 99;
	int fd = mkstemp(path), rd, p[2];

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	/* A read-only fd: the write's errno, nothing written. */
	rd = open("/dev/null", O_RDONLY);
	assert_true(rd >= 0);
	assert_int_equal(fd__write_all(rd, "x", 1, &done), -EBADF);
	assert_int_equal(done, 0);
	assert_int_equal(fd__pwrite_all(rd, "x", 1, 0), -EBADF);
	close(rd);
	/* A pipe nobody reads: EPIPE (with SIGPIPE ignored, as prec runs). */
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	assert_int_equal(fd__write_all(p[1], "abc", 3, NULL), -EPIPE);
	close(p[1]);
	signal(SIGPIPE, SIG_DFL);
	/* pwrite: no offset can be past INT64_MAX. */
	assert_int_equal(fd__pwrite_all(fd, "x", 1, UINT64_MAX), -EINVAL);
	/* Nothing to write is done at once, also on a bad fd. */
	assert_int_equal(fd__write_all(-1, "", 0, &done), 0);
	assert_int_equal(done, 0);
	close(fd);
}

static void test_pwrite_at_offset(void **state)
{
	char path[] = "/tmp/prec-write-all-XXXXXX", back[16] = { 0 };
	int fd = mkstemp(path);
	size_t done = 0;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(fd__write_all(fd, "0123456789", 10, &done), 0);
	assert_int_equal(done, 10);
	assert_int_equal(fd__pwrite_all(fd, "ab", 2, 3), 0);
	/* The file offset stays where write left it. */
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 10);
	assert_int_equal(fd__pwrite_all(fd, "XY", 2, 12), 0); /* past the end: a hole */
	assert_int_equal(pread(fd, back, sizeof(back), 0), 14);
	assert_memory_equal(back, "012ab56789\0\0XY", 14);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe_short_writes_and_eintr),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_pwrite_at_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
