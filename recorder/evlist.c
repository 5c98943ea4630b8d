// SPDX-License-Identifier: GPL-2.0-only
/* The events of a recording: attrs as perf record sets them, fds, rings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "prec/cpu_map.h"
#include "prec/evlist.h"
#include "prec/log.h"
#include "prec/parse_events.h"
#include "prec/perf_file.h"
#include "prec/record.h"
#include "caps.h"

static void evsel__config(struct evsel *evsel, const struct record_opts *opts, bool tracking,
			  bool several)
{
	struct perf_event_attr *attr = &evsel->attr;

	attr->size = PREC_ATTR_SIZE;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	/* Several events: every record says which one it is, in the place
	 * readers find without knowing the event (IDENTIFIER). */
	if (several)
		attr->sample_type |= PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER;
	attr->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	attr->disabled = 1;
	attr->inherit = 1;
	attr->enable_on_exec = 1;
	attr->sample_id_all = 1;
	if (opts->period) {
		attr->freq = 0;
		attr->sample_period = opts->period;
	} else {
		attr->freq = 1;
		attr->sample_freq = opts->freq;
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	}
	if (opts->use_clockid) {
		attr->use_clockid = 1;
		attr->clockid = opts->clockid;
	}
	if (tracking) {
		/* One event carries the side-band the reader needs to resolve IPs. */
		attr->mmap = 1;
		attr->mmap2 = 1;
		attr->comm = 1;
		attr->comm_exec = 1;
		attr->task = 1;
		attr->ksymbol = 1;
		attr->bpf_event = 1;
	}
}

static size_t id_hdr_size(uint64_t sample_type)
{
	size_t size = 0;

	if (sample_type & PERF_SAMPLE_TID)
		size += 8;
	if (sample_type & PERF_SAMPLE_TIME)
		size += 8;
	if (sample_type & PERF_SAMPLE_ID)
		size += 8;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		size += 8;
	if (sample_type & PERF_SAMPLE_CPU)
		size += 8;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		size += 8;
	return size;
}

int evlist__init(struct evlist *evlist, const struct event_specs *specs,
		 const struct record_opts *opts, struct cpu_map *cpus)
{
	memset(evlist, 0, sizeof(*evlist));
	evlist->cpus = cpus;
	evlist->evsel = calloc(specs->nr, sizeof(*evlist->evsel));
	if (!evlist->evsel)
		return -ENOMEM;
	for (int i = 0; i < specs->nr; i++) {
		struct evsel *evsel = &evlist->evsel[i];
		const struct event_spec *spec = &specs->v[i];

		evsel->attr = spec->attr;
		evsel->idx = i;
		evsel->precise_max = spec->precise_max;
		evsel->name_from_attr = spec->name_from_attr;
		evsel->name = strdup(spec->name);
		if (!evsel->name)
			return -ENOMEM;
		evlist->nr++;
		evsel__config(evsel, opts, i == 0, specs->nr > 1);
	}
	evlist->id_hdr_size = id_hdr_size(evlist->evsel[0].attr.sample_type);
	return 0;
}

static const char *open_hint(int err, char *buf, size_t len)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return caps__advice(buf, len);
	case EMFILE:
	case ENFILE:
		return "too many open files: raise the limit with 'ulimit -n'";
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return "this machine does not support the event; pick another with -e";
	case EBUSY:
		return "another tool holds this PMU exclusively";
	case ESRCH:
		return "the target process is gone";
	default:
		return "the kernel refused the event's attributes; try it without modifiers";
	}
}

int evlist__open(struct evlist *evlist, int pid)
{
	for (int i = 0; i < evlist->nr; i++) {
		struct evsel *evsel = &evlist->evsel[i];
		int cpu = -1;
		int ret = evsel__open(evsel, pid, evlist->cpus->cpu, evlist->cpus->nr, &cpu);

		if (ret) {
			char advice[256];

			pr_err("cannot open event '%s' on CPU %d: %s (%s)", evsel->name, cpu,
			       strerror(-ret), open_hint(-ret, advice, sizeof(advice)));
			for (int j = 0; j < i; j++)
				evsel__close(&evlist->evsel[j]);
			return ret;
		}
		if (evsel->name_from_attr) {
			/* The default event is named after what was finally opened,
			 * with perf's modifier suffix (e.g. cpu-clock:pppH). */
			const char *base = event_name__symbol(evsel->attr.type, evsel->attr.config);

			if (evsel__rename_from_attr(evsel, base ? base : evsel->name))
				return -ENOMEM;
		}
	}
	return 0;
}

int evlist__mmap(struct evlist *evlist, size_t data_bytes)
{
	int nr = evlist->cpus->nr;
	int ret = 0;

	evlist->rings = calloc(nr, sizeof(*evlist->rings));
	if (!evlist->rings)
		return -ENOMEM;
	for (int i = 0; i < nr; i++) {
		int cpu = evlist->cpus->cpu[i];

		ret = ring__mmap(&evlist->rings[i], evlist->evsel[0].fd[i], cpu, data_bytes);
		if (ret) {
			if (ret == -EPERM)
				pr_err("cannot map %zu KiB ring buffers per CPU: %s (raise /proc/sys/kernel/perf_event_mlock_kb or use a smaller -m)",
				       data_bytes >> 10, strerror(-ret));
			else
				pr_err("cannot map the ring buffer of CPU %d: %s (try a smaller -m)",
				       cpu, strerror(-ret));
			return ret;
		}
		evlist->nr_rings++;
		for (int e = 1; e < evlist->nr; e++) {
			if (ioctl(evlist->evsel[e].fd[i], PERF_EVENT_IOC_SET_OUTPUT,
				  evlist->rings[i].fd) < 0) {
				ret = -errno;
				pr_err("cannot redirect event '%s' to the ring of CPU %d: %s",
				       evlist->evsel[e].name, cpu, strerror(-ret));
				return ret;
			}
		}
	}
	return 0;
}

void evlist__disable(struct evlist *evlist)
{
	for (int e = 0; e < evlist->nr; e++) {
		struct evsel *evsel = &evlist->evsel[e];

		for (int i = 0; evsel->fd && i < evsel->nr_cpus; i++)
			if (evsel->fd[i] >= 0)
				ioctl(evsel->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	}
}

void evlist__exit(struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr_rings; i++)
		ring__munmap(&evlist->rings[i]);
	free(evlist->rings);
	for (int e = 0; e < evlist->nr; e++)
		evsel__exit(&evlist->evsel[e]);
	free(evlist->evsel);
	cpu_map__delete(evlist->cpus);
	memset(evlist, 0, sizeof(*evlist));
}

int evlist__sample_time_offset(const struct evlist *evlist)
{
	uint64_t st = evlist->evsel[0].attr.sample_type;
	int off = 0;

	if (!(st & PERF_SAMPLE_TIME))
		return -1;
	if (st & PERF_SAMPLE_IDENTIFIER)
		off += 8;
	if (st & PERF_SAMPLE_IP)
		off += 8;
	if (st & PERF_SAMPLE_TID)
		off += 8;
	return off;
}

bool evlist__exclude_kernel(const struct evlist *evlist)
{
	for (int i = 0; i < evlist->nr; i++)
		if (!evlist->evsel[i].attr.exclude_kernel)
			return false;
	return true;
}
