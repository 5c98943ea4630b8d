// SPDX-License-Identifier: GPL-2.0-only
/*
 * proc_maps__parse_line on a table of real and hostile lines: the kernel's
 * own formats (anonymous, pseudo names, deleted files, spaces in names, huge
 * inode numbers, big device numbers) and every way a line can be broken;
 * proc_status__parse's NStgid (the process's pid in its own namespace) on
 * real and hostile status texts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "recorder/synth/proc_maps.h"
#include "recorder/synth/synthesize.h"
#include "recorder/targets/proc_status.h"

#define R PROT_READ
#define W PROT_WRITE
#define X PROT_EXEC
#define P MAP_PRIVATE
#define S MAP_SHARED

struct row {
	const char *line;
	int ret;
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min, prot, flags;
	const char *name; /* NULL: anonymous */
	bool deleted;
	size_t len; /* bytes of line given to the parser; 0: strlen */
};

/* clang-format off */
#define OK(l, s, e, pg, in, ma, mi, pr, fl, nm, del)                                        \
	{ .line = l, .ret = 0, .start = s, .end = e, .pgoff = pg, .ino = in, .maj = ma, .min = mi, \
	  .prot = pr, .flags = fl, .name = nm, .deleted = del }
/* a line holding a NUL on purpose: its whole literal is given */
#define OKN(l, s, e, pg, in, ma, mi, pr, fl, nm, del)                                       \
	{ .line = l, .ret = 0, .start = s, .end = e, .pgoff = pg, .ino = in, .maj = ma, .min = mi, \
	  .prot = pr, .flags = fl, .name = nm, .deleted = del, .len = sizeof(l) - 1 }
#define BAD(l) { .line = l, .ret = -EINVAL }

static const struct row rows[] = {
	/* the kernel's formats */
	OK("00400000-0040c000 r-xp 00000000 fd:01 41038                      /bin/cat\n",
	  0x400000, 0x40c000, 0, 41038, 0xfd, 1, R | X, P, "/bin/cat", false),
	OK("00400000-0040c000 r-xp 00000000 fd:01 41038                      /bin/cat",
	  0x400000, 0x40c000, 0, 41038, 0xfd, 1, R | X, P, "/bin/cat", false),
	OK("7f16ae388000-7f16ae389000 ---p 00000000 00:00 0 \n", 0x7f16ae388000ULL,
	  0x7f16ae389000ULL, 0, 0, 0, 0, 0, P, NULL, false),
	OK("7f16ae388000-7f16ae389000 ---p 00000000 00:00 0\n", 0x7f16ae388000ULL,
	  0x7f16ae389000ULL, 0, 0, 0, 0, 0, P, NULL, false),
	OK("7f16ae388000-7f16ae389000 rw-p 00000000 00:00 0", 0x7f16ae388000ULL,
	  0x7f16ae389000ULL, 0, 0, 0, 0, R | W, P, NULL, false),
	OK("7f16ae389000-7f16ae38c000 rw-p 00000000 00:00 0                          \n",
	  0x7f16ae389000ULL, 0x7f16ae38c000ULL, 0, 0, 0, 0, R | W, P, NULL, false),
	OK("7fffee27f000-7fffee2a0000 rw-p 00000000 00:00 0                          [stack]\n",
	  0x7fffee27f000ULL, 0x7fffee2a0000ULL, 0, 0, 0, 0, R | W, P, "[stack]", false),
	OK("555565071000-555565072000 rw-p 00000000 00:00 0                          [heap]\n",
	  0x555565071000ULL, 0x555565072000ULL, 0, 0, 0, 0, R | W, P, "[heap]", false),
	OK("7f16ae7af000-7f16ae7b1000 r-xp 00000000 00:00 0                          [vdso]\n",
	  0x7f16ae7af000ULL, 0x7f16ae7b1000ULL, 0, 0, 0, 0, R | X, P, "[vdso]", false),
	OK("7f16ae7a9000-7f16ae7ad000 r--p 00000000 00:00 0                          [vvar]\n",
	  0x7f16ae7a9000ULL, 0x7f16ae7ad000ULL, 0, 0, 0, 0, R, P, "[vvar]", false),
	OK("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n", 0xffffffffff600000ULL, 0xffffffffff601000ULL, 0, 0, 0, 0, X, P, "[vsyscall]", false),
	OK("7f16ae7bb000-7f16ae88e000 r-xp 0000a000 00:01 1024                       "
	  "/memfd:sealed-91173221a7ea (deleted)\n", 0x7f16ae7bb000ULL, 0x7f16ae88e000ULL, 0xa000, 1024, 0, 1, R | X, P,
	  "/memfd:sealed-91173221a7ea (deleted)", true),
	OK("7f0000000000-7f0000001000 r-xp 00001000 08:02 77 /tmp/a dir/lib x.so (deleted)\n",
	  0x7f0000000000ULL, 0x7f0000001000ULL, 0x1000, 77, 8, 2, R | X, P,
	  "/tmp/a dir/lib x.so (deleted)", true),
	OK("7f0000000000-7f0000001000 r-xp 00000000 08:02 77 /opt/My App/bin/my prog\n",
	  0x7f0000000000ULL, 0x7f0000001000ULL, 0, 77, 8, 2, R | X, P, "/opt/My App/bin/my prog",
	  false),
	/* a name that ends in spaces keeps them; the kernel prints them */
	OK("1000-2000 r-xp 00000000 08:02 77 /x  \n", 0x1000, 0x2000, 0, 77, 8, 2, R | X, P,
	  "/x  ", false),
	/* " (deleted)" alone is a name, not a deleted file */
	OK("1000-2000 r-xp 00000000 08:02 77  (deleted)\n", 0x1000, 0x2000, 0, 77, 8, 2, R | X,
	  P, "(deleted)", false),
	OK("1000-2000 rw-s 00000000 00:05 3 /dev/shm/ring\n", 0x1000, 0x2000, 0, 3, 0, 5, R | W,
	  S, "/dev/shm/ring", false),
	OK("1000-2000 rwxs 00000000 00:05 3 /dev/hugepages/buf\n", 0x1000, 0x2000, 0, 3, 0, 5,
	  R | W | X, S, "/dev/hugepages/buf", false),
	/* huge inode numbers, big device numbers, uppercase hex */
	OK("1000-2000 r-xp 00000000 103:02 18446744073709551615 /big\n", 0x1000, 0x2000, 0,
	  18446744073709551615ULL, 0x103, 2, R | X, P, "/big", false),
	OK("1000-2000 r-xp 00000000 fff:fffff 4294967296 /big\n", 0x1000, 0x2000, 0,
	  4294967296ULL, 0xfff, 0xfffff, R | X, P, "/big", false),
	OK("ABCDEF000-ABCDEF100 r-xp FFFFFFFFFFFFFFFF 0:0 1 /u\n", 0xabcdef000ULL,
	  0xabcdef100ULL, 0xffffffffffffffffULL, 1, 0, 0, R | X, P, "/u", false),
	OK("0-0 ---p 0 0:0 0\n", 0, 0, 0, 0, 0, 0, 0, P, NULL, false),
	/* a NUL ends the line as a newline does */
	OKN("1000-2000 r-xp 00000000 08:02 77 /a\0/b", 0x1000, 0x2000, 0, 77, 8, 2, R | X, P, "/a",
	    false),
	/* only the first line counts */
	OK("1000-2000 r-xp 00000000 08:02 77 /a\n3000-4000 r-xp 00000000 08:02 77 /b\n", 0x1000,
	  0x2000, 0, 77, 8, 2, R | X, P, "/a", false),

	/* malformed */
	BAD(""),
	BAD("\n"),
	BAD(" "),
	BAD("garbage"),
	BAD("00400000"),
	BAD("00400000-"),
	BAD("00400000-0040c000"),
	BAD("00400000-0040c000 "),
	BAD("00400000-0040c000 r-x"),
	BAD("00400000-0040c000 r-xp"),
	BAD("00400000-0040c000 r-xp "),
	BAD("00400000-0040c000 r-xp 00000000"),
	BAD("00400000-0040c000 r-xp 00000000 fd"),
	BAD("00400000-0040c000 r-xp 00000000 fd:"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01 "),
	BAD("00400000-0040c000 r-xp 00000000 fd:01 \n"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01 x /bin/cat"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01 41038x /bin/cat"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01 41038\t/bin/cat"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01 -1 /bin/cat"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01 18446744073709551616 /x"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01 99999999999999999999 /x"),
	BAD("00400000-0040c000 r-xq 00000000 fd:01 41038 /bin/cat"),
	BAD("00400000-0040c000 R-xp 00000000 fd:01 41038 /bin/cat"),
	BAD("00400000-0040c000 rx-p 00000000 fd:01 41038 /bin/cat"),
	BAD("00400000-0040c000 r-xpp 00000000 fd:01 41038 /bin/cat"),
	BAD("00400000-0040c000  r-xp 00000000 fd:01 41038 /bin/cat"),
	BAD("00400000 0040c000 r-xp 00000000 fd:01 41038 /bin/cat"),
	BAD("00400000-0040c000 r-xp 00000000 fd-01 41038 /bin/cat"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01:02 41038 /bin/cat"),
	BAD("00400000-0040c000 r-xp 0000000g fd:01 41038 /bin/cat"),
	BAD("0040000g-0040c000 r-xp 00000000 fd:01 41038 /bin/cat"),
	BAD("-0040c000 r-xp 00000000 fd:01 41038 /bin/cat"),
	BAD("00400000--0040c000 r-xp 00000000 fd:01 41038 /bin/cat"),
	BAD("0x400000-0x40c000 r-xp 00000000 fd:01 41038 /bin/cat"),
	/* start after end */
	BAD("0040c000-00400000 r-xp 00000000 fd:01 41038 /bin/cat"),
	/* wider than the field */
	BAD("10000000000000000-10000000000000001 r-xp 0 0:0 0"),
	BAD("0-1 r-xp 10000000000000000 0:0 0"),
	BAD("0-1 r-xp 0 100000000:0 0"),
	BAD("0-1 r-xp 0 0:100000000 0"),
	/* a newline inside the fields */
	BAD("00400000-0040c000 r-xp\n00000000 fd:01 41038 /bin/cat"),
	BAD("00400000-0040c000 r-xp 00000000 fd:01\n41038 /bin/cat"),
};

/* clang-format on */

static void test_rows(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		size_t len = r->len ? r->len : strlen(r->line);
		struct proc_map m;
		int ret;

		ret = proc_maps__parse_line(r->line, len, &m);
		if (ret != r->ret) {
			print_error("row %zu: ret %d, want %d (%s)\n", i, ret, r->ret, r->line);
			failed++;
			continue;
		}
		if (ret)
			continue;
		if (m.start != r->start || m.end != r->end || m.pgoff != r->pgoff ||
		    m.ino != r->ino || m.maj != r->maj || m.min != r->min || m.prot != r->prot ||
		    m.flags != r->flags || m.deleted != r->deleted) {
			print_error(
				"row %zu: fields %llx-%llx %llx %llu %x:%x prot %u flags %u del %d\n",
				i, (unsigned long long)m.start, (unsigned long long)m.end,
				(unsigned long long)m.pgoff, (unsigned long long)m.ino, m.maj,
				m.min, m.prot, m.flags, m.deleted);
			failed++;
			continue;
		}
		if (r->name ? (m.name_len != strlen(r->name) || !m.name ||
			       memcmp(m.name, r->name, m.name_len) || m.name < r->line ||
			       m.name + m.name_len > r->line + len) :
			      (m.name_len != 0)) {
			print_error("row %zu: name '%.*s' (%zu), want '%s'\n", i, (int)m.name_len,
				    m.name ? m.name : "", m.name_len, r->name ? r->name : "(anon)");
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* The length bounds the line: a truncated buffer is not read past. */
static void test_length_bounds(void **state)
{
	static const char line[] = "00400000-0040c000 r-xp 00000000 fd:01 41038 /bin/cat\n";
	struct proc_map m;
	size_t full = sizeof(line) - 1;

	(void)state;
	for (size_t len = 0; len <= full; len++) {
		int ret = proc_maps__parse_line(line, len, &m);

		/* complete from the inode's first digit on: an anonymous map */
		if (len < 39)
			assert_int_equal(ret, -EINVAL);
		else
			assert_int_equal(ret, 0);
		if (!ret && len >= 45)
			assert_int_equal(m.name_len, (len > 52 ? 52 : len) - 44);
	}
	assert_int_equal(proc_maps__parse_line(NULL, 10, &m), -EINVAL);
}

/* NStgid: the last number of its line, the innermost PID namespace's; the
 * Tgid without one or when the line holds no usable last number. */
static void test_status_nstgid(void **state)
{
	static const struct {
		const char *text;
		int ret;
		pid_t tgid, nstgid;
	} texts[] = {
		{ "Name:\tjava\nTgid:\t4242\nNgid:\t0\nPid:\t4242\nPPid:\t1\n"
		  "NStgid:\t4242\t17\t1\nNSpid:\t4242\t17\t1\nVmPeak:\t1 kB\n",
		  0, 4242, 1 },
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid:\t7\t99\n", 0, 7, 99 },
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid:\t7\n", 0, 7, 7 },
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid: 7 8", 0, 7, 8 }, /* no newline */
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nVmPeak:\t1 kB\n", 0, 7, 7 }, /* old kernel */
		/* hostile: empty, blanks only, trailing blank, negative, zero,
		 * not a number, past int, the line before Tgid */
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid:\n", 0, 7, 7 },
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid:\t \t\n", 0, 7, 7 },
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid:\t7\t9 \n", 0, 7, 7 },
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid:\t7\t-9\n", 0, 7, 7 },
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid:\t7\t0\n", 0, 7, 7 },
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid:\t7\tabc\n", 0, 7, 7 },
		{ "Name:\tx\nTgid:\t7\nPPid:\t1\nNStgid:\t7\t99999999999\n", 0, 7, 7 },
		{ "NStgid:\t5\t6\nName:\tx\nTgid:\t7\nPPid:\t1\n", 0, 7, 7 },
		{ "NStgid:\t5\t6\n", -ESRCH, -1, -1 },
		{ "", -ESRCH, -1, -1 },
		{ "NStgid:", -ESRCH, -1, -1 },
	};
	struct proc_status st;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		int ret = proc_status__parse(texts[i].text, &st);

		/* Without a Tgid only the error counts. */
		if (ret != texts[i].ret || st.tgid != texts[i].tgid ||
		    (!ret && st.nstgid != texts[i].nstgid))
			fail_msg("row %zu: ret %d tgid %d nstgid %d, want %d %d %d", i, ret,
				 (int)st.tgid, (int)st.nstgid, texts[i].ret, (int)texts[i].tgid,
				 (int)texts[i].nstgid);
	}
}

/* The Threads line: a process lives while a thread of it does, its
 * leader's exit notwithstanding (the names reader's question). */
static void test_status_threads(void **state)
{
	static const struct {
		const char *text;
		int threads;
	} texts[] = {
		{ "Name:\tnode\nState:\tS (sleeping)\nTgid:\t9\nPPid:\t1\nVmPeak:\t1 kB\n"
		  "Threads:\t7\n",
		  7 },
		{ "Name:\tx\nState:\tZ (zombie)\nTgid:\t9\nPPid:\t1\nThreads:\t3\n", 3 },
		{ "Name:\tx\nTgid:\t9\nPPid:\t1\nThreads:\t1\n", 1 },
		{ "Name:\tx\nTgid:\t9\nPPid:\t1\n", -1 }, /* none */
		{ "Name:\tx\nTgid:\t9\nPPid:\t1\nThreads:\tabc\n", -1 },
	};
	struct proc_status st;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		assert_int_equal(proc_status__parse(texts[i].text, &st), 0);
		if (st.threads != texts[i].threads)
			fail_msg("row %zu: threads %d, want %d", i, st.threads, texts[i].threads);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_length_bounds),
		cmocka_unit_test(test_status_nstgid),
		cmocka_unit_test(test_status_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
