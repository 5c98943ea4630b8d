/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_WRITER_CLAIM_H
#define PREC_WRITER_CLAIM_H
/*
 * Taking an output path (claim.c), for a file (writer.c) or a perf.data
 * directory (dir.c): perf's check_backup, an earlier recording at the path
 * moved to PATH.old, and a lock, so that a second prec given the same -o
 * never writes over, truncates or moves the recording a first one is still
 * writing. The new output holds flock(LOCK_EX) for as long as it is open
 * (the kernel drops it when prec exits, however it ends); while one prec
 * claims a path, it holds a lock on the path's directory that only other
 * claims wait for (never the directory's flock, which anyone may hold), so
 * that two claims of the same name cannot interleave. Not for a stream or
 * a device: they are never moved or locked.
 */
#include <stdbool.h>

struct claim {
	int dir_fd; /* the path's directory, claim-locked while claiming; -1 */
	char *oldpath; /* where the earlier recording went; NULL */
};

/*
 * Before the output is created: locks the directory of path, refuses when
 * another writer holds what is at path (-EBUSY), then moves an earlier
 * recording there to path.old, removing an older recording at path.old. A
 * directory at path moves only when it is a recording (its data file is a
 * perf.data file, or it holds data.N or kcore_dir): another directory gives
 * -EISDIR. At path.old, a directory that is not a recording gives -EISDIR,
 * and anything but a file, a symlink or a recording -EEXIST. 0, or -errno
 * with nothing moved (claim__end still to be called).
 */
int claim__begin(struct claim *c, const char *path);

/* The directory of path, claim-locked (waiting, for at most 2 s and
 * named past 200 ms, only for other claims of names in it; never for a
 * flock of the directory): its fd, or -1 when it cannot be (a filesystem
 * without fcntl locks, no read access, another claim stopped), and the
 * claim then goes on unlocked, as perf's does. */
int claim__lock_dir(const char *path);

/* claim__begin with c->dir_fd already set by claim__lock_dir (or -1): a
 * rotation (writer__rotate) holds the directory from before it moves its
 * file away until the next one at path is locked. */
int claim__take(struct claim *c, const char *path);

/* fd, the new output (a regular file or a directory), locked for as long
 * as it is open. 0, or -EBUSY when another writer got there first. */
int claim__lock(int fd);

/* The earlier recording put back at path (the new output failed). */
void claim__undo(struct claim *c, const char *path);

/* The directory unlocked; c forgotten. */
void claim__end(struct claim *c);

/* Removes the recording at path (a file, or a directory of perf's files
 * only: -EEXIST when it holds others). 0 when nothing is there. */
int dir__remove_recording(const char *path);

#endif
