// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TRACING_DATA blob (see include/prec/tracing_data.h for its layout):
 * what perf 6.1's tracing_data_get() writes, built in memory from a tracefs
 * tree. tracefs reports a size of 0 for every file, so each file is read to
 * EOF straight into the blob behind a size placeholder that is patched after.
 */
#include "prec/tracing_data.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsread.h"
#include "prec/grow.h"
#include "prec/tracefs.h"

#define TD_VERSION "0.6"
/* More than any tracefs holds; a bound so a runaway file cannot eat memory. */
#define TD_MAX_SIZE (256u << 20)

struct td_buf {
	uint8_t *p;
	size_t len;
	size_t cap;
};

/* One recorded tracepoint, once its id is found. */
struct td_tp {
	uint64_t id;
	char *sys;
	char *name;
};

struct td_tps {
	struct td_tp *v;
	size_t nr;
};

static int buf_reserve(struct td_buf *b, size_t n)
{
	if (n > TD_MAX_SIZE || b->len > TD_MAX_SIZE - n)
		return -EFBIG;
	return grow__array(&b->p, &b->cap, b->len + n, 1, 16384, TD_MAX_SIZE);
}

static int buf_put(struct td_buf *b, const void *data, size_t n)
{
	int err = buf_reserve(b, n);

	if (err)
		return err;
	memcpy(b->p + b->len, data, n);
	b->len += n;
	return 0;
}

/* Writes v as a native-endian integer of n (4 or 8) bytes at off. */
static void buf_patch(struct td_buf *b, size_t off, uint64_t v, size_t n)
{
	if (n == 4) {
		uint32_t v32 = (uint32_t)v;

		memcpy(b->p + off, &v32, 4);
	} else {
		memcpy(b->p + off, &v, 8);
	}
}

/* Reserves an n-byte (4 or 8) size field; returns its offset in *off. */
static int buf_placeholder(struct td_buf *b, size_t n, size_t *off)
{
	static const uint8_t zero[8];

	*off = b->len;
	return buf_put(b, zero, n);
}

/*
 * Appends dirfd/path behind a hdr-byte (4 or 8) size, read to EOF as perf's
 * record_file() does. 0 or -errno (the open's, the read's, -EFBIG).
 */
static int put_file(struct td_buf *b, int dirfd, const char *path, size_t hdr)
{
	size_t off, start;
	int fd, err;

	/* O_NONBLOCK: a FIFO planted in a fixture tree must not hang us. */
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	err = buf_placeholder(b, hdr, &off);
	start = b->len;
	while (!err) {
		ssize_t r;

		err = buf_reserve(b, 4096);
		if (err)
			break;
		r = read(fd, b->p + b->len, b->cap - b->len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
		} else if (r == 0) {
			break;
		} else {
			b->len += (size_t)r;
		}
	}
	close(fd);
	if (!err && hdr == 4 && b->len - start > UINT32_MAX)
		err = -EFBIG;
	if (!err)
		buf_patch(b, off, b->len - start, hdr);
	return err;
}

/* A directory entry that is a subdirectory other than . and .. (perf
 * trusts d_type; a filesystem that does not fill it in is asked). */
static bool entry_is_subdir(DIR *dir, const struct dirent *de)
{
	struct stat st;

	if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
		return false;
	if (de->d_type == DT_DIR)
		return true;
	if (de->d_type != DT_UNKNOWN)
		return false;
	return !fstatat(dirfd(dir), de->d_name, &st, 0) && S_ISDIR(st.st_mode);
}

static void tps_exit(struct td_tps *tps)
{
	for (size_t i = 0; i < tps->nr; i++) {
		free(tps->v[i].sys);
		free(tps->v[i].name);
	}
	free(tps->v);
	tps->v = NULL;
	tps->nr = 0;
}

/* Names every tracepoint with this id sys:name (the ids may repeat);
 * returns how many, or -ENOMEM. */
static int tps_resolve(struct td_tps *tps, uint64_t id, const char *sys, const char *name)
{
	int n = 0;

	for (size_t i = 0; i < tps->nr; i++) {
		struct td_tp *t = &tps->v[i];

		if (t->id != id || t->name)
			continue;
		t->sys = strdup(sys);
		t->name = strdup(name);
		if (!t->sys || !t->name)
			return -ENOMEM;
		n++;
	}
	return n;
}

/*
 * Finds sys:name of every id with one walk over events/<sys>/<name>/id,
 * stopping as soon as the last one is found. Entries whose id cannot be
 * read are not tracepoints (or not ours) and are passed over.
 */
static int tps_find(struct td_tps *tps, int events_fd)
{
	size_t left = tps->nr;
	struct dirent *de;
	DIR *events;
	int err = 0;

	events = fsread__opendir(events_fd, ".");
	if (!events)
		return -errno;
	while (left && !err && (de = readdir(events))) {
		struct dirent *ev;
		DIR *sys;

		if (!entry_is_subdir(events, de))
			continue;
		sys = fsread__opendir(dirfd(events), de->d_name);
		if (!sys)
			continue;
		while (left && !err && (ev = readdir(sys))) {
			uint64_t id;
			int r;

			if (!entry_is_subdir(sys, ev) ||
			    tracefs__read_id(dirfd(sys), ev->d_name, &id))
				continue;
			r = tps_resolve(tps, id, de->d_name, ev->d_name);
			if (r < 0)
				err = r;
			else
				left -= (size_t)r;
		}
		closedir(sys);
	}
	closedir(events);
	if (!err && left)
		err = -ENOENT;
	return err;
}

static bool tps_has_name(const struct td_tps *tps, const char *name)
{
	for (size_t i = 0; i < tps->nr; i++)
		if (!strcmp(tps->v[i].name, name))
			return true;
	return false;
}

static bool tps_has_sys(const struct td_tps *tps, const char *sys)
{
	for (size_t i = 0; i < tps->nr; i++)
		if (!strcmp(tps->v[i].sys, sys))
			return true;
	return false;
}

/*
 * perf's copy_event_system(): u32 count, then the format of every event
 * directory of the system whose name is a recorded tracepoint's name and
 * that has a format file, in directory order.
 */
static int put_system(struct td_buf *b, int parent_fd, const char *sys_name,
		      const struct td_tps *tps)
{
	uint32_t count = 0;
	struct dirent *de;
	size_t off;
	DIR *sys;
	int err;

	sys = fsread__opendir(parent_fd, sys_name);
	if (!sys)
		return -errno;
	err = buf_placeholder(b, 4, &off);
	while (!err && (de = readdir(sys))) {
		char path[NAME_MAX + 12];
		struct stat st;

		if (!entry_is_subdir(sys, de) || !tps_has_name(tps, de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/format", de->d_name);
		if (fstatat(dirfd(sys), path, &st, 0))
			continue;
		err = put_file(b, dirfd(sys), path, 8);
		count++;
	}
	closedir(sys);
	if (!err)
		buf_patch(b, off, count, 4);
	return err;
}

/* u32 count, then "<sys>\0" and put_system() for each recorded system
 * other than ftrace, in the directory order of events/. */
static int put_event_systems(struct td_buf *b, int events_fd, const struct td_tps *tps)
{
	uint32_t count = 0;
	struct dirent *de;
	DIR *events;
	size_t off;
	int err;

	events = fsread__opendir(events_fd, ".");
	if (!events)
		return -errno;
	err = buf_placeholder(b, 4, &off);
	while (!err && (de = readdir(events))) {
		if (!entry_is_subdir(events, de) || !strcmp(de->d_name, "ftrace") ||
		    !tps_has_sys(tps, de->d_name))
			continue;
		err = buf_put(b, de->d_name, strlen(de->d_name) + 1);
		if (!err)
			err = put_system(b, dirfd(events), de->d_name, tps);
		count++;
	}
	closedir(events);
	if (!err)
		buf_patch(b, off, count, 4);
	return err;
}

/* A file that may be missing: its size 0 (hdr bytes) when it is, as perf. */
static int put_optional_file(struct td_buf *b, int dirfd, const char *path, size_t hdr)
{
	struct stat st;
	size_t off;

	if (fstatat(dirfd, path, &st, 0))
		return buf_placeholder(b, hdr, &off);
	return put_file(b, dirfd, path, hdr);
}

static int put_preamble(struct td_buf *b)
{
	static const char magic[10] = { 23, 8, 'D', 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint16_t probe = 1;
	uint8_t big_endian = *(const uint8_t *)&probe == 0;
	uint8_t long_size = sizeof(long);
	uint32_t page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	int err;

	err = buf_put(b, magic, sizeof(magic));
	if (!err)
		err = buf_put(b, TD_VERSION, sizeof(TD_VERSION));
	if (!err)
		err = buf_put(b, &big_endian, 1);
	if (!err)
		err = buf_put(b, &long_size, 1);
	if (!err)
		err = buf_put(b, &page_size, 4);
	return err;
}

/* "header_page\0" or "header_event\0", then u64 size and the file. */
static int put_header_file(struct td_buf *b, int events_fd, const char *name)
{
	int err = buf_put(b, name, strlen(name) + 1);

	return err ? err : put_file(b, events_fd, name, 8);
}

static int build(struct td_buf *b, int tracefs_fd, int events_fd, const struct td_tps *tps)
{
	uint32_t no_kallsyms = 0;
	int err;

	err = put_preamble(b);
	if (!err)
		err = put_header_file(b, events_fd, "header_page");
	if (!err)
		err = put_header_file(b, events_fd, "header_event");
	if (!err)
		err = put_system(b, events_fd, "ftrace", tps);
	if (!err)
		err = put_event_systems(b, events_fd, tps);
	/* perf 6.1 keeps the field for older readers but records no symbols:
	 * its reader resolves addresses with its own symbol code. */
	if (!err)
		err = buf_put(b, &no_kallsyms, 4);
	if (!err)
		err = put_optional_file(b, tracefs_fd, "printk_formats", 4);
	if (!err)
		err = put_optional_file(b, tracefs_fd, "saved_cmdlines", 8);
	return err;
}

int tracing_data__build(const char *tracefs, const char *proc_dir, const uint64_t *tp_ids,
			size_t nr_ids, void **blob, size_t *len)
{
	struct td_tps tps = { 0 };
	struct td_buf b = { 0 };
	int tracefs_fd = -1, events_fd = -1, err;

	(void)proc_dir;
	if (!blob || !len)
		return -EINVAL;
	*blob = NULL;
	*len = 0;
	if (!tracefs || (nr_ids && !tp_ids))
		return -EINVAL;
	if (!nr_ids)
		return -ENOENT;

	tps.v = calloc(nr_ids, sizeof(*tps.v));
	if (!tps.v)
		return -ENOMEM;
	tps.nr = nr_ids;
	for (size_t i = 0; i < nr_ids; i++)
		tps.v[i].id = tp_ids[i];

	tracefs_fd = open(tracefs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tracefs_fd < 0) {
		err = -errno;
		goto out;
	}
	events_fd = openat(tracefs_fd, "events", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (events_fd < 0) {
		err = -errno;
		goto out;
	}
	err = tps_find(&tps, events_fd);
	if (!err)
		err = build(&b, tracefs_fd, events_fd, &tps);
out:
	if (events_fd >= 0)
		close(events_fd);
	if (tracefs_fd >= 0)
		close(tracefs_fd);
	tps_exit(&tps);
	if (err) {
		free(b.p);
		return err;
	}
	*blob = b.p;
	*len = b.len;
	return 0;
}
