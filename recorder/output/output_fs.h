/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_OUTPUT_FS_H
#define PREC_OUTPUT_FS_H
/*
 * What an output path's place says about a failure (output_fs.c): the
 * kernel filesystem it is on, and the process that holds its lock.
 */
#include <sys/types.h>

/* The name of the kernel filesystem path is on ("proc", "sysfs", ...)
 * when it is one that holds no recordings; NULL otherwise or when path
 * cannot be looked at. */
const char *output_fs__pseudo(const char *path);

/* The pid of the process holding a flock on the file (dev, ino), read
 * from locks (/proc/locks' text); 0 when none is found. */
pid_t output_fs__lock_holder(const char *locks, dev_t dev, ino_t ino);

/* The same, reading /proc/locks. */
pid_t output_fs__holder(dev_t dev, ino_t ino);

#endif
