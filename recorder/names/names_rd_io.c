// SPDX-License-Identifier: GPL-2.0-only
/*
 * The names reader's channel to the recorder (names_reader_int.h): packets
 * on its socket (symbols batched per instance, warnings, counts), the busy
 * page marked around every call that may block on a traced process's file,
 * and the directory handles its instances share.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/grow.h"
#include "prec/mono_clock.h"
#include "names/names_reader_int.h"

/* ---- the socket and the busy page ---- */

int names_rd__send(struct names_rd *rd, uint32_t type, uint32_t key, uint64_t a, uint64_t b,
		   const void *payload, size_t len, int fd)
{
	struct names_msg m = { .type = type, .key = key, .a = a, .b = b, .len = (uint32_t)len };
	struct iovec iov[2] = { { &m, sizeof(m) }, { (void *)payload, len } };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };

	uint64_t busy = __atomic_load_n(&rd->busy->since_ns, __ATOMIC_RELAXED);
	int err = 0;

	if (sizeof(m) + len > NAMES_MSG_MAX)
		return -EMSGSIZE;
	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	/* Blocking: the recorder always reads, and ends us if it stops. A
	 * wait for the recorder is no file's stall: not busy meanwhile. */
	if (busy)
		__atomic_store_n(&rd->busy->since_ns, 0, __ATOMIC_RELEASE);
	while (!err && sendmsg(rd->sock, &mh, MSG_NOSIGNAL) < 0)
		err = errno == EINTR ? 0 : -errno;
	if (busy)
		__atomic_store_n(&rd->busy->since_ns, mono_clock__ns(false), __ATOMIC_RELEASE);
	return err;
}

void names_rd__warn(struct names_rd *rd, uint32_t key, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	names_rd__send(rd, NAMES_WARN, key, 0, 0, line, strnlen(line, sizeof(line) - 1), -1);
}

void names_rd__busy(struct names_rd *rd, uint32_t key, const char *path)
{
	rd->busy->key = key;
	rd->busy->bin = 0;
	snprintf(rd->busy->path, sizeof(rd->busy->path), "%s", path);
	__atomic_store_n(&rd->busy->since_ns, mono_clock__ns(false), __ATOMIC_RELEASE);
}

void names_rd__idle(struct names_rd *rd)
{
	__atomic_store_n(&rd->busy->since_ns, 0, __ATOMIC_RELEASE);
}

void names_rd__flush(struct names_rd *rd)
{
	if (rd->out_len)
		names_rd__send(rd, NAMES_SYMS, rd->out_key, 0, 0, rd->out, rd->out_len, -1);
	rd->out_len = 0;
	if (rd->cnt_dirty)
		names_rd__send(rd, NAMES_COUNT, 0, 0, 0, &rd->cnt, sizeof(rd->cnt), -1);
	memset(&rd->cnt, 0, sizeof(rd->cnt));
	rd->cnt_dirty = false;
}

void names_rd__sym(struct names_rd *rd, uint32_t key, uint64_t addr, uint64_t size,
		   const char *name, size_t name_len)
{
	struct names_sym_rec r = { .addr = addr, .size = size };
	size_t need;

	if (name_len > NAMES_MSG_MAX / 2)
		name_len = NAMES_MSG_MAX / 2;
	r.name_len = (uint32_t)name_len;
	need = sizeof(r) + ((name_len + 7) & ~(size_t)7);
	if (rd->out_len &&
	    (rd->out_key != key || sizeof(struct names_msg) + rd->out_len + need > NAMES_MSG_MAX))
		names_rd__flush(rd);
	rd->out_key = key;
	memcpy(rd->out + rd->out_len, &r, sizeof(r));
	memcpy(rd->out + rd->out_len + sizeof(r), name, name_len);
	memset(rd->out + rd->out_len + sizeof(r) + name_len, 0, need - sizeof(r) - name_len);
	rd->out_len += need;
}

/* ---- shared directory handles ---- */

int names_rd__handle(struct names_rd *rd, int fd)
{
	struct stat st;
	uint32_t i, free_at = rd->nr_h;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	for (i = 0; i < rd->nr_h; i++) {
		struct rd_handle *h = &rd->h[i];

		if (h->fd < 0) {
			free_at = free_at == rd->nr_h ? i : free_at;
			continue;
		}
		if (h->dev == (uint64_t)st.st_dev && h->ino == (uint64_t)st.st_ino) {
			close(fd);
			h->refs++;
			return (int)i;
		}
	}
	if (free_at == rd->nr_h) {
		if (grow__array(&rd->h, &rd->cap_h, (size_t)rd->nr_h + 1, sizeof(*rd->h), 16,
				GROW_PIDS_MAX)) {
			close(fd);
			return -1;
		}
		rd->nr_h++;
	}
	rd->h[free_at] = (struct rd_handle){
		.fd = fd, .dev = (uint64_t)st.st_dev, .ino = (uint64_t)st.st_ino, .refs = 1
	};
	return (int)free_at;
}

void names_rd__handle_put(struct names_rd *rd, int idx)
{
	struct rd_handle *h;

	if (idx < 0 || (uint32_t)idx >= rd->nr_h)
		return;
	h = &rd->h[idx];
	if (h->fd >= 0 && !--h->refs) {
		close(h->fd);
		h->fd = -1;
	}
}

int names_rd__handle_fd(const struct names_rd *rd, int idx)
{
	return idx < 0 || (uint32_t)idx >= rd->nr_h ? -1 : rd->h[idx].fd;
}
