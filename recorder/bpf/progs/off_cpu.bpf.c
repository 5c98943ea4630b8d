// SPDX-License-Identifier: GPL-2.0-only
/*
 * --off-cpu: the time each task spends blocked, from sched_switch.
 *
 * When a user task leaves the CPU asleep (interruptible or uninterruptible,
 * with any of the flags newer kernels add to either;
 * kernel threads, which have no user stack, never count) its user stack and
 * the time go into the blocked map. When it comes back, the time it was
 * away is
 *   - at least thresh_ns: sent at once through the offcpu-time event of this
 *     CPU (a direct sample: prec rewrites it into perf 6.1's layout), or
 *   - shorter: added to the total of its (pid, tgid, stack, state, cgroup)
 *     key, which prec writes as samples when the recording ends.
 * Which tasks count: the task filter (by tgid for a command and -p, which
 * also takes in the children those fork; by tid for -t), the CPU filter (-C)
 * and the cgroup filter (-G), each on only when prec fills it.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "off_cpu_shared.h"

#define PF_KTHREAD 0x00200000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define CLONE_THREAD 0x00010000

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(u32));
	__uint(value_size, OFF_CPU_MAX_STACK * sizeof(u64));
	__uint(max_entries, OFF_CPU_MAX_STACKS);
} stacks SEC(".maps");

struct blocked {
	u64 since;
	u32 stack_id;
	u32 state;
};

/*
 * The tasks asleep now, by thread id. A preallocated hash, not task storage
 * (perf's choice): task storage takes a per-CPU lock that a task freeing its
 * storage at exit holds while it can be preempted, and a sched_switch on that
 * CPU then finds it taken and loses the block (seen here as a thread now and
 * then missing its whole wait). A hash's lock is never held across a switch.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u32);
	__type(value, struct blocked);
	__uint(max_entries, OFF_CPU_MAX_BLOCKED);
} blocked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct off_cpu_key);
	__type(value, u64);
	__uint(max_entries, OFF_CPU_MAX_KEYS);
} totals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(u32));
	__uint(value_size, sizeof(u32));
	__uint(max_entries, 1); /* prec sets it to the CPU count */
} direct SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u32);
	__type(value, u8);
	__uint(max_entries, 1); /* sized by prec */
} cpu_filter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u32);
	__type(value, u8);
	__uint(max_entries, 1); /* sized by prec */
} task_filter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u64);
	__type(value, u8);
	__uint(max_entries, 1); /* sized by prec */
} cgroup_filter SEC(".maps");

/* Set by prec before load. */
const volatile bool has_prev_state;
const volatile bool needs_cgroup;
const volatile bool has_cpu;
const volatile bool has_task;
const volatile bool has_cgroup;
const volatile bool uses_tgid;
const volatile __u64 thresh_ns;

/* Set by prec while recording. */
int enabled;
/* Direct samples the perf ring refused (full): prec reports them. */
__u64 direct_lost;

static __always_inline unsigned int task_state(struct task_struct *t)
{
	struct task_struct___new *tn = (void *)t;
	struct task_struct___old *to = (void *)t;

	if (bpf_core_field_exists(tn->__state))
		return BPF_CORE_READ(tn, __state);
	return (unsigned int)BPF_CORE_READ(to, state);
}

static __always_inline u64 task_cgroup(struct task_struct *t)
{
	return BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
}

static __always_inline bool counts(struct task_struct *t, unsigned int state)
{
	u32 key;

	if (BPF_CORE_READ(t, flags) & PF_KTHREAD)
		return false;
	/* Asleep, whatever else the state says: since Linux 6.1 most sleeps
	 * (nanosleep, futex, poll) add TASK_FREEZABLE, killable ones
	 * TASK_WAKEKILL. A preempted task is running, not blocked. */
	if (!(state & (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)))
		return false;
	if (has_cpu) {
		key = bpf_get_smp_processor_id();
		if (!bpf_map_lookup_elem(&cpu_filter, &key))
			return false;
	}
	if (has_task) {
		key = uses_tgid ? BPF_CORE_READ(t, tgid) : BPF_CORE_READ(t, pid);
		if (!bpf_map_lookup_elem(&task_filter, &key))
			return false;
	}
	if (has_cgroup) {
		u64 id = task_cgroup(t);

		if (!bpf_map_lookup_elem(&cgroup_filter, &id))
			return false;
	}
	return true;
}

static __always_inline void came_back(void *ctx, struct task_struct *next, u64 now)
{
	u32 tid = BPF_CORE_READ(next, pid);
	struct blocked *b = bpf_map_lookup_elem(&blocked, &tid);
	struct off_cpu_key key = {};
	u64 delta, *total;

	if (!b)
		return;
	/* Copied out before the delete lets the element be reused. */
	delta = now - b->since;
	key.stack_id = b->stack_id;
	key.state = b->state;
	bpf_map_delete_elem(&blocked, &tid);
	key.pid = tid;
	key.tgid = BPF_CORE_READ(next, tgid);
	key.cgroup_id = needs_cgroup ? task_cgroup(next) : 0;
	if (thresh_ns && delta >= thresh_ns) {
		struct off_cpu_direct d = { .key = key, .period = delta };

		if (bpf_perf_event_output(ctx, &direct, BPF_F_CURRENT_CPU, &d, sizeof(d)))
			__sync_fetch_and_add(&direct_lost, 1);
		return;
	}
	total = bpf_map_lookup_elem(&totals, &key);
	if (total)
		__sync_fetch_and_add(total, delta);
	else
		bpf_map_update_elem(&totals, &key, &delta, BPF_ANY);
}

SEC("tp_btf/sched_switch")
int on_switch(u64 *ctx)
{
	struct task_struct *prev = (void *)ctx[1], *next = (void *)ctx[2];
	unsigned int state;
	u64 now;

	if (!enabled)
		return 0;
	now = bpf_ktime_get_ns();
	state = has_prev_state ? (unsigned int)ctx[3] : task_state(prev);
	if (counts(prev, state)) {
		u32 tid = BPF_CORE_READ(prev, pid);
		struct blocked b = {
			.since = now,
			.state = state & (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE),
			.stack_id = bpf_get_stackid(ctx, &stacks,
						    BPF_F_FAST_STACK_CMP | BPF_F_USER_STACK),
		};

		bpf_map_update_elem(&blocked, &tid, &b, BPF_ANY);
	}
	came_back(ctx, next, now);
	return 0;
}

/* A process forked by one that is followed is followed too (not threads:
 * the filter holds tgids then). */
SEC("tp_btf/task_newtask")
int on_newtask(u64 *ctx)
{
	struct task_struct *parent = (void *)bpf_get_current_task();
	struct task_struct *child = (void *)ctx[0];
	u64 clone_flags = ctx[1];
	u32 pid;
	u8 one = 1;

	if (!has_task || !uses_tgid || (clone_flags & CLONE_THREAD))
		return 0;
	pid = BPF_CORE_READ(parent, tgid);
	if (!bpf_map_lookup_elem(&task_filter, &pid))
		return 0;
	pid = BPF_CORE_READ(child, tgid);
	bpf_map_update_elem(&task_filter, &pid, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
