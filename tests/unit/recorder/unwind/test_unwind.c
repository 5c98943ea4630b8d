// SPDX-License-Identifier: GPL-2.0-only
/*
 * --unwind=record: the file offsets the maps keep for the unwinder, the ELF
 * unwind tables, the sample rewriting (synthetic samples with registers and
 * a stack copy -> a user callchain, sizes, the attr fix-up, records that
 * pass through, hostile ones, records wrapping a ring), and a real unwind:
 * this test's own stack, captured with getcontext and copied as the kernel
 * copies a sample's, unwound through the accessors against its own maps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "recorder/dsos/dso_track.h"
#include "recorder/drain/ring.h"
#include "prec/writer.h"
#include "recorder/dsos/dso_maps.h"
#include "recorder/options/regs.h"
#include "recorder/unwind/unwind.h"
#include "recorder/unwind/unwind_int.h"

#define ST_DWARF                                                                  \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |     \
	 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_DATA_SRC)
#define NR_REGS 20 /* x86-64's default mask: ax..ss and r8..r15 */
#define REG_SLOT_BP 6
#define REG_SLOT_SP 7
#define REG_SLOT_IP 8
#define DATA_SRC_MARK 0x5a5a5a5a5a5a5a5aULL

/* ---- building records ---- */

struct buf {
	uint8_t b[70000];
	size_t n;
};

static void put64(struct buf *b, uint64_t v)
{
	memcpy(b->b + b->n, &v, 8);
	b->n += 8;
}

static void put_bytes(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void set_size(struct buf *b)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, (uint16_t)b->n };

	memcpy(b->b, &h, sizeof(h));
}

/* A sample of ST_DWARF: kernel chain kc (nk entries), regs (NULL: abi NONE),
 * stack copy of len bytes (dyn bytes of it valid). */
static void make_sample(struct buf *b, uint32_t pid, const uint64_t *kc, int nk,
			const uint64_t *regs, const void *stack, uint64_t len, uint64_t dyn)
{
	b->n = 8;
	put64(b, regs ? regs[REG_SLOT_IP] : 0xffffffff81001234ULL); /* IP */
	put64(b, (uint64_t)pid | (uint64_t)pid << 32); /* TID */
	put64(b, 1000); /* TIME */
	put64(b, 0); /* ADDR */
	put64(b, 250000); /* PERIOD */
	put64(b, (uint64_t)nk);
	for (int i = 0; i < nk; i++)
		put64(b, kc[i]);
	put64(b, regs ? PERF_SAMPLE_REGS_ABI_64 : PERF_SAMPLE_REGS_ABI_NONE);
	if (regs)
		put_bytes(b, regs, NR_REGS * 8);
	put64(b, len);
	if (len) {
		put_bytes(b, stack, len);
		put64(b, dyn);
	}
	put64(b, DATA_SRC_MARK);
	set_size(b);
}

static struct perf_event_attr dwarf_attr(void)
{
	struct perf_event_attr a = { 0 };

	a.size = sizeof(a);
	a.sample_type = ST_DWARF;
	a.sample_regs_user = regs__default_mask();
	a.sample_stack_user = 8192;
	a.exclude_callchain_user = 1;
	a.sample_id_all = 1;
	return a;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* The callchain of a rewritten ST_DWARF sample: nr at offset 48. */
static uint64_t chain_nr(const uint8_t *rec)
{
	return rd64(rec + 48);
}

static uint64_t chain_ip(const uint8_t *rec, uint64_t i)
{
	return rd64(rec + 56 + 8 * i);
}

/* ---- dso_maps keeps file offsets through cuts ---- */

static void test_maps_pgoff(void **state)
{
	struct dso_maps m = { 0 };
	struct dso *d1 = (struct dso *)(uintptr_t)0x1000, *d2 = (struct dso *)(uintptr_t)0x2000;

	(void)state;
	assert_int_equal(dso_maps__insert_file(&m, 0x10000, 0x20000, 0x3000, 1, d1), 0);
	/* a newer map in the middle: the right part's offset moves with it */
	assert_int_equal(dso_maps__insert_file(&m, 0x14000, 0x15000, 0, 2, d2), 0);
	assert_int_equal(m.nr, 3);
	assert_int_equal(dso_maps__find(&m, 0x10000)->pgoff, 0x3000);
	assert_int_equal(dso_maps__find(&m, 0x14800)->pgoff, 0);
	assert_int_equal(dso_maps__find(&m, 0x15000)->pgoff, 0x3000 + 0x5000);
	/* a newer one over the left edge of a range */
	assert_int_equal(dso_maps__insert_file(&m, 0x0f000, 0x11000, 0x9000, 3, d2), 0);
	assert_int_equal(dso_maps__find(&m, 0x11000)->pgoff, 0x3000 + 0x1000);
	assert_int_equal(dso_maps__find(&m, 0x10fff)->pgoff, 0x9000);
	/* an older one under everything only fills the gaps, at their offsets */
	assert_int_equal(dso_maps__insert_file(&m, 0x0, 0x30000, 0, 0, d1), 0);
	assert_int_equal(dso_maps__find(&m, 0x20000)->pgoff, 0x20000);
	assert_int_equal(dso_maps__find(&m, 0x20000)->start, 0x20000);
	dso_maps__exit(&m);
}

/* ---- ELF tables ---- */

static void test_elf(void **state)
{
	struct uelf e = { 0 };
	uint64_t v, vaddr;
	char path[] = "/tmp/prec-unwind-XXXXXX";
	int fd;

	(void)state;
	assert_int_equal(uelf__open_file(&e, "/proc/self/exe"), 0);
	assert_true(e.has_table);
	assert_true(e.fde_count > 10);
	assert_true(e.text_lo < e.text_hi);
	/* the table lies inside the image, and vaddrs and offsets agree */
	assert_int_equal(uelf__read_vaddr(&e, e.table_vaddr, &v), 0);
	assert_int_equal(uelf__off_to_vaddr(&e, 0, &vaddr), 0);
	assert_int_equal(vaddr, e.seg[0].vaddr);
	assert_int_equal(uelf__read_vaddr(&e, ~0ULL - 4, &v), -EFAULT);
	uelf__close(&e);

	/* The vdso, where the kernel gave one (valgrind hides it). */
	if (getauxval(AT_SYSINFO_EHDR)) {
		assert_int_equal(uelf__open_vdso(&e), 0);
		assert_true(e.has_table);
		uelf__close(&e);
	} else {
		assert_int_equal(uelf__open_vdso(&e), -ENOENT);
	}

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not an ELF file, only text in it.......................\n", 57),
			 57);
	close(fd);
	assert_int_equal(uelf__open_file(&e, path), -ENOEXEC);
	assert_int_equal(uelf__open_file(&e, "/nonexistent/file"), -ENOENT);
	unlink(path);
	/* a truncated header is refused, not read past */
	assert_int_equal(uelf__parse(&e, "\177ELF\2\1\1", 7), -ENOEXEC);
}

/* ---- the attrs ---- */

static void test_attrs(void **state)
{
	struct perf_event_attr a = dwarf_attr(), plain = { 0 }, noregs = dwarf_attr();
	uint64_t ids_a[] = { 7, 3 }, ids_p[] = { 9 };
	struct writer_event ev[2] = { { &a, "cycles", ids_a, 2 }, { &plain, "dummy", ids_p, 1 } };
	struct unwinder *u;

	(void)state;
	a.sample_type |= PERF_SAMPLE_IDENTIFIER;
	plain.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_IDENTIFIER;
	assert_int_equal(unwinder__new(&u, ev, 2), 0);
	unwinder__file_attrs(u, ev, 2);
	assert_ptr_not_equal(ev[0].attr, &a);
	assert_ptr_equal(ev[1].attr, &plain);
	assert_int_equal(ev[0].attr->sample_type,
			 (a.sample_type &
			  ~(uint64_t)(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)));
	assert_int_equal(ev[0].attr->sample_regs_user, 0);
	assert_int_equal(ev[0].attr->sample_stack_user, 0);
	assert_int_equal(ev[0].attr->exclude_callchain_user, 0);
	assert_int_equal(ev[0].attr->sample_freq, a.sample_freq);
	unwinder__delete(u);

	/* nothing to unwind */
	ev[0].attr = &plain;
	assert_int_equal(unwinder__new(&u, ev, 1), -EINVAL);
	assert_null(u);
	/* registers without the stack pointer */
	noregs.sample_regs_user = 1ULL << REG_SLOT_IP;
	ev[0].attr = &noregs;
	assert_int_equal(unwinder__new(&u, ev, 1), -EINVAL);
	/* several events, but the samples do not say which */
	a.sample_type &= ~(uint64_t)PERF_SAMPLE_IDENTIFIER;
	ev[0].attr = &a;
	assert_int_equal(unwinder__new(&u, ev, 2), -EINVAL);
	unwinder__delete(NULL);
}

/* ---- rewriting synthetic samples ---- */

static void test_rewrite(void **state)
{
	static struct buf in, out;
	struct perf_event_attr a = dwarf_attr();
	struct writer_event ev = { &a, "cycles", NULL, 0 };
	uint64_t regs[NR_REGS] = { 0 }, kc[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL };
	uint8_t stack[64];
	struct unwind_stats st;
	struct unwinder *u;
	size_t n;

	(void)state;
	memset(stack, 0xab, sizeof(stack));
	regs[REG_SLOT_IP] = 0x401234;
	regs[REG_SLOT_SP] = 0x7ffd0000;
	assert_int_equal(unwinder__new(&u, &ev, 1), 0);

	/* No maps: the unwind stops at the sample IP, which is kept. */
	make_sample(&in, 42, kc, 2, regs, stack, sizeof(stack), 48);
	n = unwinder__record(u, in.b, out.b);
	/* minus regs (8 + 160) and stack (8 + 64 + 8), plus CONTEXT_USER and IP */
	assert_int_equal(n, in.n - 168 - 80 + 16);
	assert_int_equal(((struct perf_event_header *)out.b)->size, n);
	assert_int_equal(memcmp(out.b + 8, in.b + 8, 40), 0);
	assert_int_equal(chain_nr(out.b), 4);
	assert_int_equal(chain_ip(out.b, 0), PERF_CONTEXT_KERNEL);
	assert_int_equal(chain_ip(out.b, 1), 0xffffffff81000010ULL);
	assert_int_equal(chain_ip(out.b, 2), PERF_CONTEXT_USER);
	assert_int_equal(chain_ip(out.b, 3), 0x401234);
	assert_int_equal(rd64(out.b + n - 8), DATA_SRC_MARK);
	unwinder__stats(u, &st);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.partial, 1);
	assert_int_equal(st.no_map, 1);
	assert_int_equal(st.frames, 1);

	/* A user-mode sample: an empty kernel chain. */
	make_sample(&in, 42, NULL, 0, regs, stack, sizeof(stack), 64);
	n = unwinder__record(u, in.b, out.b);
	assert_int_equal(chain_nr(out.b), 2);
	assert_int_equal(chain_ip(out.b, 0), PERF_CONTEXT_USER);
	assert_int_equal(chain_ip(out.b, 1), 0x401234);
	assert_int_equal(rd64(out.b + n - 8), DATA_SRC_MARK);

	/* A kernel thread: no user registers, no stack, nothing to add. */
	make_sample(&in, 0, kc, 2, NULL, NULL, 0, 0);
	n = unwinder__record(u, in.b, out.b);
	assert_int_equal(n, in.n - 8 - 8);
	assert_int_equal(chain_nr(out.b), 2);
	assert_int_equal(rd64(out.b + n - 8), DATA_SRC_MARK);
	unwinder__stats(u, &st);
	assert_int_equal(st.samples, 3);
	assert_int_equal(st.partial, 2);

	/* Hostile: a callchain longer than the record, a stack size past its
	 * end, a dyn_size above the copy: passed through as they are. */
	make_sample(&in, 42, kc, 2, regs, stack, sizeof(stack), 48);
	memcpy(in.b + 48, &(uint64_t){ 1000 }, 8);
	assert_int_equal(unwinder__record(u, in.b, out.b), in.n);
	assert_int_equal(memcmp(in.b, out.b, in.n), 0);
	make_sample(&in, 42, kc, 2, regs, stack, sizeof(stack), 48);
	memcpy(in.b + 72 + 168, &(uint64_t){ 4096 }, 8);
	assert_int_equal(unwinder__record(u, in.b, out.b), in.n);
	make_sample(&in, 42, kc, 2, regs, stack, sizeof(stack), 65);
	assert_int_equal(unwinder__record(u, in.b, out.b), in.n);

	/* Other records pass through. */
	{
		uint8_t comm[32] = { 0 };
		struct perf_event_header h = { PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, 32 };

		memcpy(comm, &h, sizeof(h));
		memcpy(comm + 16, "deep", 5);
		assert_int_equal(unwinder__record(u, comm, out.b), 32);
		assert_int_equal(memcmp(comm, out.b, 32), 0);
	}
	unwinder__delete(u);
}

/* A sample wrapping the ring's end, between two records that do not. */
static void test_rewrite_ring(void **state)
{
	enum { SIZE = 4096 };
	static struct buf a, b, c;
	struct perf_event_attr attr = dwarf_attr();
	struct writer_event ev = { &attr, "cycles", NULL, 0 };
	struct perf_event_mmap_page *ctl = calloc(1, 4096);
	uint8_t *data = calloc(1, SIZE), stack[512];
	uint64_t regs[NR_REGS] = { 0 }, start = SIZE - 600, pos;
	struct ring ring;
	struct unwinder *u;
	struct iovec iov[2];
	bool pending = true;
	size_t total;
	const uint8_t *o;

	(void)state;
	memset(stack, 0x11, sizeof(stack));
	regs[REG_SLOT_IP] = 0x401000;
	regs[REG_SLOT_SP] = 0x7ffd0000;
	make_sample(&a, 7, NULL, 0, regs, stack, 64, 64); /* 312 bytes */
	make_sample(&b, 7, NULL, 0, regs, stack, sizeof(stack), 512); /* 760: wraps */
	c.n = 0;
	{
		struct perf_event_header h = { PERF_RECORD_MAX + 60, 0, 16 };

		put_bytes(&c, &h, sizeof(h));
		put64(&c, 0x77);
	}
	ring__init_mem(&ring, ctl, data, SIZE);
	pos = start;
	for (int i = 0; i < 3; i++) {
		const struct buf *r = i == 0 ? &a : i == 1 ? &b : &c;

		for (size_t k = 0; k < r->n; k++)
			data[(pos + k) & (SIZE - 1)] = r->b[k];
		pos += r->n;
	}
	total = pos - start;
	ctl->data_tail = start;
	ctl->data_head = pos;
	assert_int_equal(ring__read_init(&ring), total);
	assert_int_equal(unwinder__new(&u, &ev, 1), 0);
	assert_int_equal(unwinder__rewrite(u, &ring, &pending, 1, iov), 1);
	o = iov[0].iov_base;
	/* a: 376 - 168 - 80 + 16; b: the same with a 512-byte copy */
	assert_int_equal(iov[0].iov_len,
			 (a.n - 248 + 16) + (b.n - 8 - 160 - 8 - 512 - 8 + 16) + 16);
	assert_int_equal(chain_ip(o, 1), 0x401000);
	o += ((const struct perf_event_header *)o)->size;
	assert_int_equal(chain_nr(o), 2);
	assert_int_equal(rd64(o + ((const struct perf_event_header *)o)->size - 8), DATA_SRC_MARK);
	o += ((const struct perf_event_header *)o)->size;
	assert_int_equal(memcmp(o, c.b, c.n), 0);
	/* nothing pending, nothing written */
	pending = false;
	assert_int_equal(unwinder__rewrite(u, &ring, &pending, 1, iov), 0);
	unwinder__delete(u);
	free(ctl);
	free(data);
}

/* ---- a real stack: this test's own ---- */

static struct buf captured;
static struct perf_event_attr real_attr;

/* Feeds /proc/self/maps to t as the MMAP2 records the kernel would send. */
static void feed_own_maps(struct dso_track *t)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8], path[512] = "";
		uint8_t rec[72 + 520] = { 0 };
		struct perf_event_header h = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 0 };
		uint32_t pid = (uint32_t)getpid();
		size_t len;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %511s", &s, &e, perms, &off, path) < 4)
			continue;
		len = strlen(path) + 1;
		h.size = (uint16_t)((72 + len + 7) & ~7UL);
		memcpy(rec, &h, sizeof(h));
		memcpy(rec + 8, &pid, 4);
		memcpy(rec + 12, &pid, 4);
		memcpy(rec + 16, &s, 8);
		memcpy(rec + 24, &(uint64_t){ e - s }, 8);
		memcpy(rec + 32, &off, 8);
		memcpy(rec + 72, path, len);
		dso_track__event(t, rec, h.size);
	}
	fclose(f);
}

/* The top of this thread's stack, so the copy stops there as the kernel's. */
static uint64_t stack_top(uint64_t sp)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	uint64_t top = sp;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;

		if (sscanf(line, "%llx-%llx", &s, &e) == 2 && sp >= s && sp < e)
			top = e;
	}
	fclose(f);
	return top;
}

/* The copy the kernel takes: raw bytes, ASan's red zones between the
 * frames' locals included, so not through the checked memcpy. */
__attribute__((no_sanitize_address)) static void copy_raw(uint8_t *dst, const uint8_t *src,
							  size_t len)
{
	for (size_t i = 0; i < len; i++)
		((volatile uint8_t *)dst)[i] = src[i];
}

__attribute__((noinline)) void unwind_test_capture(void)
{
	ucontext_t uc;
	uint64_t regs[NR_REGS] = { 0 }, sp, len;
	static uint8_t copy[60000];

	getcontext(&uc);
	/* The state getcontext saved: as if it had just returned here. */
	regs[0] = (uint64_t)uc.uc_mcontext.gregs[REG_RAX];
	regs[1] = (uint64_t)uc.uc_mcontext.gregs[REG_RBX];
	regs[REG_SLOT_BP] = (uint64_t)uc.uc_mcontext.gregs[REG_RBP];
	regs[REG_SLOT_SP] = (uint64_t)uc.uc_mcontext.gregs[REG_RSP];
	regs[REG_SLOT_IP] = (uint64_t)uc.uc_mcontext.gregs[REG_RIP];
	regs[12 + 4] = (uint64_t)uc.uc_mcontext.gregs[REG_R12];
	regs[12 + 5] = (uint64_t)uc.uc_mcontext.gregs[REG_R13];
	regs[12 + 6] = (uint64_t)uc.uc_mcontext.gregs[REG_R14];
	regs[12 + 7] = (uint64_t)uc.uc_mcontext.gregs[REG_R15];
	sp = regs[REG_SLOT_SP];
	len = stack_top(sp) - sp;
	if (len > sizeof(copy))
		len = sizeof(copy);
	copy_raw(copy, (const uint8_t *)(uintptr_t)sp, len);
	real_attr = dwarf_attr();
	real_attr.sample_stack_user = (uint32_t)sizeof(copy);
	make_sample(&captured, (uint32_t)getpid(), NULL, 0, regs, copy, sizeof(copy), len);
}

__attribute__((noinline)) void unwind_test_level3(void)
{
	unwind_test_capture();
	__asm__ volatile("" ::: "memory"); /* not a tail call */
}

__attribute__((noinline)) void unwind_test_level2(void)
{
	unwind_test_level3();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void unwind_test_level1(void)
{
	unwind_test_level2();
	__asm__ volatile("" ::: "memory");
}

/* Whether ip lies in the function at fn (its call is in its first 512 bytes). */
static bool in_fn(uint64_t ip, const void *fn)
{
	uint64_t f = (uint64_t)(uintptr_t)fn;

	return ip >= f && ip < f + 512;
}

static void test_unwind_own_stack(void **state)
{
	static struct buf out;
	struct writer_event ev = { &real_attr, "cycles", NULL, 0 };
	struct dso_track_layout l;
	struct dso_track *t;
	struct unwinder *u;
	struct unwind_stats st;
	uint64_t nr;
	int found = 0;
	Dl_info di;

	(void)state;
	unwind_test_level1();
	assert_int_equal(dso_track__layout(ST_DWARF, true, &l), 0);
	l.id_time_back = 0; /* the records made here carry no sample_id */
	assert_int_equal(dso_track__new(&t, &l), 0);
	feed_own_maps(t);
	assert_int_equal(unwinder__new(&u, &ev, 1), 0);
	unwinder__set_track(u, t);
	unwinder__record(u, captured.b, out.b);
	nr = chain_nr(out.b);
	assert_true(nr >= 6);
	assert_int_equal(chain_ip(out.b, 0), PERF_CONTEXT_USER);
	/* capture, level3, level2, level1, this test, in that order */
	assert_true(in_fn(chain_ip(out.b, 1), (const void *)unwind_test_capture));
	assert_true(in_fn(chain_ip(out.b, 2), (const void *)unwind_test_level3));
	assert_true(in_fn(chain_ip(out.b, 3), (const void *)unwind_test_level2));
	assert_true(in_fn(chain_ip(out.b, 4), (const void *)unwind_test_level1));
	assert_true(in_fn(chain_ip(out.b, 5), (const void *)test_unwind_own_stack));
	/* and on through cmocka into libc's start of main */
	for (uint64_t i = 5; i < nr; i++)
		if (dladdr((void *)(uintptr_t)chain_ip(out.b, i), &di) && di.dli_sname &&
		    strstr(di.dli_sname, "libc_start"))
			found = 1;
	assert_true(found);
	unwinder__stats(u, &st);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.partial, 0);
	/* the same unwind again: served from libunwind's cache, same frames */
	{
		static struct buf again;

		unwinder__record(u, captured.b, again.b);
		assert_int_equal(memcmp(out.b, again.b, ((struct perf_event_header *)out.b)->size),
				 0);
	}
	unwinder__delete(u);
	dso_track__delete(t);
}

/* The side-band comes late: a sample whose IP is in no known map waits
 * (unwinder__record writes nothing), and once the maps are in,
 * unwinder__release gives it unwound as if they had been there; a sample
 * whose map is known is not held. */
static void test_unwind_hold(void **state)
{
	static struct buf ref, out, other;
	struct writer_event ev = { &real_attr, "cycles", NULL, 0 };
	uint64_t regs[NR_REGS] = { 0 }, kc[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL };
	uint8_t stack[64] = { 0 };
	struct dso_track_layout l;
	struct dso_track *t;
	struct unwinder *u;
	struct iovec iov;
	const uint8_t *p;
	size_t n;

	(void)state;
	unwind_test_level1();
	assert_int_equal(dso_track__layout(ST_DWARF, true, &l), 0);
	l.id_time_back = 0;
	assert_int_equal(dso_track__new(&t, &l), 0);
	assert_int_equal(unwinder__new(&u, &ev, 1), 0);
	unwinder__set_track(u, t);
	assert_int_equal(unwinder__release(u, &iov), 0); /* nothing held */
	unwinder__hold(u, true);
	assert_int_equal(unwinder__record(u, captured.b, out.b), 0);
	regs[REG_SLOT_IP] = 0x401234;
	regs[REG_SLOT_SP] = 0x7ffd0000;
	make_sample(&other, 42, kc, 2, regs, stack, sizeof(stack), 48);
	assert_int_equal(unwinder__record(u, other.b, out.b), 0);
	feed_own_maps(t);
	/* Known now: unwound at once, even while holding. */
	n = unwinder__record(u, captured.b, ref.b);
	assert_true(n > 0 && chain_nr(ref.b) >= 6);
	assert_int_equal(unwinder__release(u, &iov), 1);
	p = iov.iov_base;
	/* In the order read: this test's stack as unwound with the maps there
	 * from the start, then pid 42's sample, its IP in no map still. */
	assert_int_equal(memcmp(p, ref.b, n), 0);
	assert_int_equal(iov.iov_len, n + ((const struct perf_event_header *)(p + n))->size);
	assert_int_equal(chain_nr(p + n), 4);
	assert_int_equal(chain_ip(p + n, 3), 0x401234);
	/* Released once: holding is over. */
	assert_int_equal(unwinder__record(u, other.b, out.b) > 0, 1);
	assert_int_equal(unwinder__release(u, &iov), 0);
	unwinder__delete(u);
	dso_track__delete(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maps_pgoff),   cmocka_unit_test(test_elf),
		cmocka_unit_test(test_attrs),	     cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_rewrite_ring), cmocka_unit_test(test_unwind_own_stack),
		cmocka_unit_test(test_unwind_hold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
