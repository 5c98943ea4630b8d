// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record-time unwinder against hostile input (recorder/unwind): ELF
 * images built in memory whose numbers wrap, and a sample found by
 * fuzz_unwind that kept libunwind reading for seconds. test_unwind.c has
 * the unwinder's normal work.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "recorder/dsos/dso_track.h"
#include "prec/event.h"
#include "prec/writer.h"
#include "recorder/unwind/unwind.h"
#include "recorder/unwind/unwind_int.h"
#include "tests/unit/fixture_path.h"

/* One PT_LOAD of an ELF64 image built in memory. */
struct tiny_elf {
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	uint8_t bytes[64];
};

static void tiny_elf(struct tiny_elf *t, uint64_t off, uint64_t vaddr, uint64_t size)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->eh.e_ident, ELFMAG, SELFMAG);
	t->eh.e_ident[EI_CLASS] = ELFCLASS64;
	t->eh.e_ident[EI_DATA] = ELFDATA2LSB;
	t->eh.e_ident[EI_VERSION] = EV_CURRENT;
	t->eh.e_type = ET_DYN;
	t->eh.e_machine = EM_X86_64;
	t->eh.e_version = EV_CURRENT;
	t->eh.e_phoff = offsetof(struct tiny_elf, ph);
	t->eh.e_ehsize = sizeof(t->eh);
	t->eh.e_phentsize = sizeof(t->ph);
	t->eh.e_phnum = 1;
	t->ph.p_type = PT_LOAD;
	t->ph.p_flags = PF_R | PF_X;
	t->ph.p_offset = off;
	t->ph.p_vaddr = vaddr;
	t->ph.p_filesz = t->ph.p_memsz = size;
	memset(t->bytes, 0xab, sizeof(t->bytes));
}

/* Found by fuzz_unwind_elf: a segment offset near 2^64 made offset + delta
 * wrap back into the image, and a read of its vaddrs returned the image's
 * first bytes. Such a segment has no bytes; its text range saturates. */
static void test_elf_hostile(void **state)
{
	struct tiny_elf t;
	struct uelf e = { 0 };
	struct uelf_cache c = { 0 };
	static const char name[] = "/in/memory", other[] = "/in/memory/too";
	uint64_t v = 1;

	(void)state;
	tiny_elf(&t, ~0ULL - 0xf, 0x1000, 0x100);
	assert_int_equal(uelf__parse(&e, &t, sizeof(t)), 0);
	assert_int_equal(uelf__read_vaddr(&e, 0x1020, &v), -EFAULT);
	assert_int_equal(v, 0);
	assert_int_equal(uelf__off_to_vaddr(&e, 0x10, &v), -ENOENT);

	tiny_elf(&t, 0, ~0ULL - 0x10, 0x100);
	assert_int_equal(uelf__parse(&e, &t, sizeof(t)), 0);
	assert_true(e.text_hi == UINT64_MAX && e.text_lo == ~0ULL - 0x10);

	/* A sane one reads its bytes, zeros past the file's end. */
	tiny_elf(&t, offsetof(struct tiny_elf, bytes), 0x1000, sizeof(t.bytes) + 8);
	assert_int_equal(uelf__parse(&e, &t, sizeof(t)), 0);
	assert_int_equal(uelf__read_vaddr(&e, 0x1000, &v), 0);
	assert_int_equal(v, 0xababababababababULL);
	assert_int_equal(uelf__read_vaddr(&e, 0x1000 + sizeof(t.bytes), &v), -EFAULT);
	assert_false(e.has_table);

	/* uelf_cache__add: images not on disk, keyed by the name's address. */
	assert_int_equal(uelf_cache__add(&c, name, &t, sizeof(t)), 0);
	assert_ptr_equal(uelf_cache__get(&c, name)->img, &t);
	assert_int_equal(uelf_cache__add(&c, name, &t, sizeof(t)), -EEXIST);
	assert_int_equal(uelf_cache__add(&c, other, "\177ELF", 4), -ENOEXEC);
	assert_null(uelf_cache__get(&c, other));
	assert_int_equal(c.files, 2);
	assert_int_equal(c.bad, 1);
	uelf_cache__exit(&c);
}

/* The cache doubles its buckets past 64 entries, and again: every name is
 * still found (once, not added again), images and unusable names alike. */
static void test_cache_grows(void **state)
{
	static char names[1000][2];
	struct uelf_cache c = { 0 };
	struct tiny_elf t;

	(void)state;
	tiny_elf(&t, offsetof(struct tiny_elf, bytes), 0x1000, sizeof(t.bytes) + 8);
	for (int i = 0; i < 1000; i++) {
		names[i][0] = 'x'; /* keyed by address: each a name of its own */
		if (i % 100 == 0)
			assert_int_equal(uelf_cache__add(&c, names[i], &t, sizeof(t)), 0);
		else
			assert_null(uelf_cache__get(&c, names[i]));
	}
	assert_int_equal(c.nr, 1000);
	assert_int_equal(c.buckets, 1024);
	for (int i = 999; i >= 0; i--) {
		if (i % 100 == 0)
			assert_ptr_equal(uelf_cache__get(&c, names[i])->img, &t);
		else
			assert_null(uelf_cache__get(&c, names[i]));
	}
	assert_int_equal(c.nr, 1000);
	assert_int_equal(uelf_cache__add(&c, names[500], &t, sizeof(t)), -EEXIST);
	uelf_cache__exit(&c);
}

/* fuzz_unwind's input: its head, then the ELF image, then the sample. */
struct fz_head {
	uint32_t elf_len;
	uint16_t flags;
	uint16_t max_stack;
	uint64_t map_start, pgoff;
};

static uint8_t *read_corpus(const char *name, size_t *len)
{
	char path[4096];
	uint8_t *b = malloc(1 << 16);
	FILE *f;

	fixture_path(path, sizeof(path), "../fuzz/corpus/fuzz_unwind/%s", name);
	f = fopen(path, "rb");
	assert_non_null(f);
	*len = fread(b, 1, 1 << 16, f);
	fclose(f);
	return b;
}

/*
 * Found by fuzz_unwind: an FDE whose CFA program runs on over megabytes of
 * zeros (DW_CFA_nop) had libunwind read them one byte at a time, 38 million
 * reads and seconds for one sample. The reads of a sample are now bounded.
 */
static void test_read_budget(void **state)
{
	struct perf_event_attr attr = { 0 };
	static const uint64_t id = 7;
	struct writer_event ev = { &attr, "fuzz", &id, 1 };
	union {
		struct prec_mmap2_event ev;
		uint8_t bytes[sizeof(struct prec_mmap2_event) + 16];
	} m = { 0 };
	struct dso_track_layout l;
	struct dso_track *t;
	struct dso_track_map found;
	struct unwinder *u;
	struct unwind_stats st;
	struct fz_head h;
	size_t len;
	uint8_t *in = read_corpus("fde_over_zeros", &len), *rec, *out;

	(void)state;
	memcpy(&h, in, sizeof(h));
	assert_int_equal(h.flags, 0x242); /* READ, ADDR, DATA_SRC */
	rec = in + sizeof(h) + h.elf_len;
	attr.size = sizeof(attr);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_DATA_SRC;
	attr.sample_regs_user = 0xff0fff;
	attr.sample_stack_user = 8192;
	assert_int_equal(unwinder__new(&u, &ev, 1), 0);
	assert_int_equal(dso_track__layout(attr.sample_type, false, &l), 0);
	assert_int_equal(dso_track__new(&t, &l), 0);
	dso_track__set_buildids(t, DSO_TRACK_BUILDIDS_NONE);
	m.ev.header = (struct perf_event_header){ PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER,
						  sizeof(m) };
	memcpy(&m.ev.pid, rec + 16, 4); /* the sample's pid */
	m.ev.start = h.map_start;
	m.ev.len = 1ULL << 28;
	m.ev.pgoff = h.pgoff;
	m.ev.prot = PROT_READ | PROT_EXEC;
	strcpy(m.ev.filename, "/fuzz/image");
	dso_track__event(t, &m, sizeof(m));
	assert_int_equal(dso_track__find_map(t, m.ev.pid, h.map_start, &found), 0);
	assert_int_equal(uelf_cache__add(&u->elfs, found.name, in + sizeof(h), h.elf_len), 0);
	unwinder__set_track(u, t);
	/* the harness's record: SAMPLE, the rest rounded down to 8 bytes */
	len = (len - sizeof(h) - h.elf_len) & ~(size_t)7;
	((struct perf_event_header *)rec)->type = PERF_RECORD_SAMPLE;
	((struct perf_event_header *)rec)->size = (uint16_t)len;
	out = malloc(len + (UNWIND_MAX_FRAMES + 1) * 8);
	unwinder__record(u, rec, out);
	assert_int_equal(u->cur.reads, UNWIND_MAX_READS + 1);
	unwinder__stats(u, &st);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.partial, 1);
	unwinder__delete(u);
	dso_track__delete(t);
	free(out);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_hostile),
		cmocka_unit_test(test_cache_grows),
		cmocka_unit_test(test_read_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
