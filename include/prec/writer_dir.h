/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_DIR_H
#define PREC_WRITER_DIR_H
/*
 * A perf.data directory, as perf record --threads (or --kcore) writes it: PATH/data is
 * an ordinary perf.data file (header, attrs, the synthesized side-band,
 * features with DIR_FORMAT) opened with writer__open, and PATH/data.N holds
 * stream N's records with no header at all, in perf's order, read by
 * perf as one more data section each.
 */
#include <stdint.h>

struct writer;
struct writer_dir;

/* The DIR_FORMAT version perf 6.1 writes and reads. */
#define WRITER_DIR_VERSION 1

/*
 * Makes the directory path (mode 0700), locked against a second writer for
 * as long as d lives (-EBUSY when another writer holds path). What is at
 * path already (a recording, file or directory) is first moved to
 * path.old, replacing an older recording there, as perf does; a directory
 * that is not a recording gives -EISDIR, and anything but a recording at
 * path.old -EEXIST. 0 and *out (owned until writer_dir__delete or
 * __abort), or -errno with nothing created or moved.
 */
int writer_dir__create(struct writer_dir **out, const char *path);

/* Creates PATH/data, the directory's perf.data file, as writer__open does
 * (the directory is claimed already). 0 and *out, or -errno. */
int writer_dir__open_header(struct writer_dir *d, struct writer **out);

/*
 * Creates PATH/data.idx as a stream file: a writer whose writes go to it as
 * records only (writer__writev_ring, writer__set_compression work as for a
 * file; writer__finish flushes and closes it, writer__abort removes it).
 * 0 and *out, or -errno.
 */
int writer_dir__open_stream(struct writer_dir *d, int idx, struct writer **out);

/* --kcore: makes PATH/kcore_dir (0700, as perf) and puts its path in
 * buf[len]. 0 or -errno. */
int writer_dir__make_kcore_dir(const struct writer_dir *d, char *buf, size_t len);

/* A failed recording: the directory's files (data, data.N, kcore_dir/ and
 * its kcore, kallsyms, modules) and the directory go, then d is freed.
 * Accepts NULL. */
void writer_dir__abort(struct writer_dir *d);

/* Frees d; the directory stays. Accepts NULL. */
void writer_dir__delete(struct writer_dir *d);

#endif
