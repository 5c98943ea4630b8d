// SPDX-License-Identifier: GPL-2.0-only
/*
 * --off-cpu (off_cpu.h): loads progs/off_cpu.bpf.c for the recording's
 * target, turns it on and off with the events, and writes what it found as
 * perf 6.1 writes it (off_cpu_sample.h). The direct samples' own events and
 * rings are off_cpu_direct.c's.
 */
#include "bpf/off_cpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/bpf_layer.h"
#include "bpf/off_cpu_int.h"
#include "bpf/off_cpu_sample.h"
#include "prec/error.h"

/* bpf_layer's longest line: its libbpf message, the fix, prec's path. */

#ifdef PREC_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

/* Since Linux 5.18 sched_switch passes prev_state (the state the task
 * leaves in: reading it from the task counts a preempted task that was
 * about to sleep as blocked). The tracepoint's BTF prototype says. */
static bool sched_switch_has_prev_state(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t;
	bool yes = false;
	int id;

	if (!btf)
		return false;
	id = btf__find_by_name_kind(btf, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
	if (t)
		t = btf__type_by_id(btf, t->type);
	if (t && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	/* void *data, bool preempt, prev, next[, prev_state] */
	if (t && btf_is_func_proto(t) && btf_vlen(t) >= 5)
		yes = true;
	btf__free(btf);
	return yes;
}

static int fill_filters(struct off_cpu *oc, const struct off_cpu_params *p)
{
	uint8_t one = 1;
	int fd;

	fd = bpf_map__fd(oc->skel->maps.cpu_filter);
	for (int i = 0; p->cpus && i < p->nr_cpus; i++) {
		uint32_t cpu = (uint32_t)p->cpus[i];

		if (bpf_map_update_elem(fd, &cpu, &one, BPF_ANY))
			return -errno;
	}
	fd = bpf_map__fd(oc->skel->maps.task_filter);
	for (int i = 0; p->tasks && i < p->nr_tasks; i++) {
		uint32_t pid = (uint32_t)p->tasks[i];

		if (bpf_map_update_elem(fd, &pid, &one, BPF_ANY))
			return -errno;
	}
	fd = bpf_map__fd(oc->skel->maps.cgroup_filter);
	if (p->cgroup_id && bpf_map_update_elem(fd, &p->cgroup_id, &one, BPF_ANY))
		return -errno;
	return 0;
}

/* The sizes and constants the program is loaded with. */
static int configure(struct off_cpu *oc, const struct off_cpu_params *p)
{
	struct off_cpu_bpf *s = oc->skel;
	/* A command's children join its filter as they are forked. */
	uint32_t tasks = p->by_tgid ? OFF_CPU_MAX_TASKS : (uint32_t)p->nr_tasks;
	int ret = 0;

	s->rodata->has_prev_state = sched_switch_has_prev_state();
	s->rodata->needs_cgroup = p->needs_cgroup;
	s->rodata->has_cpu = p->cpus != NULL;
	s->rodata->has_task = p->tasks != NULL;
	s->rodata->uses_tgid = p->by_tgid;
	s->rodata->has_cgroup = p->cgroup_id != 0;
	s->rodata->thresh_ns = p->thresh_ns;
	if (p->cpus)
		ret = bpf_map__set_max_entries(s->maps.cpu_filter, (uint32_t)p->nr_cpus);
	if (!ret && p->tasks)
		ret = bpf_map__set_max_entries(s->maps.task_filter, tasks ? tasks : 1);
	if (!ret)
		ret = bpf_map__set_max_entries(s->maps.direct, (uint32_t)oc->nr_possible);
	return ret;
}

int off_cpu__open(struct off_cpu **out, const struct off_cpu_params *p, struct prec_err *e)
{
	struct off_cpu *oc = calloc(1, sizeof(*oc));
	const char *step = "open";
	int ret;

	*out = NULL;
	if (!oc)
		return prec_err__set(e, -ENOMEM, "--off-cpu: out of memory");
	bpf_layer__capture(p->verbose);
	oc->nr_possible = libbpf_num_possible_cpus();
	oc->skel = oc->nr_possible > 0 ? off_cpu_bpf__open() : NULL;
	ret = oc->skel ? configure(oc, p) : -errno;
	if (!ret) {
		step = "load";
		ret = off_cpu_bpf__load(oc->skel);
	}
	if (!ret) {
		step = "set up";
		ret = fill_filters(oc, p);
	}
	if (!ret)
		ret = off_cpu_direct__open(oc, p->use_clockid, p->clockid);
	if (!ret) {
		step = "attach";
		ret = off_cpu_bpf__attach(oc->skel);
	}
	if (ret) {
		/* Explained before the delete, whose libbpf messages would
		 * replace the one that says why. */
		ret = bpf_layer__explain(e, "--off-cpu", step, ret < 0 ? -ret : ret);
		off_cpu__delete(oc);
		return ret;
	}
	oc->stack_fd = bpf_map__fd(oc->skel->maps.stacks);
	*out = oc;
	return 0;
}

void off_cpu__enable(struct off_cpu *oc)
{
	if (oc)
		__atomic_store_n(&oc->skel->bss->enabled, 1, __ATOMIC_RELAXED);
}

void off_cpu__disable(struct off_cpu *oc)
{
	if (oc)
		__atomic_store_n(&oc->skel->bss->enabled, 0, __ATOMIC_RELAXED);
}

/* The blocks that made no sample: the program's, the direct rings'. */
static uint64_t off_cpu__lost_blocks(const struct off_cpu *oc)
{
	const struct off_cpu_bpf__bss *bss = oc->skel->bss;

	return oc->direct_lost + __atomic_load_n(&bss->direct_lost, __ATOMIC_RELAXED) +
	       __atomic_load_n(&bss->lost_blocks, __ATOMIC_RELAXED);
}

/* One sample per total, or (emit answered that the size limit is reached: > 0) the
 * count of those not written. */
static int off_cpu__emit_totals(struct off_cpu *oc, int fd,
				int (*emit)(void *arg, const void *rec, size_t len), void *arg)
{
	uint64_t frames[OFF_CPU_MAX_STACK];
	uint64_t rec[OFF_CPU_SAMPLE_MAX_BYTES(OFF_CPU_MAX_STACK) / 8];
	struct off_cpu_key key, prev;
	uint64_t time = OFF_CPU_TOTALS_TIME;
	void *at = NULL;
	int ret = 0;

	while (!bpf_map_get_next_key(fd, at, &key)) {
		struct off_cpu_sample s = { .pid = key.pid,
					    .tgid = key.tgid,
					    .time = time++,
					    .cgroup_id = key.cgroup_id,
					    .frames = frames };
		size_t n;

		prev = key;
		at = &prev;
		if (bpf_map_lookup_elem(fd, &key, &s.period))
			continue;
		if (ret > 0) { /* past the limit: counted, not written */
			oc->totals_cut++;
			continue;
		}
		s.nr_frames = off_cpu__stack(oc, key.stack_id, frames);
		n = off_cpu_sample__encode(rec, sizeof(rec), oc->sample_type, oc->id, &s);
		if (!n)
			continue;
		ret = emit(arg, rec, n);
		if (ret < 0)
			return ret;
		if (ret > 0)
			oc->totals_cut++;
		else
			oc->totals_written++;
	}
	return 0;
}

int off_cpu__write_totals(struct off_cpu *oc, int (*emit)(void *arg, const void *rec, size_t len),
			  void *arg)
{
	uint64_t rec[OFF_CPU_LOST_MAX_BYTES / 8];
	uint64_t lost;
	size_t n;
	int ret;

	if (!oc)
		return 0;
	off_cpu__disable(oc);
	/* The loss first: after the summed samples a size limit would cut it. */
	lost = off_cpu__lost_blocks(oc);
	n = lost ? off_cpu_sample__lost(rec, sizeof(rec), oc->sample_type, oc->id, lost) : 0;
	ret = n ? emit(arg, rec, n) : 0;
	if (ret < 0)
		return ret;
	return off_cpu__emit_totals(oc, bpf_map__fd(oc->skel->maps.totals), emit, arg);
}

void off_cpu__counts(const struct off_cpu *oc, uint64_t *totals, uint64_t *direct, uint64_t *lost)
{
	*totals = oc ? oc->totals_written : 0;
	*direct = oc ? __atomic_load_n(&oc->direct_written, __ATOMIC_RELAXED) : 0;
	*lost = oc ? oc->direct_lost + oc->skel->bss->direct_lost : 0;
}

void off_cpu__losses(const struct off_cpu *oc, struct off_cpu_losses *l)
{
	const struct off_cpu_bpf__bss *bss = oc ? oc->skel->bss : NULL;

	memset(l, 0, sizeof(*l));
	if (!oc)
		return;
	l->blocks = __atomic_load_n(&bss->lost_blocks, __ATOMIC_RELAXED);
	l->stacks = __atomic_load_n(&bss->lost_stacks, __ATOMIC_RELAXED);
	l->children = __atomic_load_n(&bss->lost_children, __ATOMIC_RELAXED);
	l->late = __atomic_load_n(&bss->late_ends, __ATOMIC_RELAXED);
	l->cut = oc->totals_cut;
}

void off_cpu__delete(struct off_cpu *oc)
{
	if (!oc)
		return;
	off_cpu_direct__close(oc);
	off_cpu_bpf__destroy(oc->skel);
	free(oc);
}

#else /* !PREC_HAVE_BPF */

int off_cpu__open(struct off_cpu **out, const struct off_cpu_params *p, struct prec_err *e)
{
	*out = NULL;
	return bpf_layer__check("--off-cpu", NULL, e);
}

void off_cpu__enable(struct off_cpu *oc)
{
}

void off_cpu__disable(struct off_cpu *oc)
{
}

int off_cpu__write_totals(struct off_cpu *oc, int (*emit)(void *arg, const void *rec, size_t len),
			  void *arg)
{
	return 0;
}

void off_cpu__counts(const struct off_cpu *oc, uint64_t *totals, uint64_t *direct, uint64_t *lost)
{
	*totals = *direct = *lost = 0;
}

void off_cpu__losses(const struct off_cpu *oc, struct off_cpu_losses *l)
{
	memset(l, 0, sizeof(*l));
}

void off_cpu__delete(struct off_cpu *oc)
{
}

#endif

void off_cpu__set_event(struct off_cpu *oc, uint64_t sample_type, uint64_t id)
{
	if (oc) {
		oc->sample_type = sample_type;
		oc->id = id;
	}
}
