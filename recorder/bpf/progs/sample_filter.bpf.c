// SPDX-License-Identifier: GPL-2.0-only
/*
 * A BPF --filter (perf 6.4's sample filter): run by the kernel for every
 * sample of the event it is attached to, after the sample's fields are
 * filled, it keeps the sample (returns 1) when every term holds, and for a
 * '||' group when one of its terms does; else it drops it (returns 0) and
 * counts the drop, which prec writes as PERF_RECORD_LOST_SAMPLES at the end.
 * The terms are the entries prec's parser made (events/bpf_filter_entries.h).
 * Loaded by a prec for its events, it walks slot 0; pinned by --setup-filter
 * (use_idx_hash), it serves every prec and finds the slot of the sample's
 * event and process.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "events/bpf_filter_entries.h"

struct filter {
	struct sample_filter_entry e[SAMPLE_FILTER_MAX];
};

/* The filters by slot: one when prec loads the program for an event; a
 * hash, so that a pinned one's users claim free slots with BPF_NOEXIST. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct filter);
	__uint(max_entries, 1);
} filters SEC(".maps");

/* Pinned: the id of an event's fd to the event's first id. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u64);
	__uint(max_entries, 1);
} event_hash SEC(".maps");

/* Pinned: (first id, process) to slot. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct sample_filter_idx_key);
	__type(value, __u32);
	__uint(max_entries, 1);
} idx_hash SEC(".maps");

/* Samples dropped, per slot and CPU: prec sums them at the end. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} dropped SEC(".maps");

/* Set before a pinned load: find the slot in idx_hash. */
const volatile int use_idx_hash;

/* Linux 6.2: the kernel's context behind a perf_event program's. */
extern void *bpf_cast_to_kern_ctx(void *) __ksym;

/* The bits of a field part at shift (PERF_MEM_*_SHIFT, the UAPI's layout). */
#define PART(v, shift, bits) (((v) >> (shift)) & ((1ULL << (bits)) - 1))

static __always_inline __u64 data_src_part(__u64 v, __u16 part)
{
	switch (part) {
	case 1:
		return PART(v, PERF_MEM_OP_SHIFT, 5);
	case 2:
		return PART(v, PERF_MEM_LVLNUM_SHIFT, 4);
	case 3: /* snoop, and snoopx above its 5 bits */
		return PART(v, PERF_MEM_SNOOP_SHIFT, 5) | PART(v, PERF_MEM_SNOOPX_SHIFT, 2) << 5;
	case 4:
		return PART(v, PERF_MEM_REMOTE_SHIFT, 1);
	case 5:
		return PART(v, PERF_MEM_LOCK_SHIFT, 2);
	case 6:
		return PART(v, PERF_MEM_TLB_SHIFT, 7);
	case 7:
		return PART(v, PERF_MEM_BLK_SHIFT, 3);
	case 8:
		return PART(v, PERF_MEM_HOPS_SHIFT, 3);
	}
	return v;
}

/* The value the term reads: 0 when this sample lacks the field. */
static __always_inline __u64 field(struct perf_sample_data *d, const struct sample_filter_entry *e)
{
	__u64 w;

	if (e->helper == SF_HELPER_UID)
		return bpf_get_current_uid_gid() & 0xffffffff;
	if (e->helper == SF_HELPER_GID)
		return bpf_get_current_uid_gid() >> 32;
	if (!e->sample || !(d->sample_flags & sample_filter_bits(e->sample)))
		return 0;
	switch (e->sample) {
	case PERF_SAMPLE_IP:
		return d->ip;
	case PERF_SAMPLE_TID:
		return e->part ? d->tid_entry.pid : d->tid_entry.tid;
	case PERF_SAMPLE_TIME:
		return d->time;
	case PERF_SAMPLE_ADDR:
		return d->addr;
	case PERF_SAMPLE_ID:
		return d->id;
	case PERF_SAMPLE_CPU:
		return d->cpu_entry.cpu;
	case PERF_SAMPLE_PERIOD:
		return d->period;
	case PERF_SAMPLE_TRANSACTION:
		return d->txn;
	case PERF_SAMPLE_PHYS_ADDR:
		return d->phys_addr;
	case PERF_SAMPLE_CGROUP:
		return d->cgroup;
	case PERF_SAMPLE_DATA_PAGE_SIZE:
		return d->data_page_size;
	case PERF_SAMPLE_CODE_PAGE_SIZE:
		return d->code_page_size;
	case PERF_SAMPLE_DATA_SRC:
		return data_src_part(d->data_src.val, e->part);
	case PERF_SAMPLE_WEIGHT:
	case PERF_SAMPLE_WEIGHT_STRUCT:
		/* var1_dw, var2_w, var3_w from the low bits up, either endianness */
		w = d->weight.full;
		if (e->part == 1)
			return w & 0xffffffff;
		if (e->part == 2)
			return (w >> 32) & 0xffff;
		if (e->part == 3)
			return w >> 48;
		return w;
	}
	return 0;
}

static __always_inline int holds(__u64 v, __u32 op, __u64 value)
{
	switch (op) {
	case SF_OP_EQ:
		return v == value;
	case SF_OP_NE:
		return v != value;
	case SF_OP_GT:
		return v > value;
	case SF_OP_GE:
		return v >= value;
	case SF_OP_LT:
		return v < value;
	case SF_OP_LE:
		return v <= value;
	case SF_OP_AND:
		return (v & value) != 0;
	}
	return 0;
}

/*
 * The slot of the pinned program's filter for this sample: the event's
 * first id (an inherited event's parent's) and the current process.
 * -1: no prec registered them, and the sample is not one it asked for.
 */
static __always_inline int slot_of(struct bpf_perf_event_data_kern *kctx)
{
	struct sample_filter_idx_key key = { .tgid = bpf_get_current_pid_tgid() >> 32 };
	struct perf_event *parent = kctx->event->parent;
	__u64 id = parent ? parent->id : kctx->event->id;
	__u64 *first = bpf_map_lookup_elem(&event_hash, &id);
	__u32 *slot;

	if (!first)
		return -1;
	key.evt_id = *first;
	slot = bpf_map_lookup_elem(&idx_hash, &key);
	return slot ? (int)*slot : -1;
}

SEC("perf_event")
int sample_filter(void *ctx)
{
	struct bpf_perf_event_data_kern *kctx = bpf_cast_to_kern_ctx(ctx);
	struct perf_sample_data *d = kctx->data;
	int in_group = 0, group_holds = 0, k = 0;
	struct filter *f;
	__u32 slot;
	__u64 *n;

	/* Without sample_flags (before Linux 6.1) no field can be trusted. */
	if (!bpf_core_field_exists(d->sample_flags))
		return 1;
	if (use_idx_hash)
		k = slot_of(kctx);
	/* perf drops what no user asked for. */
	if (k < 0)
		return 0;
	slot = (__u32)k;
	f = bpf_map_lookup_elem(&filters, &slot);
	if (!f)
		goto drop;
	for (int i = 0; i < SAMPLE_FILTER_MAX; i++) {
		struct sample_filter_entry *e = &f->e[i];

		if (e->op == SF_OP_DONE)
			return 1;
		if (e->op == SF_OP_GROUP_BEGIN) {
			in_group = 1;
			group_holds = 0;
		} else if (e->op == SF_OP_GROUP_END) {
			if (!group_holds)
				goto drop;
			in_group = 0;
		} else if (holds(field(d, e), e->op, e->value)) {
			group_holds = 1;
		} else if (!in_group) {
			goto drop;
		}
	}
	return 1;
drop:
	n = bpf_map_lookup_elem(&dropped, &slot);
	if (n)
		*n += 1;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
