// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload: PATH resolution as execvp does it (against a fixture tree of
 * bin dirs made under mkdtemp), and the fork-corked / exec-on-go / exit
 * status life of a real child.
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prec/error.h"
#include "recorder/targets/workload.h"

/*
 * The fixture tree:
 *   bin1/prog    0755     bin2/prog    0755
 *   bin1/noexec  0644     bin2/noexec  0755
 *   bin1/dir/    (dir)    bin2/onlyx   0100
 *   cwd/local    0755
 */
struct tree {
	char root[64];
	char bin1[96], bin2[96], cwd[96];
	char oldcwd[PATH_MAX];
	char *oldpath;
};

static void put_file(const char *dir, const char *name, mode_t mode)
{
	char p[192];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
	close(fd);
	assert_int_equal(chmod(p, mode), 0);
}

static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	const char *path = getenv("PATH");
	char p[192];

	if (!t)
		return -1;
	strcpy(t->root, "/tmp/prec-test-workload-XXXXXX");
	if (!mkdtemp(t->root))
		return -1;
	snprintf(t->bin1, sizeof(t->bin1), "%s/bin1", t->root);
	snprintf(t->bin2, sizeof(t->bin2), "%s/bin2", t->root);
	snprintf(t->cwd, sizeof(t->cwd), "%s/cwd", t->root);
	if (mkdir(t->bin1, 0755) || mkdir(t->bin2, 0755) || mkdir(t->cwd, 0755))
		return -1;
	put_file(t->bin1, "prog", 0755);
	put_file(t->bin1, "noexec", 0644);
	snprintf(p, sizeof(p), "%s/dir", t->bin1);
	if (mkdir(p, 0755))
		return -1;
	put_file(t->bin2, "prog", 0755);
	put_file(t->bin2, "noexec", 0755);
	put_file(t->bin2, "onlyx", 0100);
	put_file(t->cwd, "local", 0755);
	if (!getcwd(t->oldcwd, sizeof(t->oldcwd)))
		return -1;
	t->oldpath = path ? strdup(path) : NULL;
	*state = t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	char cmd[160];

	if (t->oldpath)
		setenv("PATH", t->oldpath, 1);
	else
		unsetenv("PATH");
	free(t->oldpath);
	if (chdir(t->oldcwd))
		return -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

/* {PATH, file} -> {ret, path}; "@1" "@2" "@c" stand for bin1, bin2, cwd. */
struct resolve_row {
	const char *path; /* NULL: unset PATH */
	const char *file;
	int ret;
	const char *want; /* with the same placeholders; NULL when ret != 0 */
	const char *want_alt; /* another spelling of the same file, or NULL */
};

static const struct resolve_row resolve_rows[] = {
	/* PATH search */
	{ "@1:@2", "prog", 0, "@1/prog", NULL },
	{ "@2:@1", "prog", 0, "@2/prog", NULL },
	{ "/nonexistent-prec-dir:@1", "prog", 0, "@1/prog", NULL },
	{ "@1:@2", "noexec", 0, "@2/noexec", NULL }, /* skips the one without x, as execvp */
	{ "@1", "noexec", -EACCES, NULL, NULL },
	{ "@1", "dir", -EACCES, NULL, NULL },
	{ "@1:@2", "dir", -EACCES, NULL, NULL },
	{ "@1", "missing", -ENOENT, NULL, NULL },
	{ "@1:@2", "missing", -ENOENT, NULL, NULL },
	{ "@2", "onlyx", 0, "@2/onlyx", NULL }, /* an x bit is enough for root */
	{ "@1/prog:@2", "prog", 0, "@2/prog", NULL }, /* a PATH entry that is a file */
	{ "/nonexistent-prec-dir:/bin", "sh", 0, "/bin/sh", NULL },
	/* empty components mean the current directory */
	{ ":@1", "local", 0, "local", "./local" },
	{ "@1::@2", "local", 0, "local", "./local" },
	{ "@1:", "local", 0, "local", "./local" },
	{ "", "local", 0, "local", "./local" },
	{ "@1:", "missing", -ENOENT, NULL, NULL },
	/* with a slash: no search */
	{ "@1", "/bin/sh", 0, "/bin/sh", NULL },
	{ "@1", "./local", 0, "./local", NULL },
	{ "@1", "@1/prog", 0, "@1/prog", NULL },
	{ "@1", "/nonexistent", -ENOENT, NULL, NULL },
	{ "@1", "/nonexistent/sh", -ENOENT, NULL, NULL },
	{ "@1", "/etc/passwd", -EACCES, NULL, NULL },
	{ "@1", "/tmp", -EACCES, NULL, NULL },
	{ "@1", "/", -EACCES, NULL, NULL },
	{ "@1", "@1/noexec", -EACCES, NULL, NULL },
	{ "@1", "@1/dir", -EACCES, NULL, NULL },
	{ "@1", "@1/dir/", -EACCES, NULL, NULL },
	{ "/bin", "prog", -ENOENT, NULL, NULL }, /* not in PATH */
	{ "@1", "", -ENOENT, NULL, NULL },
	{ NULL, "", -ENOENT, NULL, NULL },
};

static void expand(const struct tree *t, const char *in, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (const char *p = in; *p && n < len - 1; p++) {
		const char *sub = NULL;

		if (p[0] == '@' && p[1] == '1')
			sub = t->bin1;
		else if (p[0] == '@' && p[1] == '2')
			sub = t->bin2;
		else if (p[0] == '@' && p[1] == 'c')
			sub = t->cwd;
		if (sub) {
			n += (size_t)snprintf(out + n, len - n, "%s", sub);
			p++;
		} else {
			out[n++] = *p;
			out[n] = '\0';
		}
	}
}

static void test_resolve_table(void **state)
{
	struct tree *t = *state;
	int failed = 0;

	assert_int_equal(chdir(t->cwd), 0);
	for (size_t i = 0; i < sizeof(resolve_rows) / sizeof(resolve_rows[0]); i++) {
		const struct resolve_row *r = &resolve_rows[i];
		char path[512], file[256], want[256], alt[256], buf[PATH_MAX];
		int ret;

		if (r->path) {
			expand(t, r->path, path, sizeof(path));
			setenv("PATH", path, 1);
		} else {
			unsetenv("PATH");
		}
		expand(t, r->file, file, sizeof(file));
		memset(buf, 0, sizeof(buf));
		ret = workload__resolve(file, buf, sizeof(buf));
		if (ret != r->ret) {
			print_error("row %zu ('%s' in '%s'): ret %d, want %d (buf '%s')\n", i,
				    r->file, r->path ? r->path : "(unset)", ret, r->ret, buf);
			failed++;
			continue;
		}
		if (ret)
			continue;
		expand(t, r->want, want, sizeof(want));
		expand(t, r->want_alt ? r->want_alt : r->want, alt, sizeof(alt));
		if (strcmp(buf, want) && strcmp(buf, alt)) {
			print_error("row %zu ('%s'): got '%s', want '%s'\n", i, r->file, buf, want);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* Unset PATH: a default search that finds sh. */
static void test_resolve_default_path(void **state)
{
	char buf[PATH_MAX];

	(void)state;
	unsetenv("PATH");
	assert_int_equal(workload__resolve("sh", buf, sizeof(buf)), 0);
	assert_true(buf[0] == '/');
	assert_non_null(strstr(buf, "/sh"));
	assert_int_equal(access(buf, X_OK), 0);
	assert_int_equal(workload__resolve("prec-no-such-command-xyz", buf, sizeof(buf)), -ENOENT);
}

static void test_resolve_too_long(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(workload__resolve("/bin/sh", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/bin/sh");
	assert_int_equal(workload__resolve("/usr/bin/sh", buf, sizeof(buf)), -ENAMETOOLONG);
}

/* ---- a real child ---- */

static sigset_t empty_mask(void)
{
	sigset_t m;

	sigemptyset(&m);
	return m;
}

static int run_child(char *const argv[], const sigset_t *mask, int *start_ret)
{
	struct workload w;

	assert_int_equal(workload__prepare(&w, argv, mask, false, NULL), 0);
	assert_true(w.pid > 0);
	assert_true(w.go_fd >= 0);
	assert_true(w.err_fd >= 0);
	assert_false(w.exited);
	*start_ret = workload__start(&w);
	assert_int_equal(w.go_fd, -1);
	assert_int_equal(w.err_fd, -1);
	assert_int_equal(workload__reap(&w, true), 1);
	assert_true(w.exited);
	/* Once reaped it stays reaped. */
	assert_int_equal(workload__reap(&w, true), 1);
	assert_int_equal(workload__reap(&w, false), 1);
	return w.status;
}

static void test_start_true(void **state)
{
	char *argv[] = { "true", NULL };
	sigset_t m = empty_mask();
	int ret, status;

	(void)state;
	status = run_child(argv, &m, &ret);
	assert_int_equal(ret, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_start_exit_status(void **state)
{
	char *argv[] = { "sh", "-c", "exit 7", NULL };
	sigset_t m = empty_mask();
	int ret, status;

	(void)state;
	status = run_child(argv, &m, &ret);
	assert_int_equal(ret, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
}

static void test_start_killed_by_signal(void **state)
{
	char *argv[] = { "sh", "-c", "kill -USR1 $$", NULL };
	sigset_t m = empty_mask();
	int ret, status;

	(void)state;
	status = run_child(argv, &m, &ret);
	assert_int_equal(ret, 0);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGUSR1);
}

static void test_start_missing_program(void **state)
{
	char *argv[] = { "/nonexistent/prec-no-such-program", NULL };
	sigset_t m = empty_mask();
	int ret, status;

	(void)state;
	status = run_child(argv, &m, &ret);
	assert_int_equal(ret, -ENOENT);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 127);
}

static void test_start_not_executable(void **state)
{
	struct tree *t = *state;
	char path[192];
	char *argv[] = { path, NULL };
	sigset_t m = empty_mask();
	int ret, status;

	snprintf(path, sizeof(path), "%s/noexec", t->bin1);
	status = run_child(argv, &m, &ret);
	assert_int_equal(ret, -EACCES);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 126);
}

/* The child uses PATH as execvp does (found in bin2 here). */
static void test_start_path_search(void **state)
{
	struct tree *t = *state;
	char *argv[] = { "prog", NULL };
	sigset_t m = empty_mask();
	int ret, status;

	setenv("PATH", t->bin2, 1);
	status = run_child(argv, &m, &ret);
	assert_int_equal(ret, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* The child restores the mask it was given before exec. */
static void test_start_sigmask(void **state)
{
	/* SIGUSR2 is signal 12: bit 11 of SigBlk. grep reads its own status. */
	char *argv[] = { "sh", "-c",
			 "exec grep -q '^SigBlk:[[:space:]]*0000000000000800$' /proc/self/status",
			 NULL };
	sigset_t m;
	int ret, status;

	(void)state;
	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	status = run_child(argv, &m, &ret);
	assert_int_equal(ret, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);

	/* And the empty mask gives an empty SigBlk (grep finds no 0x800). */
	sigemptyset(&m);
	status = run_child(argv, &m, &ret);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
}

/* At the open-file limit the corking pipes fail: -EMFILE and the one line
 * that names the fix, in e; no child, no fd left behind. */
static void test_prepare_no_fds(void **state)
{
	char *argv[] = { "true", NULL };
	struct prec_err e = PREC_ERR_INIT;
	sigset_t m = empty_mask();
	struct rlimit old, low;
	struct workload w;
	int fd, ret;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* the lowest free fd */
	assert_true(fd >= 0);
	close(fd);
	/* Room for one pipe end only. */
	low = old;
	low.rlim_cur = (rlim_t)fd + 1;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	ret = workload__prepare(&w, argv, &m, false, &e);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(ret, -EMFILE);
	assert_int_equal(w.pid, -1);
	assert_int_equal(e.code, -EMFILE);
	assert_string_equal(prec_err__msg(&e),
			    "cannot fork the workload: Too many open files (raise the open-file limit, e.g. ulimit -n 4096)");
	prec_err__clear(&e);
	/* Nothing the failure opened is left open. */
	assert_int_equal(open("/dev/null", O_RDONLY | O_CLOEXEC), fd);
	close(fd);
}

/* A corked child that is killed leaves without ever running its command. */
static void test_kill_corked(void **state)
{
	struct tree *t = *state;
	char marker[192], script[256];
	char *argv[] = { "sh", "-c", script, NULL };
	sigset_t m = empty_mask();
	struct workload w;

	snprintf(marker, sizeof(marker), "%s/ran", t->root);
	snprintf(script, sizeof(script), "echo > '%s'", marker);
	assert_int_equal(workload__prepare(&w, argv, &m, false, NULL), 0);
	/* Still corked: not exited. */
	assert_int_equal(workload__reap(&w, false), 0);
	assert_false(w.exited);
	workload__kill(&w, SIGKILL);
	assert_true(w.exited);
	assert_int_equal(w.go_fd, -1);
	assert_int_equal(w.err_fd, -1);
	/* It exited by itself on EOF, not by the signal, and did not exec. */
	assert_true(WIFEXITED(w.status));
	assert_int_equal(WEXITSTATUS(w.status), 0);
	assert_int_equal(access(marker, F_OK), -1);
	/* Killing again is harmless. */
	workload__kill(&w, SIGKILL);
	assert_true(w.exited);
}

/* A started child that runs on is killed with the given signal and reaped. */
static void test_kill_started(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	sigset_t m = empty_mask();
	struct workload w;

	(void)state;
	assert_int_equal(workload__prepare(&w, argv, &m, false, NULL), 0);
	assert_int_equal(workload__start(&w), 0);
	assert_int_equal(workload__reap(&w, false), 0);
	assert_false(w.exited);
	workload__kill(&w, SIGTERM);
	assert_true(w.exited);
	assert_true(WIFSIGNALED(w.status));
	assert_int_equal(WTERMSIG(w.status), SIGTERM);
	/* After it is gone, kill does nothing. */
	workload__kill(&w, SIGTERM);
}

/*
 * Pipe mode: the command's stdout is its stderr, so what it prints cannot
 * land in prec's stream; its stderr stays where it was.
 */
static void run_redirect(struct tree *t, bool redirect, const char *out, const char *err)
{
	char outp[192], errp[192], buf[64];
	char *argv[] = { "sh", "-c", "echo to-out; echo to-err >&2", NULL };
	sigset_t m = empty_mask();
	struct workload w;
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
	int fo, fe;
	ssize_t n;

	snprintf(outp, sizeof(outp), "%s/out", t->root);
	snprintf(errp, sizeof(errp), "%s/err", t->root);
	fo = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fo >= 0 && fe >= 0);
	/* The child inherits fds 1 and 2 from here, as from prec. */
	dup2(fo, STDOUT_FILENO);
	dup2(fe, STDERR_FILENO);
	assert_int_equal(workload__prepare(&w, argv, &m, redirect, NULL), 0);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	assert_int_equal(workload__start(&w), 0);
	assert_int_equal(workload__reap(&w, true), 1);
	close(fo);
	close(fe);

	fo = open(outp, O_RDONLY);
	n = read(fo, buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = '\0';
	close(fo);
	assert_string_equal(buf, out);
	fe = open(errp, O_RDONLY);
	n = read(fe, buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = '\0';
	close(fe);
	assert_string_equal(buf, err);
}

static void test_stdout_to_stderr(void **state)
{
	run_redirect(*state, true, "", "to-out\nto-err\n");
	run_redirect(*state, false, "to-out\n", "to-err\n");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, tree_setup, tree_teardown)

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		T(test_resolve_table),
		T(test_resolve_default_path),
		cmocka_unit_test(test_resolve_too_long),
		cmocka_unit_test(test_start_true),
		cmocka_unit_test(test_start_exit_status),
		cmocka_unit_test(test_start_killed_by_signal),
		cmocka_unit_test(test_start_missing_program),
		T(test_start_not_executable),
		T(test_start_path_search),
		cmocka_unit_test(test_start_sigmask),
		cmocka_unit_test(test_prepare_no_fds),
		T(test_kill_corked),
		cmocka_unit_test(test_kill_started),
		T(test_stdout_to_stderr),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
