// SPDX-License-Identifier: GPL-2.0-only
/*
 * Taking an output path (writer/claim.c through writer__open and
 * writer_dir__create): a recording's directory moves to .old and a user's
 * own directory does not; while one writer has the path, a second is
 * refused with -EBUSY and nothing of the first's moves; once the first is
 * gone, the second takes the path and the first's recording becomes .old.
 * A claim never waits for a flock of the directory (another program's, or
 * a --threads recording's own), only for another claim in it, named.
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
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prec/mono_clock.h"
#include "prec/writer.h"
#include "prec/writer_dir.h"
#include "writer/claim.h"

/* What a claim that waits for nothing takes, with room for a loaded
 * machine; the old wait for a directory's flock was 2 s. */
#define NO_WAIT_MS 500

static char dir[64], path[128], old[160];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/prec-claim.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(old, sizeof(old), "%s.old", path);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(name, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool is_dir(const char *name)
{
	struct stat st;

	return !stat(name, &st) && S_ISDIR(st.st_mode);
}

static void test_recording_dir_moves(void **state)
{
	char name[200];
	struct writer *w;

	(void)state;
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(name, sizeof(name), "%s/data", path);
	put(name, "PERFILE2 and the rest");
	assert_int_equal(writer__open(&w, path), 0);
	assert_true(is_dir(old));
	writer__abort(w);
	/* abort put nothing back over .old, and removed only its own file */
	assert_true(is_dir(old));
	assert_int_equal(access(path, F_OK), -1);
}

static void test_own_dir_stays(void **state)
{
	char name[200];
	struct writer *w;
	struct writer_dir *d;

	(void)state;
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(name, sizeof(name), "%s/notes", path);
	put(name, "mine");
	assert_int_equal(writer__open(&w, path), -EISDIR);
	assert_int_equal(writer_dir__create(&d, path), -EISDIR);
	assert_int_equal(access(name, F_OK), 0);
	assert_int_equal(access(old, F_OK), -1);
}

static void test_second_writer_refused(void **state)
{
	struct writer *w, *w2;
	struct writer_dir *d, *d2;

	(void)state;
	assert_int_equal(writer__open(&w, path), 0);
	assert_int_equal(writer__begin(w, NULL, 0), 0);
	assert_int_equal(writer__open(&w2, path), -EBUSY);
	assert_int_equal(writer_dir__create(&d2, path), -EBUSY);
	assert_int_equal(access(old, F_OK), -1);
	assert_int_equal(writer__finish(w, NULL), 0);
	/* The first is done: the next takes the path, the first becomes .old. */
	assert_int_equal(writer_dir__create(&d, path), 0);
	assert_int_equal(access(old, F_OK), 0);
	assert_false(is_dir(old));
	assert_int_equal(writer__open(&w2, path), -EBUSY);
	writer_dir__abort(d);
}

/* A child that takes the directory dir as lock says (flock, or a claim,
 * held hold_ms after it says so; 0: until go is closed). Its pid. */
static pid_t child_holds(bool flocked, int hold_ms, int *go)
{
	int ready[2], wait_go[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(wait_go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int fd = flocked ? open(dir, O_RDONLY | O_DIRECTORY) : claim__lock_dir(path);

		if (fd < 0 || (flocked && flock(fd, LOCK_EX)))
			_exit(1);
		close(ready[0]);
		close(wait_go[1]);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		if (hold_ms)
			usleep(hold_ms * 1000);
		else
			(void)!read(wait_go[0], &c, 1);
		_exit(0);
	}
	close(ready[1]);
	close(wait_go[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	*go = wait_go[1];
	return pid;
}

static void child_done(pid_t pid, int go)
{
	int status;

	close(go);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && !WEXITSTATUS(status));
}

static void test_foreign_flock_costs_nothing(void **state)
{
	struct writer *w;
	uint64_t t0;
	int go;
	pid_t pid;

	(void)state;
	pid = child_holds(true, 0, &go);
	t0 = mono_clock__ns(false);
	assert_int_equal(writer__open(&w, path), 0);
	assert_true(mono_clock__elapsed_ns(t0) < NO_WAIT_MS * 1000000ULL);
	writer__abort(w);
	child_done(pid, go);
}

/* -o thatdir/perf.data while a --threads recording writes thatdir, which
 * it holds locked (flock) for as long as it records. */
static void test_recording_dir_costs_nothing(void **state)
{
	char inside[200];
	struct writer_dir *d;
	struct writer *w;
	uint64_t t0;

	(void)state;
	assert_int_equal(writer_dir__create(&d, path), 0);
	snprintf(inside, sizeof(inside), "%s/perf.data", path);
	t0 = mono_clock__ns(false);
	assert_int_equal(writer__open(&w, inside), 0);
	assert_true(mono_clock__elapsed_ns(t0) < NO_WAIT_MS * 1000000ULL);
	writer__abort(w);
	writer_dir__abort(d);
}

/* Another claim in the directory is waited for, and a wait past what a
 * person notices is named on stderr. */
static void test_other_claim_waited_for_and_named(void **state)
{
	char err[200], text[512] = "";
	struct writer *w;
	int saved, fd, go;
	uint64_t t0, ms;
	ssize_t n;
	pid_t pid;

	(void)state;
	snprintf(err, sizeof(err), "%s/stderr", dir);
	fd = open(err, O_CREAT | O_RDWR | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	pid = child_holds(false, 600, &go);
	t0 = mono_clock__ns(false);
	assert_int_equal(writer__open(&w, path), 0);
	ms = mono_clock__elapsed_ns(t0) / 1000000;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	child_done(pid, go);
	writer__abort(w);
	n = pread(fd, text, sizeof(text) - 1, 0);
	close(fd);
	assert_true(n > 0);
	assert_true(ms >= 400 && ms < 2000);
	assert_non_null(
		strstr(text, "waiting for another prec's claim of a name in '/tmp/prec-claim."));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_recording_dir_moves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_dir_stays, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_writer_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_flock_costs_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recording_dir_costs_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_claim_waited_for_and_named, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
