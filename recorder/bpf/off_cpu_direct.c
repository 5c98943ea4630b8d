// SPDX-License-Identifier: GPL-2.0-only
/*
 * --off-cpu's direct samples (--off-cpu-thresh): a block at least that long
 * is sent by the program, when it ends, through a BPF-output event of the
 * CPU it ends on, opened here for any task on every online CPU with one
 * small ring each. The kernel stamps it with the recording's clock (-k
 * included); the payload says whose block it was, for how long, and its
 * stack. off_cpu__drain turns each into perf 6.1's offcpu-time sample, the
 * layout perf 6.1 reads (not newer perf's RAW payload), and writes it as
 * ring data on the main stream, so pipe mode, -z, --threads and
 * --switch-output take it like any other.
 */
#include "bpf/off_cpu.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/uio.h>
#include <linux/perf_event.h>

#include "bpf/off_cpu_int.h"
#include "bpf/off_cpu_sample.h"
#include "drain/ring.h"
#include "prec/writer.h"
#include "targets/cpu_map.h"
#include "targets/sys.h"

#ifdef PREC_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* Direct samples are rare (a block of 500 ms by default): 16 pages a CPU. */
#define DIRECT_RING_BYTES (64u << 10)
/* Converted samples are written in batches of this much. */
#define DIRECT_BUF_BYTES (64u << 10)

static int open_cpu(struct off_cpu *oc, bool use_clockid, int clockid, int cpu, struct ring *r)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
		.wakeup_events = 1,
		.use_clockid = use_clockid,
		.clockid = use_clockid ? clockid : 0,
	};
	uint32_t key = (uint32_t)cpu;
	int fd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = ring__mmap(r, fd, cpu, DIRECT_RING_BYTES, false);
	if (ret) {
		close(fd);
		return ret;
	}
	if (bpf_map_update_elem(bpf_map__fd(oc->skel->maps.direct), &key, &fd, BPF_ANY)) {
		ret = -errno;
		ring__munmap(r);
		close(fd);
		return ret;
	}
	return 0;
}

int off_cpu_direct__open(struct off_cpu *oc, bool use_clockid, int clockid)
{
	struct cpu_map *online = NULL;
	int ret = cpu_map__online(&online);

	if (ret)
		return ret;
	oc->rings = calloc((size_t)online->nr, sizeof(*oc->rings));
	oc->buf = malloc(DIRECT_BUF_BYTES);
	if (!oc->rings || !oc->buf) {
		cpu_map__delete(online);
		return -ENOMEM;
	}
	for (int i = 0; i < online->nr && !ret; i++) {
		if (online->cpu[i] >= oc->nr_possible)
			continue;
		ret = open_cpu(oc, use_clockid, clockid, online->cpu[i], &oc->rings[oc->nr_rings]);
		if (!ret)
			oc->nr_rings++;
	}
	cpu_map__delete(online);
	return ret;
}

void off_cpu_direct__close(struct off_cpu *oc)
{
	for (int i = 0; i < oc->nr_rings; i++) {
		int fd = oc->rings[i].fd;

		ring__munmap(&oc->rings[i]);
		close(fd);
	}
	free(oc->rings);
	free(oc->buf);
	oc->buf = NULL;
	oc->rings = NULL;
	oc->nr_rings = 0;
}

/* One kernel record at pos (TIME, then RAW: u32 size, the payload) as a
 * sample in buf. Its size, or 0 for anything else. */
static size_t convert(struct off_cpu *oc, const struct ring *r, uint64_t pos,
		      const struct perf_event_header *h, void *buf, size_t cap)
{
	uint64_t frames[OFF_CPU_MAX_STACK];
	struct off_cpu_direct d;
	struct off_cpu_sample s;
	uint64_t time;
	uint32_t raw;

	if (h->type == PERF_RECORD_LOST) {
		oc->direct_lost += ring__peek_u64(r, pos + sizeof(*h) + 8);
		return 0;
	}
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + 12 + sizeof(d))
		return 0;
	time = ring__peek_u64(r, pos + sizeof(*h));
	ring__copy(r, pos + sizeof(*h) + 8, &raw, sizeof(raw));
	if (raw < sizeof(d))
		return 0;
	ring__copy(r, pos + sizeof(*h) + 12, &d, sizeof(d));
	s = (struct off_cpu_sample){
		.pid = d.key.pid,
		.tgid = d.key.tgid,
		.period = d.period,
		.time = time,
		.cpu = (uint32_t)r->cpu,
		.cgroup_id = d.key.cgroup_id,
		.frames = frames,
		.nr_frames = off_cpu__stack(oc, d.key.stack_id, frames),
	};
	return off_cpu_sample__encode(buf, cap, oc->sample_type, oc->id, &s);
}

int off_cpu__drain(struct off_cpu *oc, struct writer *w)
{
	uint64_t *buf = oc ? oc->buf : NULL;
	size_t used = 0, cap = DIRECT_BUF_BYTES;
	int ret = 0;

	for (int i = 0; oc && i < oc->nr_rings && !ret; i++) {
		struct ring *r = &oc->rings[i];
		const struct perf_event_header *h;
		uint64_t pos;

		if (!ring__read_init(r))
			continue;
		pos = r->start;
		while (!ret) {
			uint64_t at = pos;
			size_t n;

			h = ring__read_event(r, &pos);
			if (!h)
				break;
			if (cap - used < OFF_CPU_SAMPLE_MAX_BYTES(OFF_CPU_MAX_STACK)) {
				struct iovec iov = { buf, used };

				ret = writer__writev_ring(w, &iov, 1, false);
				used = 0;
			}
			n = convert(oc, r, at, h, (char *)buf + used, cap - used);
			used += n;
			if (n)
				__atomic_add_fetch(&oc->direct_written, 1, __ATOMIC_RELAXED);
		}
		ring__consume(r);
	}
	if (!ret && used) {
		struct iovec iov = { buf, used };

		ret = writer__writev_ring(w, &iov, 1, false);
	}
	return ret;
}

#else

int off_cpu__drain(struct off_cpu *oc, struct writer *w)
{
	return 0;
}

#endif
