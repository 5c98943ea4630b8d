/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITE_ALL_H
#define PREC_WRITE_ALL_H
/*
 * The one write-all loop (base/write_all.c): write(2) or pwrite(2) again
 * after a short write or EINTR until every byte is out or an error stops it.
 */
#include <stddef.h>
#include <stdint.h>

/*
 * Writes buf[0..len) to fd. Returns 0, or the -errno of the write that
 * failed (-EIO for one that wrote nothing and set no errno). *done (may be
 * NULL) is the bytes written, also when it fails part way.
 */
int fd__write_all(int fd, const void *buf, size_t len, size_t *done);

/* fd__write_all at file offset off with pwrite(2) (fd's offset unmoved). */
int fd__pwrite_all(int fd, const void *buf, size_t len, uint64_t off);

#endif
