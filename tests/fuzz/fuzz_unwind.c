// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the record-time unwinder (recorder/unwind): one
 * DWARF sample record, as the drain hands it to unwinder__record, unwound
 * through one mapped ELF image, both attacker-controlled. That reaches every
 * reader of outside bytes the unwinder has: the sample's parts (READ, RAW,
 * BRANCH_STACK, REGS_USER, STACK_USER and their sizes), the registers, the
 * user stack copy libunwind walks, the ELF's load segments and its
 * .eh_frame_hdr table, and the .eh_frame CIEs/FDEs and CFA programs libunwind
 * reads through the unwinder's accessors (only through them: every byte it
 * sees is bounds-checked by our code).
 *
 * Input (little-endian): struct fz_head, then elf_len bytes of ELF image,
 * then the sample record (its header's type and size are set by the
 * harness: SAMPLE, the rest of the input rounded down to 8 bytes). With
 * FZ_RING the rest is instead a run of records (sizes rounded up to 8, as
 * the kernel writes them) in a 64 KiB ring whose window wraps around the
 * end half way, drained by unwinder__rewrite as the drain does.
 * The image is mapped, as the tracker's MMAP2 says, at map_start with
 * pgoff in the sample's pid. Beyond "no crash, no read outside the record,
 * the image or the stack copy, no leak", the rewritten record must say its
 * own size and fit the room the drain leaves for it.
 * Built and run by the suite: see CMakeLists.txt here.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <linux/perf_event.h>

#include "recorder/dsos/dso_track.h"
#include "prec/event.h"
#include "recorder/drain/ring.h"
#include "prec/writer.h"
#include "recorder/unwind/unwind.h"
#include "recorder/unwind/unwind_int.h"

/* flags: the sample_type bits beyond the DWARF ones, and their formats. */
#define FZ_IDENTIFIER 0x01
#define FZ_READ 0x02
#define FZ_READ_GROUP 0x04
#define FZ_RAW 0x08
#define FZ_BRANCH 0x10
#define FZ_BRANCH_HW_INDEX 0x20
#define FZ_ADDR 0x40
#define FZ_READ_ALL 0x80 /* id, lost and both times in the read format */
#define FZ_CPU 0x100
#define FZ_DATA_SRC 0x200 /* a field after the stack copy */
#define FZ_RING 0x400 /* the records go through unwinder__rewrite from a ring */

struct fz_head {
	uint32_t elf_len;
	uint16_t flags;
	uint16_t max_stack; /* attr.sample_max_stack */
	uint64_t map_start, pgoff;
};

/* perf's x86-64 user registers for --call-graph dwarf (PERF_REGS_MASK). */
#define FZ_REGS_MASK 0xff0fffULL
#define FZ_ID 7
#define FZ_MAP_LEN (1ULL << 28)
#define FZ_NAME "/fuzz/image"

static void fz_attr(struct perf_event_attr *a, const struct fz_head *h)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD | PERF_SAMPLE_REGS_USER |
			 PERF_SAMPLE_STACK_USER;
	if (h->flags & FZ_IDENTIFIER)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (h->flags & FZ_READ)
		a->sample_type |= PERF_SAMPLE_READ;
	if (h->flags & FZ_READ_GROUP)
		a->read_format |= PERF_FORMAT_GROUP;
	if (h->flags & FZ_READ_ALL)
		a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST |
				  PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (h->flags & FZ_RAW)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (h->flags & FZ_BRANCH) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	}
	if (h->flags & FZ_BRANCH_HW_INDEX)
		a->branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	if (h->flags & FZ_ADDR)
		a->sample_type |= PERF_SAMPLE_ADDR;
	if (h->flags & FZ_CPU)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (h->flags & FZ_DATA_SRC)
		a->sample_type |= PERF_SAMPLE_DATA_SRC;
	a->sample_regs_user = FZ_REGS_MASK;
	a->sample_stack_user = 8192;
	a->sample_max_stack = h->max_stack;
}

/* The tracker's MMAP2 of the image in process pid; its name's address, or NULL. */
static const char *fz_map(struct dso_track *t, uint32_t pid, const struct fz_head *h)
{
	union {
		struct prec_mmap2_event ev;
		uint8_t bytes[sizeof(struct prec_mmap2_event) + 16];
	} m;
	struct dso_track_map found;

	memset(&m, 0, sizeof(m));
	m.ev.header.type = PERF_RECORD_MMAP2;
	m.ev.header.misc = PERF_RECORD_MISC_USER;
	m.ev.header.size = sizeof(m);
	m.ev.pid = m.ev.tid = pid;
	m.ev.start = h->map_start;
	m.ev.len = FZ_MAP_LEN;
	m.ev.pgoff = h->pgoff;
	m.ev.prot = PROT_READ | PROT_EXEC;
	m.ev.flags = MAP_PRIVATE;
	memcpy(m.ev.filename, FZ_NAME, sizeof(FZ_NAME));
	dso_track__event(t, &m, sizeof(m));
	if (dso_track__find_map(t, pid, h->map_start, &found))
		return NULL;
	return found.name;
}

#define FZ_RING_SIZE 65536u

/* The records at rec (len bytes) drained from a ring whose window wraps. */
static void fz_ring(struct unwinder *u, const uint8_t *rec, size_t len)
{
	uint8_t *data = malloc(FZ_RING_SIZE);
	struct ring r = { .data = data, .mask = FZ_RING_SIZE - 1, .fd = -1 };
	bool pending = true;
	struct iovec iov = { 0 };
	uint64_t walked = 0;

	if (!data)
		return;
	memset(data, 0, FZ_RING_SIZE);
	r.start = (1ULL << 32) - ((len / 2) & ~7ULL);
	r.end = r.start + len;
	for (size_t i = 0; i < len; i++)
		data[(r.start + i) & r.mask] = rec[i];
	if (unwinder__rewrite(u, &r, &pending, 1, &iov) != 1 || !iov.iov_len)
		abort();
	/* Whole records while the headers hold, then the rest as it was. */
	while (walked + sizeof(struct perf_event_header) <= iov.iov_len) {
		struct perf_event_header h;

		memcpy(&h, (uint8_t *)iov.iov_base + walked, sizeof(h));
		if (h.size < sizeof(h))
			break;
		walked += h.size;
	}
	free(data);
}

static void fz_run(const struct fz_head *h, const uint8_t *img, const uint8_t *rec, size_t len)
{
	static const uint64_t ids[] = { FZ_ID };
	struct perf_event_attr attr;
	struct writer_event ev = { .attr = &attr, .name = "fuzz", .ids = ids, .nr_ids = 1 };
	struct dso_track_layout l;
	struct dso_track *t = NULL;
	struct unwinder *u = NULL;
	struct perf_event_header out;
	const char *name;
	uint8_t *dst = NULL;
	uint32_t pid = 0;
	size_t n;

	fz_attr(&attr, h);
	if (unwinder__new(&u, &ev, 1))
		abort(); /* every attr the harness makes is a DWARF one */
	if (dso_track__layout(attr.sample_type, false, &l) || dso_track__new(&t, &l))
		goto out;
	dso_track__set_buildids(t, DSO_TRACK_BUILDIDS_NONE);
	if (l.tid_off >= 0 && len >= sizeof(struct perf_event_header) + (size_t)l.tid_off + 4)
		memcpy(&pid, rec + sizeof(struct perf_event_header) + l.tid_off, sizeof(pid));
	name = fz_map(t, pid, h);
	if (name)
		uelf_cache__add(&u->elfs, name, img, h->elf_len);
	unwinder__set_track(u, t);
	if (h->flags & FZ_RING) {
		fz_ring(u, rec, len);
		goto out;
	}
	dst = malloc(len + (UNWIND_MAX_FRAMES + 1) * 8);
	if (!dst)
		goto out;
	n = unwinder__record(u, rec, dst);
	memcpy(&out, dst, sizeof(out));
	if (n > len + (UNWIND_MAX_FRAMES + 1) * 8 || n < sizeof(out) || out.size != n ||
	    out.type != PERF_RECORD_SAMPLE)
		abort();
out:
	free(dst);
	unwinder__delete(u);
	dso_track__delete(t);
}

/* Record sizes as the kernel writes them: 8-byte multiples, at least a header. */
static void fz_align_sizes(uint8_t *rec, size_t len)
{
	size_t pos = 0;

	while (pos + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;

		memcpy(&h, rec + pos, sizeof(h));
		h.size = (uint16_t)((h.size < 8 ? 8 : h.size + 7u) & ~7u);
		if (!h.size)
			h.size = 65528; /* 65535 + 7 wrapped */
		memcpy(rec + pos, &h, sizeof(h));
		pos += h.size;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_head h;
	struct perf_event_header hdr;
	uint8_t *img, *rec;
	size_t len;

	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	data += sizeof(h);
	size -= sizeof(h);
	if (h.elf_len > size)
		return 0;
	len = (size - h.elf_len) & ~(size_t)7;
	if (len > 65528)
		len = 65528;
	if (len < sizeof(hdr))
		return 0;
	/* Copies of exactly their sizes: ASan catches a read past either. */
	img = malloc(h.elf_len ? h.elf_len : 1);
	rec = malloc(len);
	if (img && rec) {
		memcpy(img, data, h.elf_len);
		memcpy(rec, data + h.elf_len, len);
		if (h.flags & FZ_RING) {
			fz_align_sizes(rec, len);
		} else {
			memcpy(&hdr, rec, sizeof(hdr));
			hdr.type = PERF_RECORD_SAMPLE;
			hdr.size = (uint16_t)len;
			memcpy(rec, &hdr, sizeof(hdr));
		}
		fz_run(&h, img, rec, len);
	}
	free(img);
	free(rec);
	return 0;
}
