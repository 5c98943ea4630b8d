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
 * A thresh_ns of 0 makes every block a direct sample. Whatever cannot be
 * kept (a full map, a stack whose bucket is taken) is counted for prec's
 * summary and LOST_SAMPLES record, never dropped in silence.
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
/* What prec reports: direct samples the perf ring refused (full); blocks
 * not written (a full map, an end not found); blocks kept without their
 * stack (its bucket taken by another stack, or the map full); blocks whose
 * end was found late (ended_unseen); children the filter could not take. */
__u64 direct_lost;
__u64 lost_blocks;
__u64 lost_stacks;
__u64 late_ends;
__u64 lost_children;

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

/* A block of tid begins: its stack and time, until it runs again. */
static __always_inline void start_block(void *ctx, u32 tid, unsigned int state, u64 now)
{
	struct blocked b = {
		.since = now,
		.state = state & (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE),
	};
	long id = bpf_get_stackid(ctx, &stacks, BPF_F_FAST_STACK_CMP | BPF_F_USER_STACK);

	/* -EEXIST: another stack holds its hash bucket; -ENOMEM: the map is
	 * full (-EFAULT: no user stack at all, not a loss). */
	if (id == -17 || id == -12)
		__sync_fetch_and_add(&lost_stacks, 1);
	b.stack_id = (u32)id;
	if (bpf_map_update_elem(&blocked, &tid, &b, BPF_ANY))
		__sync_fetch_and_add(&lost_blocks, 1);
}

/* Whose blocks count: user tasks of the filters (state aside). */
static __always_inline bool followed(struct task_struct *t)
{
	u32 key;

	if (BPF_CORE_READ(t, flags) & PF_KTHREAD)
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

/* One block of t, delta ns long: a direct sample or added to its total. */
static __always_inline void block_ended(void *ctx, struct task_struct *t, u32 stack_id, u32 state,
					u64 delta)
{
	struct off_cpu_key key = {
		.pid = BPF_CORE_READ(t, pid),
		.tgid = BPF_CORE_READ(t, tgid),
		.stack_id = stack_id,
		.state = state,
	};
	u64 *total;

	key.cgroup_id = needs_cgroup ? task_cgroup(t) : 0;
	if (delta >= thresh_ns) {
		struct off_cpu_direct d = { .key = key, .period = delta };

		if (bpf_perf_event_output(ctx, &direct, BPF_F_CURRENT_CPU, &d, sizeof(d)))
			__sync_fetch_and_add(&direct_lost, 1);
		return;
	}
	total = bpf_map_lookup_elem(&totals, &key);
	if (total)
		__sync_fetch_and_add(total, delta);
	else if (bpf_map_update_elem(&totals, &key, &delta, BPF_NOEXIST) &&
		 !((total = bpf_map_lookup_elem(&totals, &key))))
		__sync_fetch_and_add(&lost_blocks, 1); /* the map is full */
	else if (total) /* another CPU added the key first */
		__sync_fetch_and_add(total, delta);
}

static __always_inline void came_back(void *ctx, struct task_struct *next, u64 now)
{
	u32 tid = BPF_CORE_READ(next, pid);
	struct blocked *b = bpf_map_lookup_elem(&blocked, &tid);
	u32 stack_id, state;
	u64 delta;

	if (!b)
		return;
	/* Copied out before the delete lets the element be reused. */
	delta = now - b->since;
	stack_id = b->stack_id;
	state = b->state;
	bpf_map_delete_elem(&blocked, &tid);
	block_ended(ctx, next, stack_id, state, delta);
}

/*
 * prev leaves the CPU still holding a block: the switch that brought it back
 * was not seen (Linux 6.18 runs a task again now and then without a
 * sched_switch naming it next: seen as two switches out, one voluntary
 * switch apart, with none in between). It ran since for the CPU time it
 * gained since it was last picked, so the block ended about that long ago.
 */
static __always_inline void ended_unseen(void *ctx, struct task_struct *prev, struct blocked *b,
					 u64 now)
{
	u64 ran = BPF_CORE_READ(prev, se.sum_exec_runtime) -
		  BPF_CORE_READ(prev, se.prev_sum_exec_runtime);
	u64 since = b->since;

	if (ran > now - since) {
		__sync_fetch_and_add(&lost_blocks, 1); /* no end to trust */
		return;
	}
	__sync_fetch_and_add(&late_ends, 1);
	block_ended(ctx, prev, b->stack_id, b->state, now - ran - since);
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
	if (followed(prev)) {
		u32 tid = BPF_CORE_READ(prev, pid);
		struct blocked *old = bpf_map_lookup_elem(&blocked, &tid);
		/* Asleep, whatever else the state says: since Linux 6.1 most
		 * sleeps (nanosleep, futex, poll) add TASK_FREEZABLE, killable
		 * ones TASK_WAKEKILL. A preempted task is running, not blocked. */
		bool asleep = state & (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE);

		if (old) {
			ended_unseen(ctx, prev, old, now);
			if (!asleep)
				bpf_map_delete_elem(&blocked, &tid);
		}
		if (asleep)
			start_block(ctx, tid, state, now);
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
	long err;

	if (!has_task || !uses_tgid || (clone_flags & CLONE_THREAD))
		return 0;
	pid = BPF_CORE_READ(parent, tgid);
	if (!bpf_map_lookup_elem(&task_filter, &pid))
		return 0;
	pid = BPF_CORE_READ(child, tgid);
	/* -EEXIST: a reused pid, already followed; anything else (the
	 * filter full): the child is not followed, and prec says so. */
	err = bpf_map_update_elem(&task_filter, &pid, &one, BPF_NOEXIST);
	if (err && err != -17)
		__sync_fetch_and_add(&lost_children, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
