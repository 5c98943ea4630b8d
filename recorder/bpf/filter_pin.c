// SPDX-License-Identifier: GPL-2.0-only
/*
 * --setup-filter pin|unpin and the pinned BPF filter (filter_pin.h), as perf
 * 6.12 shares one: root loads sample_filter with use_idx_hash and room for
 * SAMPLE_FILTER_SLOTS filters and pins it with its maps, open to everyone
 * (the program 0777, the maps 0666, as perf sets them); a user's prec then
 * claims a slot, registers its event's ids and processes, and attaches the
 * pinned program by fd, which needs no capability. prec pins under its own
 * directory: its entries are laid out unlike perf's, and a program of one
 * fed the other's would filter wrong without a word.
 */
#include "bpf/filter_pin.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "bpf/bpf_layer.h"
#include "events/bpf_filter_parse.h"
#include "evlist/evsel.h"
#include "prec/mounts.h"
#include "targets/proc_status.h"
#include "targets/caps.h"
#include "targets/thread_map.h"

#ifdef PREC_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpf/sample_filter.skel.h"
#endif

#define DEFAULT_BPFFS "/sys/fs/bpf"
/* Where prec pins: its own directory, for its entries are not perf's. */
#define FILTER_PIN_DIR "prec_filter"
#define PROG_NAME "sample_filter"

struct filter_pin {
	__u32 slot;
	__u64 first_id;
	int nr_tgids;
	pid_t *tgids;
};

/*
 * The directory of the pinned objects: FILTER_PIN_DIR under the BPF
 * filesystem's mount (/proc/mounts; /sys/fs/bpf when none is found, then
 * *mounted is false).
 */
static void filter_pin__dir(char *buf, size_t len, bool *mounted)
{
	char root[512], *text;

	*mounted = false;
	if (!mounts__read("/proc/mounts", &text)) {
		*mounted = !mounts__find(text, "bpf", root, sizeof(root));
		free(text);
	}
	snprintf(buf, len, "%s/%s", *mounted ? root : DEFAULT_BPFFS, FILTER_PIN_DIR);
}

/* The pinned object NAME's path. */
static void pinned(const char *name, char *buf, size_t len)
{
	char dir[600];
	bool mounted;

	filter_pin__dir(dir, sizeof(dir), &mounted);
	snprintf(buf, len, "%s/%s", dir, name);
}

bool filter_pin__usable(void)
{
	char path[700];

	pinned(PROG_NAME, path, sizeof(path));
	return bpf_layer__built() && access(path, R_OK | W_OK) == 0;
}

#ifdef PREC_HAVE_BPF
/* Open to every user, as perf 6.12 leaves them; the first failure's -errno. */
static int open_up(const char *dir)
{
	static const struct {
		const char *name;
		mode_t mode;
	} modes[] = {
		/* The BPF filesystem's root keeps its sticky bit. */
		{ "..", 01755 },     { ".", 0755 },	     { PROG_NAME, 0777 },
		{ "filters", 0666 }, { "event_hash", 0666 }, { "idx_hash", 0666 },
		{ "dropped", 0666 },
	};
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (fchmodat(fd, modes[i].name, modes[i].mode, 0) < 0 && !ret)
			ret = -errno;
	close(fd);
	return ret;
}

/* libbpf 1.1 (Debian 12) has no bpf_object__unpin: its two halves. */
static int unpin_all(struct bpf_object *obj, const char *dir)
{
	int ret = bpf_object__unpin_programs(obj, dir);
	int maps = bpf_object__unpin_maps(obj, dir);

	return ret ? ret : maps;
}

static int pin(const char *dir, const char **step)
{
	struct sample_filter_bpf *skel = sample_filter_bpf__open();
	int ret;

	*step = "load";
	if (!skel)
		return -errno;
	bpf_map__set_max_entries(skel->maps.filters, SAMPLE_FILTER_SLOTS);
	bpf_map__set_max_entries(skel->maps.dropped, SAMPLE_FILTER_SLOTS);
	bpf_map__set_max_entries(skel->maps.event_hash, SAMPLE_FILTER_EVENT_IDS);
	bpf_map__set_max_entries(skel->maps.idx_hash, SAMPLE_FILTER_TASKS);
	skel->rodata->use_idx_hash = 1;
	ret = sample_filter_bpf__load(skel);
	if (!ret) {
		*step = "pin";
		ret = bpf_object__pin(skel->obj, dir);
	}
	if (!ret) {
		*step = "open up";
		ret = open_up(dir);
		if (ret)
			unpin_all(skel->obj, dir);
	}
	sample_filter_bpf__destroy(skel);
	return ret;
}

static int unpin(const char *dir, const char **step)
{
	struct sample_filter_bpf *skel = sample_filter_bpf__open_and_load();
	int ret;

	*step = "load";
	if (!skel)
		return -errno;
	*step = "unpin";
	ret = unpin_all(skel->obj, dir);
	sample_filter_bpf__destroy(skel);
	if (!ret && rmdir(dir) < 0 && errno != ENOENT)
		ret = -errno;
	return ret;
}
#endif

int filter_pin__setup(const char *action, struct prec_err *e)
{
	bool do_pin = !strcmp(action, "pin"), mounted;
	const char *step = "load";
	char dir[600], prog[700];
	int ret;

	ret = bpf_layer__check("--setup-filter", NULL, e);
	if (ret)
		return ret;
	filter_pin__dir(dir, sizeof(dir), &mounted);
	if (!mounted)
		return prec_err__set(
			e, -ENOENT,
			"--setup-filter %s: no BPF filesystem is mounted (mount it with 'mount -t bpf bpf %s')",
			action, DEFAULT_BPFFS);
	pinned(PROG_NAME, prog, sizeof(prog));
	if (do_pin && access(prog, F_OK) == 0)
		return prec_err__set(
			e, -EEXIST,
			"--setup-filter pin: the filter is pinned already in %s (run --setup-filter unpin first to pin this prec's)",
			dir);
	if (!do_pin && access(dir, F_OK) < 0)
		return prec_err__set(e, -ENOENT, "--setup-filter unpin: nothing is pinned in %s",
				     dir);
	bpf_layer__capture(false);
#ifdef PREC_HAVE_BPF
	ret = do_pin ? pin(dir, &step) : unpin(dir, &step);
#else
	ret = -EOPNOTSUPP;
#endif
	if (ret) {
		struct prec_err why = PREC_ERR_INIT;

		bpf_layer__explain(&why, "--setup-filter", step, -ret);
		prec_err__set(e, ret, "%s (in %s)", prec_err__msg(&why), dir);
		prec_err__clear(&why);
	}
	return ret;
}

#ifdef PREC_HAVE_BPF
/* The pinned map or program NAME, or -errno. */
static int pinned_fd(const char *name)
{
	char path[700];
	int fd;

	pinned(name, path, sizeof(path));
	fd = bpf_obj_get(path);
	return fd < 0 ? -errno : fd;
}

/* The processes of threads, once each: the program keys by the sample's. */
static int collect_tgids(struct filter_pin *p, const struct thread_map *threads)
{
	int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	p->tgids = calloc((size_t)threads->nr + 1, sizeof(*p->tgids));
	if (!p->tgids || procfd < 0) {
		if (procfd >= 0)
			close(procfd);
		return -ENOMEM;
	}
	for (int i = 0; i < threads->nr; i++) {
		struct proc_status st;
		char rel[32];
		bool seen = false;

		snprintf(rel, sizeof(rel), "%d/status", threads->pid[i]);
		/* A thread gone already has no samples left to filter. */
		if (threads->pid[i] <= 0 || proc_status__read(procfd, rel, &st))
			continue;
		for (int j = 0; j < p->nr_tgids; j++)
			seen |= p->tgids[j] == st.tgid;
		if (!seen)
			p->tgids[p->nr_tgids++] = st.tgid;
	}
	close(procfd);
	return 0;
}

/* The slot's filter, the event's ids and processes in the pinned maps. */
static int fill(struct filter_pin *p, const struct evsel *evsel, const struct filter_terms *f,
		const char **step)
{
	int fd = pinned_fd("filters"), n = evsel->nr_cpus * evsel->nr_threads, ret = 0;
	__u32 slot;

	*step = "open the pinned maps of";
	if (fd < 0)
		return fd;
	*step = "claim a slot in the pinned map of";
	for (slot = 0; slot < SAMPLE_FILTER_SLOTS; slot++)
		if (!bpf_map_update_elem(fd, &slot, f->v, BPF_NOEXIST))
			break;
	close(fd);
	if (slot == SAMPLE_FILTER_SLOTS)
		return -EBUSY;
	p->slot = slot;
	*step = "register the event with";
	fd = pinned_fd("event_hash");
	for (int i = 0; fd >= 0 && i < n && !ret; i++) {
		__u64 id = evsel->id[i];

		if (evsel->fd[i] < 0 || !id)
			continue;
		if (!p->first_id)
			p->first_id = id;
		if (bpf_map_update_elem(fd, &id, &p->first_id, BPF_ANY))
			ret = -errno;
	}
	ret = fd < 0 ? fd : ret;
	if (fd >= 0)
		close(fd);
	fd = ret ? ret : pinned_fd("idx_hash");
	for (int i = 0; fd >= 0 && i < p->nr_tgids && !ret; i++) {
		struct sample_filter_idx_key key = { .evt_id = p->first_id, .tgid = p->tgids[i] };

		if (bpf_map_update_elem(fd, &key, &slot, BPF_ANY))
			ret = -errno;
	}
	if (fd >= 0)
		close(fd);
	return ret ? ret : fd < 0 ? fd : 0;
}

/* The slot's drop count back to 0: the last user's may be there. */
static void reset_dropped(__u32 slot)
{
	int fd = pinned_fd("dropped"), n = libbpf_num_possible_cpus();
	__u64 *zero = n > 0 ? calloc((size_t)n, sizeof(*zero)) : NULL;

	if (fd >= 0 && zero)
		bpf_map_update_elem(fd, &slot, zero, BPF_ANY);
	free(zero);
	if (fd >= 0)
		close(fd);
}

static int attach(struct filter_pin *p, const struct evsel *evsel, const struct filter_terms *f,
		  const struct thread_map *threads, const char **step)
{
	int ret = collect_tgids(p, threads), prog;

	if (!ret)
		ret = fill(p, evsel, f, step);
	if (ret)
		return ret;
	reset_dropped(p->slot);
	*step = "attach";
	prog = pinned_fd(PROG_NAME);
	if (prog < 0)
		return prog;
	for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads && !ret; i++)
		if (evsel->fd[i] >= 0 && ioctl(evsel->fd[i], PERF_EVENT_IOC_SET_BPF, prog) < 0)
			ret = -errno;
	close(prog);
	return ret;
}
#endif

int filter_pin__attach(const struct evsel *evsel, const struct filter_terms *f,
		       const struct thread_map *threads, struct filter_pin **out,
		       struct prec_err *e)
{
	struct filter_pin *p = calloc(1, sizeof(*p));
	const char *step = "load";
	struct prec_err why = PREC_ERR_INIT;
	char dir[600];
	bool mounted;
	int ret;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->slot = SAMPLE_FILTER_SLOTS; /* none claimed: none to free */
	bpf_layer__capture(false);
#ifdef PREC_HAVE_BPF
	ret = attach(p, evsel, f, threads, &step);
#else
	(void)f;
	(void)threads;
	ret = -EOPNOTSUPP;
#endif
	if (ret == -EBUSY) {
		prec_err__set(
			e, ret,
			"event '%s': --filter: all %d slots of the pinned filter are in use (wait for other recordings to end, or run prec as root)",
			evsel->name, SAMPLE_FILTER_SLOTS);
	} else if (ret) {
		filter_pin__dir(dir, sizeof(dir), &mounted);
		bpf_layer__explain(&why, "--filter", step, -ret);
		prec_err__set(e, ret, "event '%s': %s (the filter pinned in %s)", evsel->name,
			      prec_err__msg(&why), dir);
		prec_err__clear(&why);
	}
	if (ret) {
		filter_pin__delete(p);
		return ret;
	}
	*out = p;
	return 0;
}

uint64_t filter_pin__dropped(const struct filter_pin *p)
{
	uint64_t sum = 0;
#ifdef PREC_HAVE_BPF
	int fd, n = libbpf_num_possible_cpus();
	__u64 *per_cpu;

	if (!p || n <= 0)
		return 0;
	fd = pinned_fd("dropped");
	per_cpu = calloc((size_t)n, sizeof(*per_cpu));
	if (fd >= 0 && per_cpu && !bpf_map_lookup_elem(fd, &p->slot, per_cpu))
		for (int i = 0; i < n; i++)
			sum += per_cpu[i];
	free(per_cpu);
	if (fd >= 0)
		close(fd);
#else
	(void)p;
#endif
	return sum;
}

#ifdef PREC_HAVE_BPF
/* Every event_hash key that maps to first: the fds may be closed already,
 * so the map is walked, and the keys deleted after the walk. */
static void forget_event(__u64 first)
{
	int fd = pinned_fd("event_hash"), nr = 0;
	__u64 *keys = calloc(SAMPLE_FILTER_EVENT_IDS, sizeof(*keys));
	__u64 key, id, *prev = NULL;

	while (fd >= 0 && keys && nr < SAMPLE_FILTER_EVENT_IDS &&
	       !bpf_map_get_next_key(fd, prev, &key)) {
		if (!bpf_map_lookup_elem(fd, &key, &id) && id == first)
			keys[nr++] = key;
		prev = &key;
	}
	for (int i = 0; i < nr; i++)
		bpf_map_delete_elem(fd, &keys[i]);
	free(keys);
	if (fd >= 0)
		close(fd);
}
#endif

void filter_pin__delete(struct filter_pin *p)
{
	if (!p)
		return;
#ifdef PREC_HAVE_BPF
	int fd = pinned_fd("idx_hash");

	for (int i = 0; fd >= 0 && p->first_id && i < p->nr_tgids; i++) {
		struct sample_filter_idx_key key = { .evt_id = p->first_id, .tgid = p->tgids[i] };

		bpf_map_delete_elem(fd, &key);
	}
	if (fd >= 0)
		close(fd);
	if (p->first_id)
		forget_event(p->first_id);
	fd = p->slot < SAMPLE_FILTER_SLOTS ? pinned_fd("filters") : -1;
	if (fd >= 0) {
		bpf_map_delete_elem(fd, &p->slot);
		close(fd);
	}
#endif
	free(p->tgids);
	free(p);
}
