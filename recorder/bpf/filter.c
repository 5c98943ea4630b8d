// SPDX-License-Identifier: GPL-2.0-only
/*
 * A BPF --filter on one event (filter.h): the sample-bit check perf makes
 * before it opens the event, then one sample_filter program per filtered
 * event, its map filled with the parsed terms, attached to each fd, and the
 * drop count it keeps per CPU. Every failure is one line through the BPF
 * layer (bpf_layer.h), which also refuses a prec built without BPF.
 */
#include "bpf/filter.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "bpf/bpf_layer.h"
#include "bpf/filter_pin.h"
#include "events/bpf_filter_parse.h"
#include "evlist/evlist.h"
#include "prec/log.h"
#include "targets/caps.h"
#include "targets/target.h"
#include "targets/thread_map.h"

#ifdef PREC_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpf/sample_filter.skel.h"
#endif

struct bpf_filter {
#ifdef PREC_HAVE_BPF
	struct sample_filter_bpf *skel;
#else
	void *skel; /* never set: without the programs nothing loads */
#endif
	struct filter_pin *pin; /* the pinned program's slot, instead of skel */
};

/*
 * A cgroup term's id: perf 6.12 reads it from the path under the cgroup
 * mount with name_to_handle_at, and silently filters on id 0 when that
 * fails; a cgroup that is not there is refused here instead.
 */
static int resolve_one(const char *str, struct filter_terms *f, int i, struct prec_err *e)
{
	char root[512], path[PATH_MAX + 600];
	const char *p = str + f->path_at[i];
	int n = (int)f->len[i], fd, ret = 0;
	uint64_t id = 0;

	target__cgroup_root(root, sizeof(root));
	if (f->path_len[i] >= PATH_MAX)
		return prec_err__set(e, -ENAMETOOLONG,
				     "--filter '%.*s': the cgroup path is longer than %d bytes",
				     n > 64 ? 64 : n, str + f->at[i], PATH_MAX);
	snprintf(path, sizeof(path), "%s/%.*s", root, (int)f->path_len[i], *p == '/' ? p + 1 : p);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || target__cgroup_id(fd, &id) < 0) {
		ret = -errno;
		prec_err__set(
			e, ret,
			"--filter '%.*s': cannot %s cgroup %s: %s (give a path under the cgroup2 mount %s; 'ls %s' lists them)",
			n, str + f->at[i], fd < 0 ? "open" : "read the id of", path, strerror(-ret),
			root, root);
	}
	if (fd >= 0)
		close(fd);
	f->v[i].value = id;
	return ret;
}

/*
 * The value of each cgroup term of f, parsed from str: the id of the cgroup
 * its path names under the cgroup2 mount. 0, or -errno with one line in e
 * naming the term, the directory and where cgroups are.
 */
static int bpf_filter__resolve(const char *str, struct filter_terms *f, struct prec_err *e)
{
	for (int i = 0; i < f->nr; i++) {
		int ret = f->path_len[i] ? resolve_one(str, f, i, e) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

int bpf_filter__check(const struct evsel *evsel, struct prec_err *e)
{
	struct filter_terms *f = malloc(sizeof(*f));
	const char *option;
	uint64_t bit;
	int i;

	if (!f)
		return -ENOMEM;
	/* The specs parsed it: this cannot fail. */
	if (filter_terms__parse(evsel->filter, f, e)) {
		free(f);
		return -EINVAL;
	}
	i = filter_terms__missing(f, evsel->attr.sample_type);
	if (i < 0) {
		i = bpf_filter__resolve(evsel->filter, f, e);
		free(f);
		return i;
	}
	bit = f->v[i].sample;
	option = filter_terms__bit_option(bit);
	if (option)
		prec_err__set(e, -EINVAL, "--filter '%.*s': event '%s' does not sample %s: add %s",
			      (int)f->len[i], evsel->filter + f->at[i], evsel->name,
			      filter_terms__bit_name(bit), option);
	else
		prec_err__set(
			e, -EINVAL,
			"--filter '%.*s': event '%s' does not sample %s, and no option adds it: filter on a field it samples",
			(int)f->len[i], evsel->filter + f->at[i], evsel->name,
			filter_terms__bit_name(bit));
	free(f);
	return -EINVAL;
}

#ifdef PREC_HAVE_BPF
/* The program with the event's terms in its map, attached to each open fd. */
static int attach(struct bpf_filter *bf, const struct evsel *evsel, const char **step)
{
	struct filter_terms *f = malloc(sizeof(*f));
	__u32 zero = 0;
	int prog_fd, ret;

	if (!f)
		return -ENOMEM;
	*step = "load";
	bf->skel = sample_filter_bpf__open_and_load();
	ret = bf->skel ? 0 : -errno;
	/* bpf_filter__check parsed and resolved it: these cannot fail. */
	if (!ret && filter_terms__parse(evsel->filter, f, NULL))
		ret = -EINVAL;
	if (!ret && bpf_filter__resolve(evsel->filter, f, NULL))
		ret = -ENOENT;
	if (!ret) {
		*step = "fill the map of";
		if (bpf_map_update_elem(bpf_map__fd(bf->skel->maps.filters), &zero, f->v, BPF_ANY))
			ret = -errno;
	}
	free(f);
	if (ret)
		return ret;
	*step = "attach";
	prog_fd = bpf_program__fd(bf->skel->progs.sample_filter);
	for (int i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++) {
		if (evsel->fd[i] >= 0 && ioctl(evsel->fd[i], PERF_EVENT_IOC_SET_BPF, prog_fd) < 0)
			return -errno;
	}
	return 0;
}
#endif

/*
 * Loads the program with the event's filter and attaches it to each of its
 * open fds (PERF_EVENT_IOC_SET_BPF). 0 and *out (owned), or -errno with one
 * line in e (bpf_layer__explain's). verbose: echo libbpf's messages.
 */
static int bpf_filter__attach(const struct evsel *evsel, bool verbose, struct bpf_filter **out,
			      struct prec_err *e)
{
	struct bpf_filter *bf = calloc(1, sizeof(*bf));
	const char *step = "load";
	int ret;

	*out = NULL;
	if (!bf)
		return -ENOMEM;
	bpf_layer__capture(verbose);
#ifdef PREC_HAVE_BPF
	ret = attach(bf, evsel, &step);
#else
	(void)evsel;
	ret = -EOPNOTSUPP;
#endif
	if (ret) {
		bpf_layer__explain(e, "--filter", step, -ret);
		prec_err__prefix(e, "event '%s'", evsel->name);
		bpf_filter__delete(bf);
		return ret;
	}
	*out = bf;
	return 0;
}

uint64_t bpf_filter__dropped(const struct bpf_filter *bf)
{
	uint64_t sum = 0;
#ifdef PREC_HAVE_BPF
	int n = libbpf_num_possible_cpus();
	__u64 *per_cpu;
	__u32 zero = 0;

	if (bf && bf->pin)
		return filter_pin__dropped(bf->pin);
	if (!bf || !bf->skel || n <= 0)
		return 0;
	per_cpu = calloc((size_t)n, sizeof(*per_cpu));
	if (per_cpu && !bpf_map_lookup_elem(bpf_map__fd(bf->skel->maps.dropped), &zero, per_cpu))
		for (int i = 0; i < n; i++)
			sum += per_cpu[i];
	free(per_cpu);
#else
	(void)bf;
#endif
	return sum;
}

/*
 * Without CAP_BPF, the program root pinned (--setup-filter pin) on the
 * event, the filter in a slot of its map. 0, or -errno with one line.
 */
static int attach_pinned(const struct evlist *evlist, struct evsel *evsel, struct prec_err *e)
{
	struct filter_terms *f = malloc(sizeof(*f));
	struct bpf_filter *bf = calloc(1, sizeof(*bf));
	int ret = f && bf ? 0 : -ENOMEM;

	/* bpf_filter__check parsed and resolved it: these cannot fail. */
	if (!ret &&
	    (filter_terms__parse(evsel->filter, f, e) || bpf_filter__resolve(evsel->filter, f, e)))
		ret = -EINVAL;
	if (!ret)
		ret = filter_pin__attach(evsel, f, evlist->threads, &bf->pin, e);
	free(f);
	if (ret) {
		bpf_filter__delete(bf);
		return ret;
	}
	evsel->bpf_filter = bf;
	return 0;
}

/* Whether the filters go through the pinned program, or -EINVAL after one
 * line where it would be needed but cannot serve the target. */
static int use_pinned(const struct evlist *evlist, struct prec_err *e)
{
	if (caps__can_load_bpf() || !filter_pin__usable())
		return 0;
	/* perf 6.12 too keys the pinned filters by process: not -a, -C. */
	if (!evlist->threads || !evlist->threads->nr || evlist->threads->pid[0] == -1)
		return prec_err__set(
			e, -EINVAL,
			"--filter: the pinned BPF filter serves the processes prec records, not -a or -C (record a command, -p or -t, or run prec as root)");
	return 1;
}

static int attach_all(struct evlist *evlist, struct prec_err *e)
{
	bool any = false;
	int pinned = 0, ret;

	for (int i = 0; i < evlist->nr; i++) {
		const struct evsel *evsel = &evlist->evsel[i];

		if (!evsel->filter || !evsel->filter_bpf)
			continue;
		any = true;
		ret = bpf_filter__check(evsel, e);
		if (ret)
			return ret == -ENOMEM ? ret : -EINVAL;
	}
	if (any)
		pinned = use_pinned(evlist, e);
	if (pinned < 0)
		return pinned;
	if (any && !pinned && bpf_layer__check("--filter", NULL, e))
		return -EINVAL;
	for (int i = 0; any && i < evlist->nr; i++) {
		struct evsel *evsel = &evlist->evsel[i];

		if (!evsel->filter || !evsel->filter_bpf)
			continue;
		if (pinned)
			ret = attach_pinned(evlist, evsel, e);
		else
			ret = bpf_filter__attach(evsel, log__level() >= LOG_VERBOSE,
						 &evsel->bpf_filter, e);
		if (ret)
			return ret;
	}
	return 0;
}

int bpf_filters__attach(struct evlist *evlist, struct prec_err *e)
{
	int ret = attach_all(evlist, e);

	if (ret && !prec_err__is_set(e)) /* out of memory too is one line */
		prec_err__set(e, ret, "--filter: %s", strerror(-ret));
	return ret;
}

void bpf_filters__detach(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++) {
		bpf_filter__delete(evlist->evsel[i].bpf_filter);
		evlist->evsel[i].bpf_filter = NULL;
	}
}

uint64_t bpf_filters__dropped(const struct evlist *evlist)
{
	uint64_t sum = 0;

	for (int i = 0; evlist && i < evlist->nr; i++)
		sum += bpf_filter__dropped(evlist->evsel[i].bpf_filter);
	return sum;
}

void bpf_filter__delete(struct bpf_filter *bf)
{
	if (!bf)
		return;
#ifdef PREC_HAVE_BPF
	sample_filter_bpf__destroy(bf->skel);
#endif
	filter_pin__delete(bf->pin);
	free(bf);
}
