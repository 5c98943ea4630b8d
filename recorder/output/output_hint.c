// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fix to name when the output cannot be created or written, one per
 * errno (moved from record_prepare.c: the output says its own errors, at
 * the start and at each --switch-output file).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "prec/sysinfo.h"
#include "output/output_hint.h"
#include "output/output_fs.h"

/* "X.old", where writer__open keeps the previous recording, when it is in the
 * way (a directory or another non-file); NULL otherwise. */
static bool old_in_way(const char *output, char *old, size_t len)
{
	struct stat st;

	snprintf(old, len, "%s.old", output);
	return !lstat(old, &st) && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode);
}

/* The chattr letter that keeps path from being removed or renamed
 * (immutable, append-only), or 0. */
static char pinned(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	int flags = 0;

	if (fd < 0)
		return 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags))
		flags = 0;
	close(fd);
	return flags & FS_IMMUTABLE_FL ? 'i' : flags & FS_APPEND_FL ? 'a' : 0;
}

/* -EPERM where the earlier recording cannot be moved: X.old (which perf and
 * prec remove first) or X itself pinned by chattr, which root meets too.
 * perf 6.1 names X.old: "Can't remove old data". Filled hint, or false. */
static bool output__hint_pinned(const char *output, char *hint, size_t len)
{
	char old[PATH_MAX + 8];
	const char *who = old;
	char c;

	snprintf(old, sizeof(old), "%s.old", output);
	c = pinned(old);
	if (!c) {
		c = pinned(output);
		who = output;
	}
	if (!c)
		return false;
	/* a path cut short still leaves the fix readable */
	return snprintf(
		       hint, len,
		       "'%s' cannot be %s, and prec keeps the previous recording at %s.old: it is %s ('lsattr -d %s' shows '%c'): clear it with 'chattr -%c %s', or choose another path with -o",
		       who, who == old ? "removed" : "moved", output,
		       c == 'i' ? "immutable" : "append-only", who, c, c, who) > 0;
}

/* -EBUSY: another prec (or perf-like writer) holds the output's lock. */
static const char *output__hint_busy(const char *output, char *hint, size_t len)
{
	struct timespec nap = { 0, 5 * 1000000L };
	struct stat st;
	pid_t pid = 0;

	/* A holder rotating its file (--switch-output) has the next one at
	 * the path a moment later, and locked a moment after that. */
	for (int i = 0; i < 20 && pid <= 0; i++) {
		if (i)
			nanosleep(&nap, NULL);
		pid = stat(output, &st) ? 0 : output_fs__holder(st.st_dev, st.st_ino);
	}

	if (pid > 0)
		snprintf(
			hint, len,
			"process %d is recording into it: wait for it to end, or choose another path with -o",
			(int)pid);
	else
		snprintf(
			hint, len,
			"another process is recording into it: wait for it to end, or choose another path with -o");
	return hint;
}

/*
 * Where the output is, when that alone explains the failure: a filesystem
 * of the kernel's that holds no files (proc, sysfs, ...), or a relative
 * path in a current directory that was deleted. Filled hint, or false.
 */
static bool output__hint_place(const char *output, char *hint, size_t len)
{
	const char *slash = strrchr(output, '/');
	char dir[PATH_MAX];
	const char *fs;
	struct stat st;

	if (output[0] != '/' && !stat(".", &st) && st.st_nlink == 0) {
		snprintf(
			hint, len,
			"the current directory was deleted: cd to a directory that exists, or give -o an absolute path");
		return true;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - output) + 1 : 1,
		 slash ? output : ".");
	fs = output_fs__pseudo(output);
	if (!fs)
		fs = output_fs__pseudo(dir);
	if (!fs)
		return false;
	snprintf(
		hint, len,
		"%s is on %s, a filesystem of the kernel's that holds no recordings: give -o a path on a disk, e.g. -o /tmp/perf.data",
		output, fs);
	return true;
}

/*
 * The fix for an output path that could not be created or written: each
 * errno its own cause. The text may name the path; then it is written
 * into hint, the caller's.
 */
const char *output__hint_into(const char *output, int err, char *hint, size_t len)
{
	char dir[PATH_MAX], old[PATH_MAX + 8], target[PATH_MAX];
	struct stat st, lst;
	const char *slash = strrchr(output, '/');
	bool have = !stat(output, &st);
	ssize_t n;

	if (output__hint_place(output, hint, len))
		return hint;
	switch (-err) {
	case EBUSY:
		return output__hint_busy(output, hint, len);
	case EACCES:
	case EPERM:
		if (output__hint_pinned(output, hint, len))
			return hint;
		return "this user may not write there: choose a writable place, e.g. -o /tmp/perf.data";
	case EROFS:
		return "its filesystem is read-only: choose a writable place, e.g. -o /tmp/perf.data";
	case EMFILE:
		return "raise the open-file limit with 'ulimit -n 4096'";
	case ENFILE:
		snprintf(
			hint, len,
			"the system's open-file table is full: raise it with '%ssysctl -w fs.file-max=%lld'",
			geteuid() ? "sudo " : "",
			(long long)sysinfo__sysctl_or("fs/file-max", 1048576) * 2);
		return hint;
	case EFBIG:
		return "the file size limit was reached: raise it with 'ulimit -f unlimited', or cap the file with --max-size or split it with --switch-output=SIZE";
	case EDQUOT:
		return "the disk quota is used up ('quota -s' shows it): free some space or choose another filesystem with -o";
	case EIO:
		return "the storage reported an I/O error ('dmesg | tail' shows it): choose another path with -o";
	case ENAMETOOLONG:
		return "the path is too long: choose a shorter one with -o";
	case ENOSPC:
		if (have && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
			return "it is a device, not a file, and it takes no more data: give -o a regular file";
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - output) + 1 : 1,
			 slash ? output : ".");
		snprintf(
			hint, len,
			"its filesystem is full ('df -h %s' shows it): free some space, or choose another path with -o",
			dir);
		return hint;
	case ESPIPE:
		if (have && S_ISFIFO(st.st_mode)) {
			snprintf(
				hint, len,
				"it is a FIFO, and a perf.data file must be seekable: stream into it with -o - instead, e.g. prec -o - -- cmd > %s",
				output);
			return hint;
		}
		return "the output cannot seek (a perf.data file is patched at the end): give -o a regular file, or stream with -o - and redirect standard output";
	case ENOTSUP:
		if (have && S_ISBLK(st.st_mode))
			return "it is a block device, not a file: give -o a regular file";
		break;
	case EISDIR:
		if (have && S_ISDIR(st.st_mode)) {
			/* A recording would have moved to .old: this is not one. */
			snprintf(
				hint, len,
				"it is a directory that holds no recording, and prec moves only a recording to %s.old: record into it with -o %s/perf.data, or choose another path with -o",
				output, output);
			return hint;
		}
		/* Otherwise the rename to X.old met a directory there. */
		__attribute__((fallthrough));
	case EEXIST:
		if (old_in_way(output, old, sizeof(old))) {
			snprintf(
				hint, len,
				"'%s', where the previous %s is kept, is %s: move it away or choose another path with -o",
				old, output, -err == EISDIR ? "a directory" : "not a regular file");
			return hint;
		}
		break;
	case ENOENT:
		/* A dangling symlink: open() creates its target, in a directory
		 * that is not there. */
		if (!lstat(output, &lst) && S_ISLNK(lst.st_mode) &&
		    (n = readlink(output, target, sizeof(target) - 1)) > 0) {
			target[n] = '\0';
			snprintf(
				hint, len,
				"it is a symbolic link to '%s', whose directory does not exist: create it or choose another path with -o",
				target);
			return hint;
		}
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - output) + 1 : 1,
			 slash ? output : ".");
		if (stat(dir, &st) == 0)
			/* The directory is there (a kernel filesystem was named
			 * above): the path went away while it was taken. */
			return "another program removed or renamed it while prec was creating it: run prec again, or choose another path with -o";
		snprintf(
			hint, len,
			"its directory does not exist: create it with 'mkdir -p %s', or choose another path with -o",
			dir);
		return hint;
	default:
		break;
	}
	return "choose another path with -o";
}
