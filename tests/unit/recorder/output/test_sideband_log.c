// SPDX-License-Identifier: GPL-2.0-only
/*
 * The side-band log's replay (output/sideband_log.c) into memory
 * (synth_out.buf): the records of live processes come out in their order
 * and byte for byte, an exited process's still come out until a whole
 * pass (no size cut) began after its EXIT (its last samples may wait in
 * another CPU's ring until then), no EXIT is written, and an anonymous
 * executable MMAP2 is renamed through synth_out.anon_name (its JIT ELF,
 * pgoff = start, no device or inode, the same sample_id trailer) when that
 * answers, unchanged when it answers NULL or is not set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "prec/event.h"
#include "recorder/output/sideband_log.h"
#include "recorder/synth/synthesize.h"

#define JIT "/c/.debug/jit/jitted-100.so" /* 27 + NUL: 32 */

struct rec {
	uint8_t b[256];
	size_t n;
};

static void make_comm(struct rec *r, uint32_t pid)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16];
		uint64_t trailer[3];
	} c = { .h = { PERF_RECORD_COMM, 0, sizeof(c) },
		.pid = pid,
		.tid = pid,
		.trailer = { pid, 1000 + pid, 7 } };

	strcpy(c.comm, "java");
	memcpy(r->b, &c, sizeof(c));
	r->n = sizeof(c);
}

static void make_exit(struct rec *r, uint32_t pid)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, ppid, tid, ptid;
		uint64_t time;
	} e = { .h = { PERF_RECORD_EXIT, 0, sizeof(e) }, pid, 1, pid, 1, 5000 };

	memcpy(r->b, &e, sizeof(e));
	r->n = sizeof(e);
}

/* A kernel MMAP2 of pid: name padded to 8, a 24-byte sample_id trailer. */
static void make_mmap2(struct rec *r, uint32_t pid, const char *name, uint32_t prot, uint64_t start,
		       uint64_t time)
{
	struct prec_mmap2_event *k = (struct prec_mmap2_event *)r->b;
	size_t nlen = (strlen(name) + 8) & ~(size_t)7;
	uint64_t tr[3] = { ((uint64_t)pid << 32) | pid, time, 42 };

	memset(r->b, 0, sizeof(r->b));
	r->n = sizeof(*k) + nlen + sizeof(tr);
	k->header.type = PERF_RECORD_MMAP2;
	k->header.misc = PERF_RECORD_MISC_USER;
	k->header.size = (uint16_t)r->n;
	k->pid = pid;
	k->tid = pid;
	k->start = start;
	k->len = 0x10000;
	k->pgoff = 0x3000;
	k->maj = 0;
	k->min = 5;
	k->ino = 9876;
	k->ino_generation = 1;
	k->prot = prot;
	k->flags = MAP_PRIVATE;
	strcpy(k->filename, name);
	memcpy(r->b + sizeof(*k) + nlen, tr, sizeof(tr));
}

static const char *anon_name(void *arg, uint32_t pid)
{
	int *calls = arg;

	(*calls)++;
	return pid == 100 ? JIT : NULL;
}

/* The log: pid 100 (alive, with JIT code), 200 (alive, no ELF), 300
 * (exited). *want gets what the first replay must write (300's records but
 * not its EXIT: *nwant of them), the second one the first 5. */
static void fill_log(struct sideband_log *l, struct rec *want, size_t *nwant, bool named)
{
	struct rec r[8];
	struct prec_mmap2_event *k;
	size_t nw = 0;

	make_comm(&r[0], 100);
	make_mmap2(&r[1], 100, "//anon", PROT_READ | PROT_EXEC, 0x7f0000000000ULL, 111);
	make_mmap2(&r[2], 100, "/usr/lib/libjvm.so", PROT_READ | PROT_EXEC, 0x7f1000000000ULL, 112);
	make_mmap2(&r[3], 100, "//anon", PROT_READ | PROT_WRITE, 0x7f2000000000ULL, 113);
	make_mmap2(&r[4], 200, "//anon", PROT_READ | PROT_EXEC, 0x7f3000000000ULL, 114);
	make_comm(&r[5], 300);
	make_mmap2(&r[6], 300, "//anon", PROT_EXEC, 0x7f4000000000ULL, 115);
	make_exit(&r[7], 300);
	for (int i = 0; i < 8; i++)
		sideband_log__add(l, r[i].b, r[i].n);
	for (int i = 0; i < 7; i++)
		want[i] = r[i];
	nw = 7;
	if (named) {
		/* r[1] placed: fixed part as the kernel's but pgoff = start and
		 * no device or inode, the ELF's name in 32, the same trailer. */
		k = (struct prec_mmap2_event *)want[1].b;
		k->pgoff = k->start;
		k->maj = k->min = 0;
		k->ino = k->ino_generation = 0;
		memset(k->filename, 0, 32);
		strcpy(k->filename, JIT);
		memcpy(k->filename + 32, r[1].b + r[1].n - 24, 24);
		want[1].n = sizeof(*k) + 32 + 24;
		k->header.size = (uint16_t)want[1].n;
	}
	*nwant = nw;
}

/* Replays l into a fresh buffer: its first n records of want, nothing
 * more, the namer asked calls_want times. */
static void replay_expect(struct sideband_log *l, struct synth_out *out, int *calls,
			  const struct rec *want, size_t n, int calls_want)
{
	size_t off = 0;

	memset(out->buf, 0, sizeof(*out->buf));
	*calls = 0;
	assert_int_equal(sideband_log__replay(l, out), 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(off + want[i].n <= out->buf->len);
		if (memcmp(out->buf->data + off, want[i].b, want[i].n))
			fail_msg("record %zu differs", i);
		off += want[i].n;
	}
	assert_int_equal(off, out->buf->len);
	assert_int_equal(*calls, calls_want);
	synth_buf__exit(out->buf);
}

static void replay_case(bool set_namer)
{
	struct sideband_log l = { 0 };
	struct synth_buf mem = { 0 };
	int calls = 0;
	struct synth_out out = { .buf = &mem };
	struct rec want[8];
	size_t nwant;

	if (set_namer) {
		out.anon_name = anon_name;
		out.anon_arg = &calls;
	}
	fill_log(&l, want, &nwant, set_namer);
	/* Logged in the pass that ended: 300's last samples may still wait in
	 * another ring, so its records come out (not its EXIT), and the three
	 * anonymous executable mappings are named. */
	sideband_log__pass(&l, true);
	replay_expect(&l, &out, &calls, want, nwant, set_namer ? 3 : 0);
	/* A pass the size cut stopped drained nothing for sure. */
	sideband_log__pass(&l, false);
	replay_expect(&l, &out, &calls, want, nwant, set_namer ? 3 : 0);
	/* A whole pass after the EXIT: 300 goes; the log keeps the rest, so
	 * the replay after is the same. */
	sideband_log__pass(&l, true);
	replay_expect(&l, &out, &calls, want, 5, set_namer ? 2 : 0);
	replay_expect(&l, &out, &calls, want, 5, set_namer ? 2 : 0);
	/* Records logged after that stay with their marks: a process that
	 * exits now goes only after a later whole pass. */
	struct rec r;

	make_exit(&r, 200);
	sideband_log__add(&l, r.b, r.n);
	sideband_log__pass(&l, true);
	replay_expect(&l, &out, &calls, want, 5, set_namer ? 2 : 0);
	sideband_log__pass(&l, true);
	replay_expect(&l, &out, &calls, want, 4, set_namer ? 1 : 0);
	sideband_log__exit(&l);
}

static void test_replay_names_jit(void **state)
{
	(void)state;
	replay_case(true);
}

static void test_replay_unnamed(void **state)
{
	(void)state;
	replay_case(false);
}

/* A log cut inside a record (its size past the end) or with a record of
 * size below a header: what comes before it is written, nothing after. */
static void test_replay_hostile(void **state)
{
	struct sideband_log l = { 0 };
	struct synth_buf mem = { 0 };
	int calls = 0;
	struct synth_out out = { .buf = &mem, .anon_name = anon_name, .anon_arg = &calls };
	struct rec r;

	(void)state;
	make_comm(&r, 100);
	sideband_log__add(&l, r.b, r.n);
	make_mmap2(&r, 100, "//anon", PROT_EXEC, 0x1000, 1);
	((struct perf_event_header *)r.b)->size = 4; /* smaller than a header */
	sideband_log__add(&l, r.b, r.n);
	assert_int_equal(sideband_log__replay(&l, &out), 0);
	assert_int_equal(calls, 0);
	make_comm(&r, 100);
	assert_int_equal(mem.len, r.n);
	assert_memory_equal(mem.data, r.b, r.n);
	synth_buf__exit(&mem);
	sideband_log__exit(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_names_jit),
		cmocka_unit_test(test_replay_unnamed),
		cmocka_unit_test(test_replay_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
