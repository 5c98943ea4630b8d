// SPDX-License-Identifier: GPL-2.0-only
/*
 * --buildid-mmap, the synthesized side (synthesize.h): MMAP2 records that
 * carry the mapped file's build-id where the device and inode would be, as
 * the kernel writes its own with attr.build_id and as perf 6.1 synthesizes
 * them (perf_record_mmap2__read_build_id). A file shared by many processes
 * (libc) is read once: results are kept by the identity the maps line gives.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/buildid.h"
#include "prec/event.h"
#include "prec/log.h"
#include "synth/synthesize.h"

/* Open addressing, at most half full; past that files are read each time. */
#define BID_SLOTS 4096u

struct synth_bid_slot {
	uint64_t ino;
	uint32_t maj, min;
	uint8_t used;
	uint8_t found; /* 0: the file has no readable build-id */
	struct build_id bid;
};

/* The 24 bytes of maj, min, ino and ino_generation, as the kernel's union. */
struct mmap2_build_id {
	uint8_t size;
	uint8_t reserved1;
	uint16_t reserved2;
	uint8_t data[BUILD_ID_MAX];
};

_Static_assert(sizeof(struct mmap2_build_id) == 24, "MMAP2 build_id");

void synth__mmap2_set_build_id(struct prec_mmap2_event *ev, const struct build_id *bid)
{
	struct mmap2_build_id b;

	memset(&b, 0, sizeof(b));
	b.size = bid->size;
	memcpy(b.data, bid->data, bid->size);
	memcpy(&ev->maj, &b, sizeof(b));
	ev->header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
}

void synth_bids__exit(struct synth_bids *b)
{
	free(b->slots);
	b->slots = NULL;
	b->nr = 0;
}

static uint32_t slot_of(uint32_t maj, uint32_t min, uint64_t ino)
{
	uint64_t k = (ino ^ ((uint64_t)maj << 52) ^ ((uint64_t)min << 32)) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(k >> 40) & (BID_SLOTS - 1);
}

/*
 * The build-id of the file the map names, read through the process's root
 * (its mount namespace, as perf enters it) and only if that path still holds
 * the mapped inode: a file replaced since it was mapped would give another
 * program's id. 0 or -errno.
 */
static int read_mapped(int procfd, const struct prec_mmap2_event *ev, struct build_id *bid)
{
	char rel[PATH_MAX + 32];
	struct stat st;
	int fd, err;

	if (snprintf(rel, sizeof(rel), "%u/root%s", ev->pid, ev->filename) >= (int)sizeof(rel))
		return -ENAMETOOLONG;
	fd = openat(procfd, rel, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && (errno == EACCES || errno == EPERM || errno == ENOENT))
		fd = open(ev->filename, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	/* The inode only: st_dev and the maps' device differ on btrfs. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (ev->ino && st.st_ino != ev->ino))
		err = -ESTALE;
	else
		err = buildid__read_fd(fd, bid);
	close(fd);
	return err;
}

void synth_bids__fill(struct synth_bids *b, int procfd, struct prec_mmap2_event *ev)
{
	struct synth_bid_slot *s = NULL;
	struct build_id bid = { .size = 0 };
	uint32_t i;
	int err;

	/* Only files: not "//anon", "[heap]", "[vdso]" (perf reads none). */
	if (ev->filename[0] != '/' || ev->filename[1] == '/')
		return;
	if (!b->slots)
		b->slots = calloc(BID_SLOTS, sizeof(*b->slots));
	for (i = slot_of(ev->maj, ev->min, ev->ino); b->slots; i = (i + 1) & (BID_SLOTS - 1)) {
		s = &b->slots[i];
		if (!s->used)
			break;
		if (s->ino == ev->ino && s->maj == ev->maj && s->min == ev->min) {
			if (s->found)
				synth__mmap2_set_build_id(ev, &s->bid);
			return;
		}
	}
	err = read_mapped(procfd, ev, &bid);
	if (err)
		pr_debug("no build-id for %s in MMAP2: %s\n", ev->filename, strerror(-err));
	if (s && b->nr < BID_SLOTS / 2) {
		s->used = 1;
		s->ino = ev->ino;
		s->maj = ev->maj;
		s->min = ev->min;
		s->found = !err;
		s->bid = bid;
		b->nr++;
	}
	if (!err)
		synth__mmap2_set_build_id(ev, &bid);
}
