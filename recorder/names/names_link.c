// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's end of the names reader (names_int.h; the protocol is
 * names_proto.h): the reader process started, the thread "prec-names"
 * that carries packets both ways without ever blocking on the reader, and
 * the watch on it. A reader stuck in one call on a traced process's file
 * (a FUSE or NFS mount that stopped answering) is given up, killed (or
 * left behind, if the kernel holds it) and a new one started; what the
 * packets and a stall mean is the registry's (names_link_ops, names.c).
 * Nothing here touches a traced process's files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prec/grow.h"
#include "prec/log.h"
#include "prec/mono_clock.h"
#include "prec/thread.h"
#include "names/names_int.h"
#include "names/names_reader.h"

#define LINK_STACK (256 * 1024)
#define LINK_TICK_MS 100
#define RESPAWNS_MAX 8 /* readers started after the first, at most */

extern char **environ;

/* ---- starting and ending a reader ---- */

/* The environment of the reader: this one, and the variable that makes
 * the new image a reader. NULL: out of memory. */
static char **reader_env(const struct names *n)
{
	size_t nr = 0;
	char **env, *mine;

	while (environ && environ[nr])
		nr++;
	env = calloc(nr + 2, sizeof(*env));
	if (!env || asprintf(&mine, "%s=%d %llu %u", NAMES_READER_ENV, (int)getpid(),
			     (unsigned long long)n->cfg.max_file, n->cfg.poll_ms) < 0) {
		free(env);
		return NULL;
	}
	env[0] = mine;
	for (size_t i = 0, j = 1; i < nr; i++)
		if (strncmp(environ[i], NAMES_READER_ENV "=", sizeof(NAMES_READER_ENV)))
			env[j++] = environ[i];
	return env;
}

/*
 * A new reader: this binary again (by the path its link names, which a
 * tool that runs prec, valgrind, shows as prec's; else /proc/self/exe),
 * with the socket and the busy page as fds 3 and 4 and nothing else: its
 * 0, 1 and 2 are /dev/null (it says everything through the socket), so a
 * reader the kernel keeps in a filesystem after prec ended holds no pipe
 * of prec's open, and a `prec ... | tee` ends with prec. Started by a clone with no exit signal,
 * so its end is no SIGCHLD for the recording (which takes one as its
 * command's end); between the clone and the exec the child makes only
 * system calls. 0 or -errno.
 */
static int reader_start(struct names *n)
{
	char *argv[] = { "prec-names", NULL };
	char exe[PATH_MAX];
	ssize_t len;
	long nul;
	int sv[2];
	char **env;
	long pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -errno;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[len > 0 ? len : 0] = '\0';
	env = reader_env(n);
	if (!env) {
		close(sv[0]);
		close(sv[1]);
		return -ENOMEM;
	}
	pid = syscall(SYS_clone, 0UL, NULL, NULL, NULL, NULL);
	if (pid == 0) {
		/* The child: only system calls until the exec. */
		if (syscall(SYS_dup3, sv[1], NAMES_READER_SOCK_FD, 0) < 0 ||
		    syscall(SYS_dup3, n->busy_fd, NAMES_READER_BUSY_FD, 0) < 0)
			syscall(SYS_exit_group, 127);
		syscall(SYS_close_range, NAMES_READER_BUSY_FD + 1, ~0U, 0);
		nul = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDWR | O_CLOEXEC);
		for (int fd = 0; fd <= 2; fd++)
			if (nul < 0 || syscall(SYS_dup3, nul, fd, 0) < 0)
				syscall(SYS_close, fd);
		if (exe[0] == '/')
			syscall(SYS_execve, exe, argv, env);
		syscall(SYS_execve, "/proc/self/exe", argv, env);
		syscall(SYS_exit_group, 127);
	}
	free(env[0]);
	free(env);
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return -errno;
	}
	n->reader = (pid_t)pid;
	n->sock = sv[0];
	fcntl(n->sock, F_SETFL, O_NONBLOCK);
	return 0;
}

/* The reader killed, reaped if the kernel lets it go at once; one stuck in
 * an uninterruptible wait is left to init. */
static void reader_stop(struct names *n)
{
	if (n->sock >= 0)
		close(n->sock);
	n->sock = -1;
	if (n->reader <= 0)
		return;
	kill(n->reader, SIGKILL);
	for (int i = 0; i < 20; i++) {
		if (waitpid(n->reader, NULL, __WALL | WNOHANG) != 0)
			break;
		usleep(5000);
	}
	n->reader = 0;
	pthread_mutex_lock(&n->lock);
	n->out_len = n->sent = 0; /* what it was sent is gone with it */
	pthread_mutex_unlock(&n->lock);
}

/* ---- packets out ---- */

void names_link__send(struct names *n, uint32_t type, uint32_t key, uint64_t a, uint64_t b,
		      const void *payload, size_t len, const char *str)
{
	size_t slen = str ? strlen(str) + 1 : 0, total = sizeof(struct names_msg) + len + slen;
	struct names_msg m = { .type = type, .key = key, .a = a, .b = b };
	uint32_t rec = (uint32_t)total;

	if (total > NAMES_MSG_MAX)
		return;
	m.len = (uint32_t)(len + slen);
	pthread_mutex_lock(&n->lock);
	if (!grow__array(&n->out, &n->out_cap, n->out_len + sizeof(rec) + total, 1, 4096,
			 (size_t)1 << 30)) {
		char *p = n->out + n->out_len;

		memcpy(p, &rec, sizeof(rec));
		memcpy(p + sizeof(rec), &m, sizeof(m));
		if (len)
			memcpy(p + sizeof(rec) + sizeof(m), payload, len);
		if (slen)
			memcpy(p + sizeof(rec) + sizeof(m) + len, str, slen);
		n->out_len += sizeof(rec) + total;
	}
	pthread_mutex_unlock(&n->lock);
	if (n->wake_fd >= 0)
		eventfd_write(n->wake_fd, 1);
}

/* What is queued, sent as far as the socket takes it (the link thread). */
static void send_queued(struct names *n)
{
	pthread_mutex_lock(&n->lock);
	while (n->sent < n->out_len && n->sock >= 0) {
		uint32_t rec;

		memcpy(&rec, n->out + n->sent, sizeof(rec));
		if (send(n->sock, n->out + n->sent + sizeof(rec), rec,
			 MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			if (errno != EAGAIN && errno != EINTR)
				n->sent = n->out_len; /* the reader is gone */
			break;
		}
		n->sent += sizeof(rec) + rec;
	}
	if (n->sent == n->out_len)
		n->sent = n->out_len = 0;
	pthread_mutex_unlock(&n->lock);
}

/* ---- packets in ---- */

/* A sync's answer (the link's own): true when buf is one. */
static bool on_synced(struct names *n, const char *buf, size_t len)
{
	const struct names_msg *m = (const void *)buf;

	if (len < sizeof(*m) || m->type != NAMES_SYNCED)
		return false;
	pthread_mutex_lock(&n->lock);
	if (m->a > n->synced)
		n->synced = m->a;
	pthread_cond_broadcast(&n->cond);
	pthread_mutex_unlock(&n->lock);
	return true;
}

/* Every packet waiting. false: the reader is gone. */
static bool recv_all(struct names *n, char *buf)
{
	for (;;) {
		union {
			char b[CMSG_SPACE(sizeof(int))];
			struct cmsghdr align;
		} u;
		struct iovec iov = { buf, NAMES_MSG_MAX };
		struct msghdr mh = { .msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = u.b,
				     .msg_controllen = sizeof(u.b) };
		struct cmsghdr *c;
		ssize_t got = recvmsg(n->sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		int fd = -1;

		if (got < 0)
			return errno == EAGAIN || errno == EINTR;
		if (got == 0)
			return false;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
			    c->cmsg_len >= CMSG_LEN(sizeof(int)))
				memcpy(&fd, CMSG_DATA(c), sizeof(int));
		if (!on_synced(n, buf, (size_t)got))
			n->ops.packet(n, buf, (size_t)got, fd);
		else if (fd >= 0)
			close(fd);
	}
}

/* ---- the watch ---- */

/* Whether the reader sits in one call longer than a file should take:
 * asleep in it (not just waiting for a CPU) for over NAMES_STALL_MS. */
static bool reader_stuck(struct names *n)
{
	uint64_t since = __atomic_load_n(&n->busy->since_ns, __ATOMIC_ACQUIRE);
	char rel[48], buf[256], *p;
	ssize_t got;
	int fd;

	if (!since || mono_clock__elapsed_ns(since) < (uint64_t)NAMES_STALL_MS * 1000000)
		return false;
	snprintf(rel, sizeof(rel), "/proc/%d/stat", (int)n->reader);
	fd = open(rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return true;
	buf[got] = '\0';
	p = strrchr(buf, ')');
	return !p || p[1] != ' ' || p[2] != 'R';
}

/* The reader is stuck or gone: the process whose file held it is given
 * up, a new reader takes the others. */
static void reader_replace(struct names *n, bool stuck)
{
	uint32_t key = stuck ? n->busy->key : 0, bin = stuck ? n->busy->bin : 0;
	char path[NAMES_BUSY_PATH];
	uint64_t seq;

	memcpy(path, n->busy->path, sizeof(path));
	path[sizeof(path) - 1] = '\0';
	reader_stop(n);
	if (stuck)
		n->ops.stalled(n, key, bin, path);
	__atomic_store_n(&n->busy->since_ns, 0, __ATOMIC_RELEASE);
	if (n->respawns >= RESPAWNS_MAX || reader_start(n)) {
		if (!n->dead)
			pr_warn("JIT names: their reader could not be started again; what was read is kept");
		pthread_mutex_lock(&n->lock);
		n->dead = true;
		pthread_cond_broadcast(&n->cond);
		pthread_mutex_unlock(&n->lock);
		n->ops.restarted(n, false);
		return;
	}
	n->respawns++;
	n->ops.restarted(n, true);
	/* A file's end waiting on the old one asks the new one. */
	pthread_mutex_lock(&n->lock);
	seq = n->synced < n->sync_seq ? n->sync_seq : 0;
	pthread_mutex_unlock(&n->lock);
	if (seq)
		names_link__send(n, NAMES_SYNC, 0, seq, 0, NULL, 0, NULL);
}

static void *link_thread(void *arg)
{
	struct names *n = arg;
	char *buf = malloc(NAMES_MSG_MAX);

	while (buf) {
		struct pollfd pfd[2] = { { .fd = n->wake_fd, .events = POLLIN },
					 { .fd = n->sock, .events = POLLIN } };
		bool stop, gone = false;

		pthread_mutex_lock(&n->lock);
		stop = n->stop;
		if (n->out_len > n->sent)
			pfd[1].events |= POLLOUT;
		pthread_mutex_unlock(&n->lock);
		if (stop)
			break;
		if (poll(pfd, 2, LINK_TICK_MS) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN) {
			eventfd_t v;

			eventfd_read(n->wake_fd, &v);
		}
		if (n->sock >= 0 && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)))
			gone = !recv_all(n, buf);
		if (n->sock >= 0)
			send_queued(n);
		if (n->dead)
			continue;
		if (gone || reader_stuck(n))
			reader_replace(n, !gone);
	}
	free(buf);
	return NULL;
}

/* ---- the recorder's calls ---- */

int names_link__start(struct names *n, const struct names_link_ops *ops)
{
	int err;

	n->ops = *ops;
	n->sock = -1;
	n->busy_fd = memfd_create("prec-names-busy", MFD_CLOEXEC);
	if (n->busy_fd < 0 || ftruncate(n->busy_fd, sizeof(*n->busy)))
		return -errno;
	n->busy = mmap(NULL, sizeof(*n->busy), PROT_READ | PROT_WRITE, MAP_SHARED, n->busy_fd, 0);
	if (n->busy == MAP_FAILED) {
		n->busy = NULL;
		return -errno;
	}
	n->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (n->wake_fd < 0)
		return -errno;
	err = reader_start(n);
	if (!err)
		err = thread__start(&n->th, "prec-names", LINK_STACK, link_thread, n);
	if (err)
		return err;
	n->started = true;
	return 0;
}

bool names_link__sync(struct names *n, unsigned int wait_ms)
{
	uint64_t deadline = mono_clock__deadline_ns(wait_ms), seq;
	struct timespec until = mono_clock__timespec(deadline);
	bool done;

	pthread_mutex_lock(&n->lock);
	seq = ++n->sync_seq;
	pthread_mutex_unlock(&n->lock);
	names_link__send(n, NAMES_SYNC, 0, seq, 0, NULL, 0, NULL);
	pthread_mutex_lock(&n->lock);
	while (n->synced < seq && !n->dead &&
	       pthread_cond_timedwait(&n->cond, &n->lock, &until) == 0)
		;
	done = n->synced >= seq;
	pthread_mutex_unlock(&n->lock);
	return done;
}

void names_link__stop(struct names *n)
{
	if (n->started) {
		pthread_mutex_lock(&n->lock);
		n->stop = true;
		pthread_mutex_unlock(&n->lock);
		eventfd_write(n->wake_fd, 1);
		pthread_join(n->th, NULL);
		n->started = false;
	}
	reader_stop(n);
	if (n->wake_fd >= 0)
		close(n->wake_fd);
	if (n->busy)
		munmap(n->busy, sizeof(*n->busy));
	if (n->busy_fd >= 0)
		close(n->busy_fd);
	n->wake_fd = n->busy_fd = -1;
	n->busy = NULL;
	free(n->out);
	n->out = NULL;
}
