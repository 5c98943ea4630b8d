// SPDX-License-Identifier: GPL-2.0-only
/*
 * --aio's write queue (writer/aio.c): spans split over blocks and written at
 * their offsets, blocks reused in turn, short writes resumed, errors kept,
 * through fake aio calls over a memory "file"; then the real aio_write on a
 * temp file.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "writer/aio.h"

/* The fake: each write happens at once (up to short_max bytes of it), or
 * fails with fail_errno; error() says EINPROGRESS busy_checks times first. */
static uint8_t file[4096];
static size_t short_max;
static int fail_errno, start_errno, busy_checks, suspends, starts;
/* Each control block's result, by its address (the queue has a few). */
static struct {
	const struct aiocb *cb;
	ssize_t n;
} results[8];

static ssize_t *result_of(const struct aiocb *cb)
{
	for (int i = 0; i < 8; i++) {
		if (results[i].cb == cb || !results[i].cb) {
			results[i].cb = cb;
			return &results[i].n;
		}
	}
	fail();
	return NULL;
}

static int fake_write(struct aiocb *cb)
{
	size_t n = cb->aio_nbytes < short_max ? cb->aio_nbytes : short_max;

	starts++;
	if (start_errno) {
		errno = start_errno;
		return -1;
	}
	if (fail_errno) {
		*result_of(cb) = -1;
		return 0;
	}
	assert_true((size_t)cb->aio_offset + n <= sizeof(file));
	memcpy(file + cb->aio_offset, (const void *)cb->aio_buf, n);
	*result_of(cb) = (ssize_t)n;
	return 0;
}

static int fake_error(const struct aiocb *cb)
{
	if (busy_checks > 0) {
		busy_checks--;
		return EINPROGRESS;
	}
	return *result_of(cb) < 0 ? fail_errno : 0;
}

static ssize_t fake_result(struct aiocb *cb)
{
	return *result_of(cb);
}

static int fake_suspend(const struct aiocb *const list[], int nr, const struct timespec *t)
{
	(void)list;
	(void)nr;
	(void)t;
	suspends++;
	return 0;
}

static const struct aio_ops fake_ops = { fake_write, fake_error, fake_result, fake_suspend };

static int reset(void **state)
{
	(void)state;
	memset(file, 0, sizeof(file));
	short_max = SIZE_MAX;
	fail_errno = start_errno = busy_checks = suspends = starts = 0;
	memset(results, 0, sizeof(results));
	return 0;
}

static const char text[] = "abcdefghijklmnopqrstuvwxyz";

/* 20 bytes in 3 spans over blocks of 8: three writes at 100, 108, 116, the
 * third in block 0 again once its first write is done. */
static void test_split_and_order(void **state)
{
	struct aio_queue *q;
	struct iovec iov[3] = {
		{ (void *)text, 5 }, { (void *)(text + 5), 0 }, { (void *)(text + 5), 15 },
	};

	(void)state;
	assert_int_equal(aio_queue__new(&q, 3, 2, 8, &fake_ops), 0);
	busy_checks = 1; /* block 0 is still busy when it is wanted again */
	assert_int_equal(aio_queue__writev(q, iov, 3, 100), 0);
	assert_int_equal(starts, 3);
	assert_int_equal(suspends, 1);
	assert_int_equal(q->next, 1);
	assert_int_equal(aio_queue__writev(q, iov, 1, 120), 0);
	assert_int_equal(aio_queue__sync(q), 0);
	assert_memory_equal(file + 100, text, 20);
	assert_memory_equal(file + 120, text, 5);
	assert_int_equal(file[99], 0);
	assert_int_equal(file[125], 0);
	aio_queue__delete(q);
}

/* Each write takes at most 3 bytes: the rest is written from where it
 * stopped, at the right offset. */
static void test_short_writes_resumed(void **state)
{
	struct aio_queue *q;
	struct iovec iov = { (void *)text, 26 };

	(void)state;
	short_max = 3;
	assert_int_equal(aio_queue__new(&q, 3, 2, 10, &fake_ops), 0);
	assert_int_equal(aio_queue__writev(q, &iov, 1, 0), 0);
	assert_int_equal(aio_queue__sync(q), 0);
	assert_memory_equal(file, text, 26);
	assert_true(starts >= 9); /* 10 -> 4 writes, 10 -> 4, 6 -> 2 */
	aio_queue__delete(q);
}

/* A write that fails: the sync says so, and so does every later call. */
static void test_error_kept(void **state)
{
	struct aio_queue *q;
	struct iovec iov = { (void *)text, 4 };

	(void)state;
	assert_int_equal(aio_queue__new(&q, 3, 1, 8, &fake_ops), 0);
	fail_errno = ENOSPC;
	assert_int_equal(aio_queue__writev(q, &iov, 1, 0), 0); /* queued */
	assert_int_equal(aio_queue__sync(q), -ENOSPC);
	fail_errno = 0;
	assert_int_equal(aio_queue__writev(q, &iov, 1, 8), -ENOSPC);
	assert_int_equal(aio_queue__sync(q), -ENOSPC);
	aio_queue__delete(q);

	/* One that cannot even start. */
	assert_int_equal(aio_queue__new(&q, 3, 1, 8, &fake_ops), 0);
	start_errno = EBADF;
	assert_int_equal(aio_queue__writev(q, &iov, 1, 0), -EBADF);
	assert_int_equal(q->err, -EBADF);
	aio_queue__delete(q);

	assert_int_equal(aio_queue__new(&q, 3, 0, 8, NULL), -EINVAL);
	assert_null(q);
	aio_queue__delete(NULL);
}

/* The real thing: POSIX aio on a temp file, more data than the blocks hold. */
static void test_libc_aio_file(void **state)
{
	char path[] = "/tmp/prec_aio_XXXXXX";
	int fd = mkstemp(path);
	struct aio_queue *q;
	static uint8_t data[300000], back[300000];
	struct iovec iov[2] = { { data, 100001 }, { data + 100001, sizeof(data) - 100001 } };

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 3);
	assert_int_equal(aio_queue__new(&q, fd, 3, 65536, NULL), 0);
	assert_int_equal(aio_queue__writev(q, iov, 2, 0), 0);
	assert_int_equal(aio_queue__writev(q, iov, 1, sizeof(data)), 0);
	assert_int_equal(aio_queue__sync(q), 0);
	aio_queue__delete(q);
	assert_int_equal(pread(fd, back, sizeof(back), 0), (ssize_t)sizeof(back));
	assert_memory_equal(back, data, sizeof(data));
	assert_int_equal(pread(fd, back, 100001, sizeof(data)), 100001);
	assert_memory_equal(back, data, 100001);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_split_and_order, reset),
		cmocka_unit_test_setup(test_short_writes_resumed, reset),
		cmocka_unit_test_setup(test_error_kept, reset),
		cmocka_unit_test_setup(test_libc_aio_file, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
