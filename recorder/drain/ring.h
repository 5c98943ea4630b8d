#ifndef PREC_MMAP_H
#define PREC_MMAP_H
/*
 * One perf ring buffer, read in four calls without copying records:
 *   ring__read_init  snapshot head; the window [start, end) is what is new
 *   ring__read_event walk the window record by record (headers never wrap)
 *   ring__spans      the window as one or two iovecs for writev
 *   ring__consume    hand the window back to the kernel (data_tail = end)
 * It works on plain memory too (ring__init_mem), so tests need no kernel.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <linux/perf_event.h>

struct ring {
	struct perf_event_mmap_page *ctl; /* the control page */
	unsigned char *data; /* data area, a power-of-two size */
	uint64_t mask; /* data size - 1 */
	size_t map_len; /* control page + data, for munmap; 0 for plain memory */
	int fd;
	int cpu;
	uint64_t start; /* window after read_init */
	uint64_t end;
	bool backward; /* write_backward (overwrite): mapped read-only, read once */
	bool done; /* backward: read before, up to prev */
	uint64_t prev; /* backward: the head at the last read (newer records end there) */
};

/*
 * Maps fd's ring with data_bytes (a power of two of pages). A backward ring
 * (events with write_backward) is mapped read-only, so the kernel overwrites
 * its oldest records: a flight recorder read once, at the end. 0 or -errno.
 */
int ring__mmap(struct ring *r, int fd, int cpu, size_t data_bytes, bool backward);

/* Uses caller memory: ctl is a zeroed control page, data holds data_bytes. */
void ring__init_mem(struct ring *r, struct perf_event_mmap_page *ctl, void *data,
		    size_t data_bytes);

/* Unmaps the ring (not the fd); safe on an unmapped ring. */
void ring__munmap(struct ring *r);

/*
 * Snapshots the kernel's head. Returns the number of new bytes (0: nothing).
 * A backward ring's window is what it holds that is newer than the last
 * read (everything the first time), newest first; pause its output first.
 */
uint64_t ring__read_init(struct ring *r);

/*
 * The record at *pos inside the window, advancing *pos past it; NULL at the
 * end of the window or when a header is corrupt (size < 8 or past the end).
 */
const struct perf_event_header *ring__read_event(struct ring *r, uint64_t *pos);

/* The u64 at window position pos (wraps at the end of the data area). */
uint64_t ring__peek_u64(const struct ring *r, uint64_t pos);

/* Copies len bytes from window position pos to to, across the end of the
 * data area (a record's body may wrap; its header never does). */
void ring__copy(const struct ring *r, uint64_t pos, void *to, size_t len);
/* Fills iov with the window as 1 or 2 spans (0 when empty); returns the count. */
int ring__spans(const struct ring *r, struct iovec iov[2]);

/* Releases the window to the kernel. */
void ring__consume(struct ring *r);

#endif
