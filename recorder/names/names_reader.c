// SPDX-License-Identifier: GPL-2.0-only
/*
 * The names reader (names_reader_int.h): the process that reads what traced
 * processes offer (their perf maps, jitdumps and binaries) for the
 * recorder, so that a file that never answers stalls this process only.
 * It follows each process instance the recorder registers: handles on its
 * root and /tmp, shared by the instances that have the same ones, taken
 * while it lives; its sources read every poll_ms; a last read once it is
 * gone (by its start time, so a reused pid is another instance).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "prec/clock.h"
#include "prec/grow.h"
#include "prec/mono_clock.h"
#include "names/names_reader_int.h"
#include "names/names_reader.h"
#include "targets/proc_status.h"

#define LIVE_EVERY 10 /* polls between checks that each instance lives */

/* ---- instances ---- */

/* /proc/PID/stat's state and start time. 0 or -errno (gone). */
static int read_stat(struct names_rd *rd, uint32_t pid, char *state, uint64_t *start)
{
	char rel[32], buf[1024], *p;
	unsigned long long v = 0;
	ssize_t got;
	int fd, field;

	snprintf(rel, sizeof(rel), "%u/stat", pid);
	fd = openat(rd->proc_fd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return -ESRCH;
	buf[got] = '\0';
	p = strrchr(buf, ')'); /* the comm may hold anything */
	if (!p || p[1] != ' ')
		return -ESRCH;
	*state = p[2];
	/* Field 3 is the state; the start time is field 22. */
	for (field = 3, p += 2; field < 22 && (p = strchr(p, ' ')); field++)
		p++;
	if (!p || sscanf(p, "%llu", &v) != 1)
		return -ESRCH;
	*start = v;
	return 0;
}

/* Whether p's process still runs (a thread of it at least). */
static bool alive(struct names_rd *rd, struct rd_proc *p)
{
	struct proc_status ps;
	char state = 0, rel[32];
	uint64_t start = 0;
	bool live;

	if (!p->start)
		return false;
	names_rd__busy(rd, p->key, "/proc");
	live = !read_stat(rd, p->pid, &state, &start) && start == p->start;
	if (live && (state == 'Z' || state == 'X')) {
		/* A dead leader: the process lives while another thread does. */
		snprintf(rel, sizeof(rel), "%u/status", p->pid);
		live = !proc_status__read(rd->proc_fd, rel, &ps) && ps.threads > 1;
	}
	names_rd__idle(rd);
	return live;
}

/* The wall-clock time of a start time in ticks since boot. */
static int64_t start_real(const struct names_rd *rd, uint64_t ticks)
{
	uint64_t boot, real;

	if (clock__now_ns(CLOCK_BOOTTIME, &boot) || clock__now_ns(CLOCK_REALTIME, &real) ||
	    rd->hz <= 0)
		return 0;
	return (int64_t)real -
	       ((int64_t)boot - (int64_t)(ticks * (1000000000ull / (uint64_t)rd->hz)));
}

/* p's handles, its namespace pid and start, taken from /proc. 0 or -errno. */
static int take_live(struct names_rd *rd, struct rd_proc *p)
{
	struct proc_status ps;
	struct stat st;
	char rel[48], path[96], state;
	int dir, root;

	snprintf(rel, sizeof(rel), "%u", p->pid);
	dir = openat(rd->proc_fd, rel, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	if (fstat(dir, &st) || read_stat(rd, p->pid, &state, &p->start) || state == 'X') {
		close(dir);
		p->start = 0;
		return -ESRCH;
	}
	p->uid = st.st_uid;
	p->start_real_ns = start_real(rd, p->start);
	if (!proc_status__read(dir, "status", &ps) && ps.nstgid > 0)
		p->nspid = ps.nstgid;
	/* The kernel's magic link to its root: the one link followed. */
	snprintf(path, sizeof(path), "/proc/%u/root/tmp, the directory of perf-%d.map,", p->pid,
		 (int)p->nspid);
	names_rd__busy(rd, p->key, path);
	root = openat(dir, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	close(dir);
	if (root < 0) {
		p->start = 0;
		return -ESRCH;
	}
	p->tmp = names_rd__handle(rd, names_open__dir_in_root(root, "tmp"));
	p->root = names_rd__handle(rd, root);
	return 0;
}

/* A process gone before it could be followed: its map is read where perf
 * report would look for it, this /tmp, once. */
static void take_fallback(struct names_rd *rd, struct rd_proc *p)
{
	int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	p->nspid = (pid_t)p->pid;
	p->uid = (uid_t)-1;
	p->tmp = names_rd__handle(rd, root >= 0 ? names_open__dir_in_root(root, "tmp") : -1);
	p->root = names_rd__handle(rd, root);
}

static void release(struct names_rd *rd, struct rd_proc *p)
{
	names_rd__handle_put(rd, p->root);
	names_rd__handle_put(rd, p->tmp);
	p->root = p->tmp = -1;
	names_src__free(p);
}

/* p is over: its sources read a last time (looking for a map written at
 * its exit), then its handles let go. */
static void finish(struct names_rd *rd, struct rd_proc *p)
{
	if (p->gone)
		return;
	names_src__poll(rd, p, true, true);
	names_rd__flush(rd);
	names_rd__send(rd, NAMES_GONE, p->key, 0, 0, NULL, 0, -1);
	p->gone = true;
	release(rd, p);
}

static struct rd_proc *proc_of(struct names_rd *rd, uint32_t key)
{
	return key && key <= rd->max_key ? rd->procs[key] : NULL;
}

static void on_reg(struct names_rd *rd, uint32_t key, uint32_t pid, bool resume)
{
	struct rd_proc *p;
	char path[48];
	int err;

	if (!key || proc_of(rd, key) ||
	    grow__array(&rd->procs, &rd->cap_procs, (size_t)key + 1, sizeof(*rd->procs), 64,
			(size_t)GROW_PIDS_MAX * 4))
		return;
	p = calloc(1, sizeof(*p));
	if (!p)
		return;
	p->key = key;
	p->pid = pid;
	p->nspid = (pid_t)pid;
	p->root = p->tmp = -1;
	rd->procs[key] = p;
	if (key > rd->max_key) {
		for (uint32_t k = rd->max_key + 1; k < key; k++)
			rd->procs[k] = NULL;
		rd->max_key = key;
	}
	snprintf(path, sizeof(path), "/proc/%u/root/tmp", pid);
	names_rd__busy(rd, key, path);
	err = take_live(rd, p);
	if (err && !resume)
		take_fallback(rd, p);
	names_rd__idle(rd);
	if (err && resume) { /* what the last reader read stays */
		p->gone = true;
		names_rd__send(rd, NAMES_GONE, key, 0, 0, NULL, 0, -1);
		return;
	}
	if (err) {
		names_rd__send(rd, NAMES_REGGED, key, 0, (uint64_t)p->nspid, NULL, 0, -1);
		finish(rd, p);
		return;
	}
	/* An earlier instance of this pid that holds this very process was
	 * registered after its own had gone: what it read is not its own. */
	for (uint32_t k = 1; k < key; k++) {
		struct rd_proc *o = rd->procs[k];

		if (o && !o->foreign && o->pid == pid && o->start == p->start) {
			names_rd__send(rd, NAMES_RESET, k, 0, 0, NULL, 0, -1);
			o->foreign = true;
			if (!o->gone) {
				o->gone = true;
				release(rd, o);
			}
		}
	}
	if (resume) /* read from the start: what was read goes */
		names_rd__send(rd, NAMES_RESET, key, 0, 0, NULL, 0, -1);
	names_rd__send(rd, NAMES_REGGED, key, p->start, (uint64_t)p->nspid, NULL, 0, -1);
	names_src__poll(rd, p, true, false);
}

static void poll_all(struct names_rd *rd, bool look, bool check_live)
{
	for (uint32_t k = 1; k <= rd->max_key; k++) {
		struct rd_proc *p = rd->procs[k];

		if (!p || p->gone)
			continue;
		if (check_live && !alive(rd, p))
			finish(rd, p);
		else
			names_src__poll(rd, p, look || p->polls++ % NAMES_LOOK_EVERY == 0, false);
	}
	names_rd__flush(rd);
}

/* One packet from the recorder. false: the recorder is gone. */
static bool on_packet(struct names_rd *rd, const char *buf, size_t len)
{
	const struct names_msg *m = (const void *)buf;
	const char *pl = buf + sizeof(*m);
	struct rd_proc *p;

	if (len < sizeof(*m) || m->len != len - sizeof(*m))
		return true;
	p = proc_of(rd, m->key);
	switch (m->type) {
	case NAMES_REG:
		on_reg(rd, m->key, (uint32_t)m->b, m->a == NAMES_REG_RESUME);
		break;
	case NAMES_EXIT:
		if (p && !p->gone && !alive(rd, p))
			finish(rd, p);
		break;
	case NAMES_GONE:
		if (p)
			finish(rd, p);
		break;
	case NAMES_DUMP:
		if (p && !p->gone && m->len && !pl[m->len - 1])
			names_src__set_dump(rd, p, pl, m->a, m->b);
		break;
	case NAMES_BIN:
		if (m->len > sizeof(struct names_bin_req) && !pl[m->len - 1])
			names_bin__read(rd, m->key, (const void *)pl,
					pl + sizeof(struct names_bin_req));
		break;
	case NAMES_SYNC:
		poll_all(rd, true, false);
		names_rd__send(rd, NAMES_SYNCED, 0, m->a, 0, NULL, 0, -1);
		break;
	default:
		break;
	}
	names_rd__flush(rd);
	return true;
}

static void reader_loop(struct names_rd *rd, char *buf)
{
	uint64_t next = mono_clock__deadline_ns(rd->poll_ms);
	uint32_t ticks = 0;

	for (;;) {
		struct pollfd pfd = { .fd = rd->sock, .events = POLLIN };
		uint64_t now = mono_clock__ns(false);
		int ms = now >= next ? 0 : (int)((next - now) / 1000000) + 1;
		ssize_t got;

		if (poll(&pfd, 1, ms) < 0 && errno != EINTR)
			return;
		if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) {
			got = recv(rd->sock, buf, NAMES_MSG_MAX, MSG_DONTWAIT);
			if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
				return; /* the recorder closed its end */
			if (got > 0 && !on_packet(rd, buf, (size_t)got))
				return;
		}
		if (mono_clock__ns(false) >= next) {
			poll_all(rd, false, ++ticks % LIVE_EVERY == 0);
			next = mono_clock__deadline_ns(rd->poll_ms);
		}
	}
}

void names_reader__main(int sock, struct names_busy *busy, uint64_t max_file, unsigned int poll_ms)
{
	struct names_rd rd = {
		.sock = sock, .busy = busy, .max_file = max_file, .poll_ms = poll_ms, .alive = alive
	};
	struct rlimit rl;
	char *buf = malloc(NAMES_MSG_MAX);

	prctl(PR_SET_NAME, "prec-names");
	/* This process's descriptors are its own: the recorder's limit is
	 * for the recorder's events. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	rd.hz = sysconf(_SC_CLK_TCK);
	rd.proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	rd.out = malloc(NAMES_MSG_MAX);
	if (buf && rd.out && rd.proc_fd >= 0)
		reader_loop(&rd, buf);
	_exit(0);
}

void names_reader__run_if_asked(void)
{
	const char *env = getenv(NAMES_READER_ENV);
	unsigned long long parent, max_file;
	unsigned int poll_ms;
	struct names_busy *busy;
	struct stat st;

	if (!env || sscanf(env, "%llu %llu %u", &parent, &max_file, &poll_ms) != 3 ||
	    fstat(NAMES_READER_SOCK_FD, &st) || !S_ISSOCK(st.st_mode))
		return;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if ((unsigned long long)getppid() != parent)
		_exit(0); /* the recorder is already gone */
	busy = mmap(NULL, sizeof(*busy), PROT_READ | PROT_WRITE, MAP_SHARED, NAMES_READER_BUSY_FD,
		    0);
	if (busy == MAP_FAILED)
		_exit(1);
	close(NAMES_READER_BUSY_FD);
	names_reader__main(NAMES_READER_SOCK_FD, busy, max_file, poll_ms);
}
