// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -e grammar against fixture PMUs (tests/fixtures/pmu/sys) and a
 * fixture tracefs (tests/fixtures/pmu/tracing): every accepted string with
 * the whole attr and spec fields it must give, every rejected one with what
 * its one-line error must say and where. The expected values are perf
 * 6.1's: `perf record -e STR` + `perf evlist -v` on this VM, or `perf record
 * -vv` with the fixture PMUs bind-mounted over /sys/bus/event_source/devices
 * in a mount namespace (see tests/fixtures/pmu/README). Two deliberate
 * differences: a plain uncore alias lists its boxes in name order (perf:
 * directory order), and a split uncore alias group is made contiguous.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prec/parse_events.h"

static char sysfs[4096], tracefs[4096];
static struct parse_events_ctx fx;

static int setup(void **state)
{
	const char *base = getenv("PREC_FIXTURES");

	(void)state;
	if (!base || !*base)
		base = "tests/fixtures"; /* by hand, from the source tree */
	snprintf(sysfs, sizeof(sysfs), "%s/pmu/sys", base);
	snprintf(tracefs, sizeof(tracefs), "%s/pmu/tracing", base);
	fx.sysfs = sysfs;
	fx.tracefs = tracefs;
	return 0;
}

/* One event an accepted string gives: its name and "key=value ..." for what is not default. */
struct ev_exp {
	const char *name;
	const char *desc;
};

struct accept_row {
	const char *str;
	int nr;
	struct ev_exp ev[6];
};

/*
 * desc keys: type config config1 config2 bp_type period st (sample_type);
 * eu ek eh eH eI p D e (attr bits); eG (default 1); P S W C (precise_max,
 * sample_read, weak_group, counting_only); L (leader, default the event
 * itself) N (nr_members, default 1); pmu gname. Everything else is zero.
 */
struct exp_spec {
	struct perf_event_attr attr;
	bool P, S, W, C;
	int L, N;
	char pmu[64], gname[64];
};

static void exp__build(const char *desc, int idx, struct exp_spec *x)
{
	char buf[512], *tok, *save = NULL;

	memset(x, 0, sizeof(*x));
	x->attr.size = sizeof(x->attr);
	x->attr.exclude_guest = 1;
	x->L = idx;
	x->N = 1;
	snprintf(buf, sizeof(buf), "%s", desc);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		unsigned long long v;

		assert_non_null(eq);
		*eq++ = '\0';
		v = strtoull(eq, NULL, 0);
		if (!strcmp(tok, "pmu"))
			snprintf(x->pmu, sizeof(x->pmu), "%s", eq);
		else if (!strcmp(tok, "gname"))
			snprintf(x->gname, sizeof(x->gname), "%s", eq);
		else if (!strcmp(tok, "type"))
			x->attr.type = (uint32_t)v;
		else if (!strcmp(tok, "config"))
			x->attr.config = v;
		else if (!strcmp(tok, "config1"))
			x->attr.config1 = v;
		else if (!strcmp(tok, "config2"))
			x->attr.config2 = v;
		else if (!strcmp(tok, "bp_type"))
			x->attr.bp_type = (uint32_t)v;
		else if (!strcmp(tok, "period"))
			x->attr.sample_period = v;
		else if (!strcmp(tok, "st"))
			x->attr.sample_type = v;
		else if (!strcmp(tok, "eu"))
			x->attr.exclude_user = v;
		else if (!strcmp(tok, "ek"))
			x->attr.exclude_kernel = v;
		else if (!strcmp(tok, "eh"))
			x->attr.exclude_hv = v;
		else if (!strcmp(tok, "eH"))
			x->attr.exclude_host = v;
		else if (!strcmp(tok, "eG"))
			x->attr.exclude_guest = v;
		else if (!strcmp(tok, "eI"))
			x->attr.exclude_idle = v;
		else if (!strcmp(tok, "p"))
			x->attr.precise_ip = v;
		else if (!strcmp(tok, "D"))
			x->attr.pinned = v;
		else if (!strcmp(tok, "e"))
			x->attr.exclusive = v;
		else if (!strcmp(tok, "P"))
			x->P = v;
		else if (!strcmp(tok, "S"))
			x->S = v;
		else if (!strcmp(tok, "W"))
			x->W = v;
		else if (!strcmp(tok, "C"))
			x->C = v;
		else if (!strcmp(tok, "L"))
			x->L = (int)v;
		else if (!strcmp(tok, "N"))
			x->N = (int)v;
		else
			fail_msg("bad key '%s' in '%s'", tok, desc);
	}
}

static void attr__print(const char *what, const struct perf_event_attr *a)
{
	print_error(
		"    %s: type %u config %#llx config1 %#llx config2 %#llx bp_type %u period %llu "
		"st %#llx u%u k%u h%u H%u G%u I%u p%u D%u e%u\n",
		what, a->type, (unsigned long long)a->config, (unsigned long long)a->config1,
		(unsigned long long)a->config2, a->bp_type, (unsigned long long)a->sample_period,
		(unsigned long long)a->sample_type, a->exclude_user, a->exclude_kernel,
		a->exclude_hv, a->exclude_host, a->exclude_guest, a->exclude_idle, a->precise_ip,
		a->pinned, a->exclusive);
}

/* Parses row->str after one earlier event (so leaders are absolute) and checks every event. */
static bool accept_row__check(const struct accept_row *r)
{
	struct event_specs specs = { 0 };
	char err[512] = "";
	bool ok = true;

	assert_int_equal(parse_events_ctx(&specs, "dummy", &fx, err, sizeof(err)), 0);
	if (parse_events_ctx(&specs, r->str, &fx, err, sizeof(err)) || specs.nr != r->nr + 1) {
		print_error("'%s': nr %d err '%s' (expected %d events)\n", r->str, specs.nr - 1,
			    err, r->nr);
		event_specs__exit(&specs);
		return false;
	}
	assert_int_equal(specs.last_arg, 1);
	for (int i = 0; i < r->nr; i++) {
		const struct event_spec *s = &specs.v[i + 1];
		struct exp_spec x;

		exp__build(r->ev[i].desc, i, &x);
		if (strcmp(s->name, r->ev[i].name) || memcmp(&s->attr, &x.attr, sizeof(x.attr)) ||
		    s->precise_max != x.P || s->sample_read != x.S || s->weak_group != x.W ||
		    s->counting_only != x.C || s->leader != x.L + 1 || s->nr_members != x.N ||
		    s->name_from_attr || strcmp(s->pmu_name ? s->pmu_name : "", x.pmu) ||
		    strcmp(s->group_name ? s->group_name : "", x.gname) || s->filter) {
			print_error(
				"'%s' event %d: name '%s' P%d S%d W%d C%d L%d N%d pmu '%s' gname '%s' "
				"(want '%s' %s)\n",
				r->str, i, s->name, s->precise_max, s->sample_read, s->weak_group,
				s->counting_only, s->leader - 1, s->nr_members,
				s->pmu_name ? s->pmu_name : "", s->group_name ? s->group_name : "",
				r->ev[i].name, r->ev[i].desc);
			attr__print("got ", &s->attr);
			attr__print("want", &x.attr);
			ok = false;
		}
	}
	event_specs__exit(&specs);
	return ok;
}

/* clang-format off */
static const struct accept_row accept_rows[] = {
	{ "cpu-clock:S", 1, {
		{ "cpu-clock:S", "type=1 eG=0 S=1" },
	} },
	{ "cpu-clock:W", 1, {
		{ "cpu-clock:W", "type=1 eG=0 W=1" },
	} },
	{ "cpu-clock:b", 1, {
		{ "cpu-clock:b", "type=1 eG=0" },
	} },
	{ "cpu-clock:ukhGHpppPSDIWeb", 1, {
		{ "cpu-clock:ukhGHpppPSDIWeb", "type=1 eI=1 p=3 D=1 e=1 eG=0 P=1 S=1 W=1" },
	} },
	{ "cycles:b", 1, {
		{ "cycles:b", "type=0 eG=0" },
	} },
	{ "bpf-output", 1, {
		{ "bpf-output", "type=1 config=0xa period=1 st=0x584" },
	} },
	{ "cgroup-switches", 1, {
		{ "cgroup-switches", "type=1 config=0xb" },
	} },
	{ "duration_time", 1, {
		{ "duration_time", "type=1 config=0x9" },
	} },
	{ "user_time:u", 1, {
		{ "user_time:u", "type=1 config=0x9 ek=1 eh=1" },
	} },
	{ "system_time", 1, {
		{ "system_time", "type=1 config=0x9" },
	} },
	{ "r1a8", 1, {
		{ "r1a8", "type=4 config=0x1a8" },
	} },
	{ "r1a8:u", 1, {
		{ "r1a8:u", "type=4 config=0x1a8 ek=1 eh=1" },
	} },
	{ "rABCD:k", 1, {
		{ "rABCD:k", "type=4 config=0xabcd eu=1 eh=1 eG=0" },
	} },
	{ "r0", 1, {
		{ "r0", "type=4" },
	} },
	{ "rffffffffffffffff", 1, {
		{ "rffffffffffffffff", "type=4 config=0xffffffffffffffff" },
	} },
	{ "r1a8/period=5/u", 1, {
		{ "r1a8/period=5/u", "type=4 config=0x1a8 ek=1 eh=1" },
	} },
	{ "r1a8/period=5/:u", 1, {
		{ "r1a8/period=5/:u", "type=4 config=0x1a8 ek=1 eh=1" },
	} },
	{ "1:0", 1, {
		{ "1:0", "type=1" },
	} },
	{ "1:1:u", 1, {
		{ "1:1:u", "type=1 config=0x1 ek=1 eh=1" },
	} },
	{ "0x1:0x2", 1, {
		{ "0x1:0x2", "type=1 config=0x2" },
	} },
	{ "4:0x1a8", 1, {
		{ "4:0x1a8", "type=4 config=0x1a8" },
	} },
	{ "L1-dcache-loads", 1, {
		{ "L1-dcache-loads", "type=3" },
	} },
	{ "L1-dcache-load-misses:u", 1, {
		{ "L1-dcache-load-misses", "type=3 config=0x10000 ek=1 eh=1" },
	} },
	{ "l1d-loads", 1, {
		{ "l1d-loads", "type=3" },
	} },
	{ "L1-data-stores", 1, {
		{ "L1-data-stores", "type=3 config=0x100" },
	} },
	{ "L1-dcache-prefetches", 1, {
		{ "L1-dcache-prefetches", "type=3 config=0x200" },
	} },
	{ "L1-icache-loads", 1, {
		{ "L1-icache-loads", "type=3 config=0x1" },
	} },
	{ "l1i-load-misses", 1, {
		{ "l1i-load-misses", "type=3 config=0x10001" },
	} },
	{ "L1-instruction-prefetch-miss", 1, {
		{ "L1-instruction-prefetch-miss", "type=3 config=0x10201" },
	} },
	{ "LLC-loads", 1, {
		{ "LLC-loads", "type=3 config=0x2" },
	} },
	{ "L2-store-misses", 1, {
		{ "L2-store-misses", "type=3 config=0x10102" },
	} },
	{ "LLC-prefetch-refs", 1, {
		{ "LLC-prefetch-refs", "type=3 config=0x202" },
	} },
	{ "dTLB-load-misses", 1, {
		{ "dTLB-load-misses", "type=3 config=0x10003" },
	} },
	{ "d-tlb-stores", 1, {
		{ "d-tlb-stores", "type=3 config=0x103" },
	} },
	{ "Data-TLB-prefetch-miss", 1, {
		{ "Data-TLB-prefetch-miss", "type=3 config=0x10203" },
	} },
	{ "iTLB-loads", 1, {
		{ "iTLB-loads", "type=3 config=0x4" },
	} },
	{ "i-tlb-load-misses", 1, {
		{ "i-tlb-load-misses", "type=3 config=0x10004" },
	} },
	{ "branch-loads", 1, {
		{ "branch-loads", "type=3 config=0x5" },
	} },
	{ "bpu-load-misses", 1, {
		{ "bpu-load-misses", "type=3 config=0x10005" },
	} },
	{ "btb", 1, {
		{ "btb", "type=3 config=0x5" },
	} },
	{ "bpc-read-access", 1, {
		{ "bpc-read-access", "type=3 config=0x5" },
	} },
	{ "node-loads", 1, {
		{ "node-loads", "type=3 config=0x6" },
	} },
	{ "node-store-misses", 1, {
		{ "node-store-misses", "type=3 config=0x10106" },
	} },
	{ "node-prefetches", 1, {
		{ "node-prefetches", "type=3 config=0x206" },
	} },
	{ "L1-dcache-misses", 1, {
		{ "L1-dcache-misses", "type=3 config=0x10000" },
	} },
	{ "L1-dcache-misses-loads", 1, {
		{ "L1-dcache-misses-loads", "type=3 config=0x10000" },
	} },
	{ "LLC-miss-miss", 1, {
		{ "LLC-miss-miss", "type=3 config=0x10002" },
	} },
	{ "L1-dcache-load-load", 1, {
		{ "L1-dcache-load-load", "type=3" },
	} },
	{ "L1-dcache-speculative-read", 1, {
		{ "L1-dcache-speculative-read", "type=3 config=0x200" },
	} },
	{ "L1-dcache-speculative-load-Reference", 1, {
		{ "L1-dcache-speculative-load-Reference", "type=3 config=0x200" },
	} },
	{ "LLC-ops", 1, {
		{ "LLC-ops", "type=3 config=0x2" },
	} },
	{ "LLC-access", 1, {
		{ "LLC-access", "type=3 config=0x2" },
	} },
	{ "node", 1, {
		{ "node", "type=3 config=0x6" },
	} },
	{ "L1-dcache", 1, {
		{ "L1-dcache", "type=3" },
	} },
	{ "LLC-loads/name=llc/k", 1, {
		{ "llc", "type=3 config=0x2 eu=1 eh=1 eG=0" },
	} },
	{ "mem:0x1000", 1, {
		{ "mem:0x1000", "type=5 config1=0x1000 config2=0x4 bp_type=3 period=1" },
	} },
	{ "mem:0x1000:w", 1, {
		{ "mem:0x1000:w", "type=5 config1=0x1000 config2=0x4 bp_type=2 period=1" },
	} },
	{ "mem:0x1000:r", 1, {
		{ "mem:0x1000:r", "type=5 config1=0x1000 config2=0x4 bp_type=1 period=1" },
	} },
	{ "mem:0x1000:x", 1, {
		{ "mem:0x1000:x", "type=5 config1=0x1000 config2=0x8 bp_type=4 period=1" },
	} },
	{ "mem:0x1000:rw", 1, {
		{ "mem:0x1000:rw", "type=5 config1=0x1000 config2=0x4 bp_type=3 period=1" },
	} },
	{ "mem:0x1000:wr", 1, {
		{ "mem:0x1000:wr", "type=5 config1=0x1000 config2=0x4 bp_type=3 period=1" },
	} },
	{ "mem:0x1000:rwx", 1, {
		{ "mem:0x1000:rwx", "type=5 config1=0x1000 config2=0x4 bp_type=7 period=1" },
	} },
	{ "mem:0x1000/8:rw", 1, {
		{ "mem:0x1000", "type=5 config1=0x1000 config2=0x8 bp_type=3 period=1" },
	} },
	{ "mem:0x1000/2:w", 1, {
		{ "mem:0x1000", "type=5 config1=0x1000 config2=0x2 bp_type=2 period=1" },
	} },
	{ "mem:0x1000/0", 1, {
		{ "mem:0x1000", "type=5 config1=0x1000 config2=0x4 bp_type=3 period=1" },
	} },
	{ "mem:4096", 1, {
		{ "mem:4096", "type=5 config1=0x1000 config2=0x4 bp_type=3 period=1" },
	} },
	{ "mem:0x1000:w:u", 1, {
		{ "mem:0x1000:w:u", "type=5 config1=0x1000 config2=0x4 bp_type=2 period=1 ek=1 eh=1" },
	} },
	{ "mem:0x1000:u", 1, {
		{ "mem:0x1000:u", "type=5 config1=0x1000 config2=0x4 bp_type=3 period=1 ek=1 eh=1" },
	} },
	{ "mem:0x1000:rw:kp", 1, {
		{ "mem:0x1000:rw:kp", "type=5 config1=0x1000 config2=0x4 bp_type=3 period=1 eu=1 eh=1 p=1" },
	} },
	{ "mem:0x1000:x:k", 1, {
		{ "mem:0x1000:x:k", "type=5 config1=0x1000 config2=0x8 bp_type=4 period=1 eu=1 eh=1 eG=0" },
	} },
	{ "mem:0x1000/8:rw,cpu-clock/period=1/", 2, {
		{ "mem:0x1000/8:rw,cpu-clock/period=1", "type=5 config1=0x1000 config2=0x8 bp_type=3 period=1" },
		{ "cpu-clock/period=1/", "type=1" },
	} },
	{ "cpu-clock,mem:0x1000/8", 2, {
		{ "cpu-clock", "type=1" },
		{ "mem:0x1000", "type=5 config1=0x1000 config2=0x8 bp_type=3 period=1" },
	} },
	{ "sched:sched_switch", 1, {
		{ "sched:sched_switch", "type=2 config=0x13c period=1 st=0x584" },
	} },
	{ "sched:sched_switch:u", 1, {
		{ "sched:sched_switch", "type=2 config=0x13c period=1 st=0x584 ek=1 eh=1" },
	} },
	{ "sched:sched_switch:S", 1, {
		{ "sched:sched_switch", "type=2 config=0x13c period=1 st=0x584 eG=0 S=1" },
	} },
	{ "sched:sched_switch/call-graph=fp/u", 1, {
		{ "sched:sched_switch", "type=2 config=0x13c period=1 st=0x584 ek=1 eh=1" },
	} },
	{ "sched:sched_switch/call-graph=fp/:k", 1, {
		{ "sched:sched_switch", "type=2 config=0x13c period=1 st=0x584 eu=1 eh=1 eG=0" },
	} },
	{ "sched:sched_switch,sched:sched_wakeup", 2, {
		{ "sched:sched_switch", "type=2 config=0x13c period=1 st=0x584" },
		{ "sched:sched_wakeup", "type=2 config=0x13e period=1 st=0x584" },
	} },
	{ "syscalls:sys_enter_openat", 1, {
		{ "syscalls:sys_enter_openat", "type=2 config=0x28a period=1 st=0x584" },
	} },
	{ "msr/tsc/", 1, {
		{ "msr/tsc/", "type=9 C=1 pmu=msr" },
	} },
	{ "msr/smi/", 1, {
		{ "msr/smi/", "type=9 config=0x4 C=1 pmu=msr" },
	} },
	{ "tsc", 1, {
		{ "tsc", "type=9 C=1 pmu=msr" },
	} },
	{ "smi:u", 1, {
		{ "smi:u", "type=9 config=0x4 ek=1 eh=1 C=1 pmu=msr" },
	} },
	{ "TSC", 1, {
		{ "TSC", "type=9 C=1 pmu=msr" },
	} },
	{ "msr/TSC/", 1, {
		{ "msr/TSC/", "type=9 C=1 pmu=msr" },
	} },
	{ "msr/tsc/u", 1, {
		{ "msr/tsc/u", "type=9 ek=1 eh=1 C=1 pmu=msr" },
	} },
	{ "msr/tsc,event=4/", 1, {
		{ "msr/tsc,event=4/", "type=9 config=0x4 C=1 pmu=msr" },
	} },
	{ "msr/event=4,tsc/", 1, {
		{ "msr/event=4,tsc/", "type=9 config=0x4 C=1 pmu=msr" },
	} },
	{ "msr/smi,config=1/", 1, {
		{ "msr/smi,config=1/", "type=9 config=0x5 C=1 pmu=msr" },
	} },
	{ "msr/event=4,event=1/", 1, {
		{ "msr/event=4,event=1/", "type=9 config=0x5 C=1 pmu=msr" },
	} },
	{ "msr/event=tsc/", 1, {
		{ "msr/event=tsc/", "type=9 C=1 pmu=msr" },
	} },
	{ "msr/event=TSC,event=1/", 1, {
		{ "msr/event=TSC,event=1/", "type=9 config=0x1 C=1 pmu=msr" },
	} },
	{ "msr/event/", 1, {
		{ "msr/event/", "type=9 config=0x1 C=1 pmu=msr" },
	} },
	{ "msr/event,config=7/", 1, {
		{ "msr/event,config=7/", "type=9 config=0x7 C=1 pmu=msr" },
	} },
	{ "msr/config=7,event=2/", 1, {
		{ "msr/config=7,event=2/", "type=9 config=0x7 C=1 pmu=msr" },
	} },
	{ "msr/config1=3/", 1, {
		{ "msr/config1=3/", "type=9 config1=0x3 C=1 pmu=msr" },
	} },
	{ "smi/config1=3/", 1, {
		{ "smi/config1=3/", "type=9 config=0x4 config1=0x3 C=1 pmu=msr" },
	} },
	{ "tsc/config=4/", 1, {
		{ "tsc/config=4/", "type=9 config=0x4 C=1 pmu=msr" },
	} },
	{ "msr//", 1, {
		{ "msr//", "type=9 C=1 pmu=msr" },
	} },
	{ "msr/tsc,name=foo/", 1, {
		{ "foo", "type=9 C=1 pmu=msr" },
	} },
	{ "software/config=0x1,period=100/", 1, {
		{ "software/config=0x1,period=100/", "type=1 config=0x1 pmu=software" },
	} },
	{ "software/config=1/u", 1, {
		{ "software/config=1/u", "type=1 config=0x1 ek=1 eh=1 pmu=software" },
	} },
	{ "software//", 1, {
		{ "software//", "type=1 pmu=software" },
	} },
	{ "software/config1=5,config2=6/", 1, {
		{ "software/config1=5,config2=6/", "type=1 config1=0x5 config2=0x6 pmu=software" },
	} },
	{ "software/config/", 1, {
		{ "software/config/", "type=1 config=0x1 pmu=software" },
	} },
	{ "software/name='a,b'/", 1, {
		{ "a,b", "type=1 pmu=software" },
	} },
	{ "software/name=a:b/", 1, {
		{ "a:b", "type=1 pmu=software" },
	} },
	{ "uprobe/retprobe/", 1, {
		{ "uprobe/retprobe/", "type=8 config=0x1 pmu=uprobe" },
	} },
	{ "uprobe/ref_ctr_offset=0xffffffff,retprobe/", 1, {
		{ "uprobe/ref_ctr_offset=0xffffffff,retprobe/", "type=8 config=0xffffffff00000001 pmu=uprobe" },
	} },
	{ "breakpoint/config=0/", 1, {
		{ "breakpoint/config=0/", "type=5 pmu=breakpoint" },
	} },
	{ "tracepoint/config=0x174/", 1, {
		{ "tracepoint/config=0x174/", "type=2 config=0x174 pmu=tracepoint" },
	} },
	{ "cpu-clock/period=3/", 1, {
		{ "cpu-clock/period=3/", "type=1" },
	} },
	{ "cycles/period=3/", 1, {
		{ "cycles/period=3/", "type=0" },
	} },
	{ "cpu-clock//", 1, {
		{ "cpu-clock//", "type=1" },
	} },
	{ "cpu-clock//u", 1, {
		{ "cpu-clock//u", "type=1 ek=1 eh=1" },
	} },
	{ "task-clock/name=foo/k", 1, {
		{ "foo", "type=1 config=0x1 eu=1 eh=1 eG=0" },
	} },
	{ "cpu-clock/config=5/", 1, {
		{ "cpu-clock/config=5/", "type=1 config=0x5" },
	} },
	{ "cpu-clock/period/", 1, {
		{ "cpu-clock/period/", "type=1" },
	} },
	{ "cpu-clock/name='x'/", 1, {
		{ "x", "type=1" },
	} },
	{ "cpu-clock/name=x-y.z:w/", 1, {
		{ "x-y.z:w", "type=1" },
	} },
	{ "cpu/event=0x3c,umask=1/", 1, {
		{ "cpu/event=0x3c,umask=1/", "type=4 config=0x13c pmu=cpu" },
	} },
	{ "cycles-t", 1, {
		{ "cycles-t", "type=4 config=0x10000003c pmu=cpu" },
	} },
	{ "cpu/cycles-t/", 1, {
		{ "cpu/cycles-t/", "type=4 config=0x10000003c pmu=cpu" },
	} },
	{ "cpu/cycles-t,cmask=2,edge/", 1, {
		{ "cpu/cycles-t,cmask=2,edge/", "type=4 config=0x10204003c pmu=cpu" },
	} },
	{ "cpu/edge,cycles-t/", 1, {
		{ "cpu/edge,cycles-t/", "type=4 config=0x10004003c pmu=cpu" },
	} },
	{ "cpu/config=0x1234,event=0x3c/", 1, {
		{ "cpu/config=0x1234,event=0x3c/", "type=4 config=0x123c pmu=cpu" },
	} },
	{ "cpu/event=cycles-t/", 1, {
		{ "cpu/event=cycles-t/", "type=4 config=0x10000003c pmu=cpu" },
	} },
	{ "cpu/cycles-t=1/", 1, {
		{ "cpu/cycles-t=1/", "type=4 config=0x10000003c pmu=cpu" },
	} },
	{ "cpu/CYCLES-T/", 1, {
		{ "cpu/CYCLES-T/", "type=4 config=0x10000003c pmu=cpu" },
	} },
	{ "uncore_imc_0/cas_count_read/", 1, {
		{ "uncore_imc_0/cas_count_read/", "type=13 config=0x304 C=1 pmu=uncore_imc_0" },
	} },
	{ "uncore_imc_0/umask=0xffffffff/", 1, {
		{ "uncore_imc_0/umask=0xffffffff/", "type=13 config=0xffffff0000ff00 C=1 pmu=uncore_imc_0" },
	} },
	{ "uncore_imc_0/cas_count_param,umask=3/", 1, {
		{ "uncore_imc_0/cas_count_param,umask=3/", "type=13 config=0x304 C=1 pmu=uncore_imc_0" },
	} },
	{ "mem-loads", 1, {
		{ "mem-loads", "type=4 config=0x1cd config1=0x3 pmu=cpu" },
	} },
	{ "mem-stores:u", 1, {
		{ "mem-stores:u", "type=4 config=0x82d0 ek=1 eh=1 pmu=cpu" },
	} },
	{ "cycles-ct", 1, {
		{ "cycles-ct", "type=4 config=0x30000003c pmu=cpu" },
	} },
	{ "topdown-retiring", 1, {
		{ "topdown-retiring", "type=4 config=0x8000 pmu=cpu" },
	} },
	{ "cpu/ldlat=3/", 1, {
		{ "cpu/ldlat=3/", "type=4 config1=0x3 pmu=cpu" },
	} },
	{ "cpu/offcore_rsp=0xffffffffffffffff/", 1, {
		{ "cpu/offcore_rsp=0xffffffffffffffff/", "type=4 config1=0xffffffffffffffff pmu=cpu" },
	} },
	{ "energy-pkg", 1, {
		{ "energy-pkg", "type=15 config=0x2 C=1 pmu=power" },
	} },
	{ "power/energy-pkg/", 1, {
		{ "power/energy-pkg/", "type=15 config=0x2 C=1 pmu=power" },
	} },
	{ "cpu/event=0x3c,umask=0x1,edge,inv,any,cmask=0xff,pc,in_tx,in_tx_cp/u", 1, {
		{ "cpu/event=0x3c,umask=0x1,edge,inv,any,cmask=0xff,pc,in_tx,in_tx_cp/u", "type=4 config=0x3ffac013c ek=1 eh=1 pmu=cpu" },
	} },
	{ "cpu/event=0xc0,frontend=0x11/pp", 1, {
		{ "cpu/event=0xc0,frontend=0x11/pp", "type=4 config=0xc0 config1=0x11 p=2 pmu=cpu" },
	} },
	{ "cpu/instructions/", 1, {
		{ "cpu/instructions/", "type=4 config=0xc0 pmu=cpu" },
	} },
	{ "el-start", 1, {
		{ "el-start", "type=4 config=0x1c8 pmu=cpu" },
	} },
	{ "tx-start:k", 1, {
		{ "tx-start:k", "type=4 config=0x1c9 eu=1 eh=1 eG=0 pmu=cpu" },
	} },
	{ "cpu/mem-loads,ldlat=30/", 1, {
		{ "cpu/mem-loads,ldlat=30/", "type=4 config=0x1cd config1=0x1f pmu=cpu" },
	} },
	{ "uncore_imc_1/cas_count_write,name=w/", 1, {
		{ "w", "type=14 config=0xc04 C=1 pmu=uncore_imc_1" },
	} },
	{ "cpu-cycles", 1, {
		{ "cpu-cycles", "type=0" },
	} },
	{ "cpu/config=0x3c,config1=3/", 1, {
		{ "cpu/config=0x3c,config1=3/", "type=4 config=0x3c config1=0x3 pmu=cpu" },
	} },
	{ "imc/cas_count_read/", 2, {
		{ "imc/cas_count_read/", "type=13 config=0x304 C=1 pmu=uncore_imc_0" },
		{ "imc/cas_count_read/", "type=14 config=0x304 C=1 pmu=uncore_imc_1" },
	} },
	{ "uncore_imc/clockticks/u", 2, {
		{ "uncore_imc/clockticks/u", "type=13 ek=1 eh=1 C=1 pmu=uncore_imc_0" },
		{ "uncore_imc/clockticks/u", "type=14 ek=1 eh=1 C=1 pmu=uncore_imc_1" },
	} },
	{ "cas_count_read", 2, {
		{ "cas_count_read", "type=13 config=0x304 C=1 pmu=uncore_imc_0" },
		{ "cas_count_read", "type=14 config=0x304 C=1 pmu=uncore_imc_1" },
	} },
	{ "{cpu-clock,task-clock}", 2, {
		{ "cpu-clock", "type=1 N=2" },
		{ "task-clock", "type=1 config=0x1 L=0" },
	} },
	{ "{cpu-clock,task-clock}:u", 2, {
		{ "cpu-clock", "type=1 ek=1 eh=1 N=2" },
		{ "task-clock", "type=1 config=0x1 ek=1 eh=1 L=0" },
	} },
	{ "{cpu-clock:k,task-clock}:u", 2, {
		{ "cpu-clock:k", "type=1 eh=1 N=2" },
		{ "task-clock", "type=1 config=0x1 ek=1 eh=1 L=0" },
	} },
	{ "{cpu-clock,task-clock}:D", 2, {
		{ "cpu-clock", "type=1 D=1 N=2" },
		{ "task-clock", "type=1 config=0x1 L=0" },
	} },
	{ "{cpu-clock,task-clock}:e", 2, {
		{ "cpu-clock", "type=1 e=1 N=2" },
		{ "task-clock", "type=1 config=0x1 L=0" },
	} },
	{ "{cpu-clock,task-clock}:W", 2, {
		{ "cpu-clock", "type=1 W=1 N=2" },
		{ "task-clock", "type=1 config=0x1 W=1 L=0" },
	} },
	{ "{cpu-clock:S,task-clock}:u", 2, {
		{ "cpu-clock:S", "type=1 ek=1 eh=1 N=2" },
		{ "task-clock", "type=1 config=0x1 ek=1 eh=1 L=0" },
	} },
	{ "{cpu-clock:P,task-clock}:u", 2, {
		{ "cpu-clock:P", "type=1 ek=1 eh=1 N=2" },
		{ "task-clock", "type=1 config=0x1 ek=1 eh=1 L=0" },
	} },
	{ "{cpu-clock:D,task-clock:D}", 2, {
		{ "cpu-clock:D", "type=1 D=1 eG=0 N=2" },
		{ "task-clock:D", "type=1 config=0x1 D=1 eG=0 L=0" },
	} },
	{ "{cpu-clock:G,task-clock}:u", 2, {
		{ "cpu-clock:G", "type=1 ek=1 eh=1 eH=1 eG=0 N=2" },
		{ "task-clock", "type=1 config=0x1 ek=1 eh=1 L=0" },
	} },
	{ "{cpu-clock:p,task-clock}:p", 2, {
		{ "cpu-clock:p", "type=1 p=2 N=2" },
		{ "task-clock", "type=1 config=0x1 p=1 L=0" },
	} },
	{ "foo{cpu-clock,task-clock}", 2, {
		{ "cpu-clock", "type=1 N=2 gname=foo" },
		{ "task-clock", "type=1 config=0x1 L=0" },
	} },
	{ "{cpu-clock}", 1, {
		{ "cpu-clock", "type=1" },
	} },
	{ "{cpu-clock,task-clock},faults", 3, {
		{ "cpu-clock", "type=1 N=2" },
		{ "task-clock", "type=1 config=0x1 L=0" },
		{ "faults", "type=1 config=0x2" },
	} },
	{ "faults,{cpu-clock,task-clock}:k,cs", 4, {
		{ "faults", "type=1 config=0x2" },
		{ "cpu-clock", "type=1 eu=1 eh=1 N=2" },
		{ "task-clock", "type=1 config=0x1 eu=1 eh=1 L=1" },
		{ "cs", "type=1 config=0x3" },
	} },
	{ "{cpu-clock,task-clock}:S", 2, {
		{ "cpu-clock", "type=1 S=1 N=2" },
		{ "task-clock", "type=1 config=0x1 S=1 L=0" },
	} },
	{ "{sched:sched_switch,sched:sched_wakeup}:S", 2, {
		{ "sched:sched_switch", "type=2 config=0x13c period=1 st=0x584 S=1 N=2" },
		{ "sched:sched_wakeup", "type=2 config=0x13e period=1 st=0x584 S=1 L=0" },
	} },
	{ "{cpu-clock:u,task-clock:k}:H", 2, {
		{ "cpu-clock:u", "type=1 ek=1 eh=1 N=2" },
		{ "task-clock:k", "type=1 config=0x1 eu=1 eh=1 L=0" },
	} },
	{ "{cpu-clock:H,task-clock:G}:pp", 2, {
		{ "cpu-clock:H", "type=1 p=2 N=2" },
		{ "task-clock:G", "type=1 config=0x1 eH=1 p=2 eG=0 L=0" },
	} },
	{ "{mem:0x1000:w,cpu-clock}:u", 2, {
		{ "mem:0x1000:w", "type=5 config1=0x1000 config2=0x4 bp_type=2 period=1 ek=1 eh=1 N=2" },
		{ "cpu-clock", "type=1 ek=1 eh=1 L=0" },
	} },
	{ "{msr/tsc/,msr/smi/}", 2, {
		{ "msr/tsc/", "type=9 C=1 N=2 pmu=msr" },
		{ "msr/smi/", "type=9 config=0x4 C=1 L=0 pmu=msr" },
	} },
	{ "{cpu/cycles-t/,cpu/cycles-ct/}:W", 2, {
		{ "cpu/cycles-t/", "type=4 config=0x10000003c W=1 N=2 pmu=cpu" },
		{ "cpu/cycles-ct/", "type=4 config=0x30000003c W=1 L=0 pmu=cpu" },
	} },
	{ "{cas_count_read,cas_count_write}:u", 4, {
		{ "cas_count_read", "type=13 config=0x304 ek=1 eh=1 C=1 N=2 pmu=uncore_imc_0" },
		{ "cas_count_write", "type=13 config=0xc04 ek=1 eh=1 C=1 L=0 pmu=uncore_imc_0" },
		{ "cas_count_read", "type=14 config=0x304 ek=1 eh=1 C=1 N=2 pmu=uncore_imc_1" },
		{ "cas_count_write", "type=14 config=0xc04 ek=1 eh=1 C=1 L=2 pmu=uncore_imc_1" },
	} },
	{ "{cas_count_read}", 2, {
		{ "cas_count_read", "type=13 config=0x304 C=1 pmu=uncore_imc_0" },
		{ "cas_count_read", "type=14 config=0x304 C=1 pmu=uncore_imc_1" },
	} },
	{ "g{cas_count_read,cas_count_write,clockticks}", 6, {
		{ "cas_count_read", "type=13 config=0x304 C=1 N=3 pmu=uncore_imc_0 gname=g" },
		{ "cas_count_write", "type=13 config=0xc04 C=1 L=0 pmu=uncore_imc_0" },
		{ "clockticks", "type=13 C=1 L=0 pmu=uncore_imc_0" },
		{ "cas_count_read", "type=14 config=0x304 C=1 N=3 pmu=uncore_imc_1 gname=g" },
		{ "cas_count_write", "type=14 config=0xc04 C=1 L=3 pmu=uncore_imc_1" },
		{ "clockticks", "type=14 C=1 L=3 pmu=uncore_imc_1" },
	} },
	{ "{imc/cas_count_read/,imc/cas_count_write/}", 4, {
		{ "imc/cas_count_read/", "type=13 config=0x304 C=1 N=4 pmu=uncore_imc_0" },
		{ "imc/cas_count_read/", "type=14 config=0x304 C=1 L=0 pmu=uncore_imc_1" },
		{ "imc/cas_count_write/", "type=13 config=0xc04 C=1 L=0 pmu=uncore_imc_0" },
		{ "imc/cas_count_write/", "type=14 config=0xc04 C=1 L=0 pmu=uncore_imc_1" },
	} },
};
/* clang-format on */

static void test_accepted(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(accept_rows) / sizeof(accept_rows[0]); i++)
		failed += !accept_row__check(&accept_rows[i]);
	assert_int_equal(failed, 0);
}

/* A rejected string, a piece of its error and the offset the error names. */
struct reject_row {
	const char *str;
	const char *err_has;
	int off;
};

/* clang-format off */
static const struct reject_row reject_rows[] = {
	/* the table */
	{ "nosuch",                          "unknown event 'nosuch'", 0 },
	{ "cpu-clock:zz",                    "unknown modifier 'z' in 'cpu-clock:zz'", 10 },
	{ "software/foo=1/",                 "unknown term 'foo' for PMU 'software'", 9 },
	{ "{cpu-clock",                      "unbalanced '{'", 0 },
	{ "{cpu-clock,task-clock",           "unbalanced '{'", 0 },
	{ "{cpu-clock,",                     "unbalanced '{'", 0 },
	{ "{",                               "unbalanced '{'", 0 },
	{ "cpu-clock}",                      "unbalanced '}'", 9 },
	{ "}",                               "unbalanced '}'", 0 },
	/* lists and groups */
	{ "{}",                              "empty group", 0 },
	{ "{cpu-clock,{task-clock}}",        "nested groups", 11 },
	{ "{cpu-clock}x",                    "unexpected 'x' after a group", 11 },
	{ "{cpu-clock}:",                    "missing modifier", 12 },
	{ "{cpu-clock}:zz",                  "unknown modifier 'z'", 12 },
	{ "{cpu-clock}:uu",                  "modifier 'u' repeated", 12 },
	{ "a{cpu-clock}:u{",                 "unknown modifier '{'", 14 },
	{ "cpu-clock,,task-clock",           "empty event after ','", 10 },
	{ ",cpu-clock",                      "empty event", 0 },
	{ "cpu-clock,",                      "empty event after ','", 10 },
	{ "cpu-clock{",                      "unexpected '{' after 'cpu-clock'", 9 },
	{ "/event=1/",                       "missing event name before '/'", 0 },
	{ ":u",                              "missing event name before ':'", 0 },
	{ "-",                               "unknown event '-'", 0 },
	/* modifiers: perf's check_modifier */
	{ "cpu-clock:uu",                    "modifier 'u' repeated", 10 },
	{ "cpu-clock:pppp",                  "too many 'p'", 10 },
	{ "cpu-clock:ukhGHpppPSDIWebp",      "too many 'p'", 10 },
	{ "cpu-clock:u:k",                   "unknown modifier ':'", 11 },
	{ "cpu-clock:",                      "missing modifier after ':' in 'cpu-clock:'", 10 },
	{ "cycles-t:zz",                     "unknown modifier 'z' in 'cycles-t:zz'", 9 },
	{ "tsc:zz",                          "unknown modifier 'z'", 4 },
	{ "CPU-CLOCK",                       "unknown event 'CPU-CLOCK'", 0 },
	{ "cpu-clock ",                      "unknown event 'cpu-clock '", 0 },
	{ " cpu-clock",                      "unknown event ' cpu-clock'", 0 },
	/* raw and numeric */
	{ "r",                               "unknown event 'r'", 0 },
	{ "rzz",                             "unknown event 'rzz'", 0 },
	{ "R1a8",                            "unknown event 'R1a8'", 0 },
	{ "r1a8x",                           "unknown event 'r1a8x'", 0 },
	{ "r0x1a8",                          "unknown event 'r0x1a8'", 0 },
	{ "read",                            "unknown event 'read'", 0 },
	{ "r123456789abcdef01",              "raw event 'r123456789abcdef01' too large", 0 },
	{ "r1a8/period=x/",                  "term 'period' of 'r1a8' expects a numeric value", 5 },
	{ "r1a8/foo/",                       "unknown term 'foo' for 'r1a8'", 5 },
	{ "1:",                              "unknown event '1'", 0 },
	{ "4294967296:0",                    "numeric event '4294967296:0' too large", 0 },
	{ "1:0x10000000000000000",           "too large", 0 },
	/* cache */
	{ "L1-icache-stores",                "L1-icache counts: load, prefetch", 0 },
	{ "iTLB-stores",                     "iTLB counts: load", 0 },
	{ "branch-prefetches",               "branch counts: load", 0 },
	{ "branches-loads",                  "unknown event 'branches-loads'", 0 },
	{ "L1-dcache-loadsx",                "unknown event", 0 },
	{ "L1-dcache-load-misses-refs",      "unknown event", 0 },
	{ "Instruction-TLB-reads",           "unknown event", 0 },
	/* breakpoints */
	{ "mem:",                            "missing breakpoint address", 4 },
	{ "mem:x",                           "missing breakpoint address", 4 },
	{ "mem:0x1000:xx",                   "breakpoint access 'x' repeated", 12 },
	{ "mem:0x1000:rwxr",                 "breakpoint access 'r' repeated", 14 },
	{ "mem:0x1000:q",                    "unknown modifier 'q'", 11 },
	{ "mem:0x1000/z",                    "bad breakpoint length", 11 },
	{ "mem:0x1000/name=bp/",             "bad breakpoint length", 11 },
	{ "mem:0x1000u",                     "unexpected 'u' in breakpoint", 10 },
	{ "mem:0x10000000000000000",         "breakpoint address too large", 4 },
	{ "mem:0x1000:w:zz",                 "unknown modifier 'z'", 13 },
	/* tracepoints */
	{ "sched:nosuch",                    "unknown tracepoint 'sched:nosuch'", 0 },
	{ "nosuch:foo",                      "unknown tracepoint 'nosuch:foo'", 0 },
	{ "sched:nosuch*",                   "no tracepoint matches 'sched:nosuch*'", 0 },
	{ "nosys*:sched_switch",             "no tracepoint matches", 0 },
	{ "broken:no_id",                    "unknown tracepoint 'broken:no_id'", 0 },
	{ "broken:bad_id",                   "has no usable id", 0 },
	{ "broken:huge_id",                  "has no usable id", 0 },
	{ "sched:..",                        "unknown tracepoint 'sched:..'", 0 },
	{ "sched:../sched",                  "unknown tracepoint 'sched:..'", 0 },
	{ "sched:sched_switch/period=10/",   "unknown term 'period' for tracepoint 'sched:sched_switch'", 19 },
	{ "sched:sched_switch/name=x/",      "valid terms: call-graph,stack-size", 19 },
	{ "sched:sched_switch:zz",           "unknown modifier 'z'", 19 },
	{ "cpu-clock,sched:nosuch",          "unknown tracepoint", 10 },
	/* PMU terms: perf's messages, with the term's offset */
	{ "cpu/event=0x100/",                "too big for term 'event' of PMU 'cpu' at offset 4 (maximum is 255)", 4 },
	{ "cpu/umask=0x100/",                "maximum is 255", 4 },
	{ "cpu/any=2/",                      "maximum is 1", 4 },
	{ "cpu/cmask=256/",                  "maximum is 255", 4 },
	{ "uncore_imc_0/umask=0x100000000/", "maximum is 4294967295", 13 },
	{ "uncore_imc_0/cas_count_param/",   "needs parameter 'umask'", 13 },
	{ "cpu/foo/",                        "valid terms: any,cmask,edge,event,frontend,in_tx,in_tx_cp,inv,ldlat,offcore_rsp,pc,umask,config", 4 },
	{ "cpu/event=1,foo=1/",              "unknown term 'foo' for PMU 'cpu'", 12 },
	{ "cpu/cycles-t=2/",                 "unknown term 'cycles-t'", 4 },
	{ "cpu/event=nosuch/",               "expects a number or one of its events, not 'nosuch'", 4 },
	{ "cpu/event=/",                     "missing value for term 'event'", 10 },
	{ "cpu/=1/",                         "expected a term name", 4 },
	{ "cpu/,/",                          "expected a term name", 4 },
	{ "cpu/event=1,/",                   "missing term after ','", 12 },
	{ "cpu/event=1",                     "missing closing '/'", 3 },
	{ "cpu/event=0x/",                   "unexpected 'x' in the value of term 'event'", 11 },
	{ "cpu/event=1x/",                   "unexpected 'x'", 11 },
	{ "cpu/name='/",                     "bad quoted value", 9 },
	{ "cpu/name=''/",                    "bad quoted value", 9 },
	{ "cpu/name=1/",                     "expects a string value", 4 },
	{ "cpu/period=x/",                   "expects a numeric value, not 'x'", 4 },
	{ "cpu/time=2/",                     "expects 0 or 1", 4 },
	{ "cpu/percore=2/",                  "expects 0 or 1", 4 },
	{ "cpu/branch_type=nosuch/",         "unknown branch_type 'nosuch'", 4 },
	{ "cpu/aux-sample-size=0x100000000/","is too big", 4 },
	{ "cpu/event=0x10000000000000000/",  "is too large", 10 },
	{ "cpu/event=1/:u",                  "unexpected ':' after 'cpu/event=1/'", 12 },
	{ "cpu/event=1/zz",                  "unknown modifier 'z'", 12 },
	{ "cas_count_read/nosuch/",          "unknown term 'nosuch' for PMU 'uncore_imc_0'", 15 },
	/* PMUs */
	{ "nosuchpmu/event=1/",              "unknown PMU 'nosuchpmu' at offset 0 (PMUs here: breakpoint, cpu, msr, power,", 0 },
	{ "CPU/event=1/",                    "unknown PMU 'CPU'", 0 },
	{ "imc_x/clockticks/",               "unknown PMU 'imc_x'", 0 },
	{ "cpu-clock,uncore_imc_9/event=1/", "unknown PMU 'uncore_imc_9'", 10 },
	/* symbols with terms */
	{ "cpu-clock/foo=1/",                "unknown term 'foo' for 'cpu-clock'", 10 },
	{ "cpu-clock/name/",                 "expects a string value", 10 },
	{ "cpu-clock/period=1",              "missing closing '/'", 9 },
	{ "cpu-clock//:u",                   "unexpected ':' after 'cpu-clock//'", 11 },
	{ "cpu-clock/u",                     "missing closing '/'", 9 },
	{ "cpu-clock:u/",                    "unknown modifier '/'", 11 },
	{ "duration_time/period=1/",         "takes no terms", 13 },
};
/* clang-format on */

static bool reject_row__check(const struct reject_row *r)
{
	struct event_specs specs = { 0 };
	struct event_spec before;
	char err[1024] = "", off[32];
	bool ok = false;
	int ret;

	/* Earlier -e arguments that a failure must not touch. */
	assert_int_equal(parse_events_ctx(&specs, "{task-clock:u,msr/tsc/}", &fx, err, sizeof(err)),
			 0);
	before = specs.v[1];
	ret = parse_events_ctx(&specs, r->str, &fx, err, sizeof(err));
	snprintf(off, sizeof(off), " at offset %d", r->off);
	if (ret != -EINVAL)
		print_error("'%s': ret %d, expected -EINVAL\n", r->str, ret);
	else if (specs.nr != 2 || strcmp(specs.v[0].name, "task-clock:u") ||
		 memcmp(&specs.v[1].attr, &before.attr, sizeof(before.attr)) ||
		 specs.v[1].leader != 0 || specs.last_arg != 0)
		print_error("'%s': the specs changed on failure (nr %d)\n", r->str, specs.nr);
	else if (!err[0] || strpbrk(err, "\n\r"))
		print_error("'%s': err '%s' is not one non-empty line\n", r->str, err);
	else if (!strstr(err, r->err_has) || !strstr(err, off))
		print_error("'%s': err '%s' lacks '%s' or '%s'\n", r->str, err, r->err_has, off);
	else
		ok = true;
	event_specs__exit(&specs);
	return ok;
}

static void test_rejected(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(reject_rows) / sizeof(reject_rows[0]); i++)
		failed += !reject_row__check(&reject_rows[i]);
	assert_int_equal(failed, 0);
}

/* Parses str alone on the fixture; the caller frees. */
static void parse_ok(struct event_specs *specs, const char *str)
{
	char err[512] = "";
	int ret = parse_events_ctx(specs, str, &fx, err, sizeof(err));

	if (ret)
		print_error("'%s': %s\n", str, err);
	assert_int_equal(ret, 0);
}

static void test_terms(void **state)
{
	struct event_specs s = { 0 };
	const struct event_terms *t;

	(void)state;
	/* perf applies period= and freq= in order: the later one wins. */
	parse_ok(&s, "software/period=10,freq=100/");
	t = &s.v[0].terms;
	assert_int_equal(t->set, EVENT_TERM_FREQ);
	assert_int_equal(t->freq, 100);
	/* terms never touch the attr's sample fields: the recorder applies them */
	assert_int_equal(s.v[0].attr.sample_period, 0);
	assert_int_equal(s.v[0].attr.freq, 0);
	parse_ok(&s, "cpu-clock/freq=100,period=0x10/");
	t = &s.v[1].terms;
	assert_int_equal(t->set, EVENT_TERM_PERIOD);
	assert_int_equal(t->period, 16);
	parse_ok(&s, "cpu-clock/period/"); /* bare: 1 */
	assert_int_equal(s.v[2].terms.period, 1);
	event_specs__exit(&s);

	parse_ok(&s, "cpu-clock/call-graph=dwarf,stack-size=8192,max-stack=7,nr=5/");
	t = &s.v[0].terms;
	assert_int_equal(t->set, EVENT_TERM_CALLGRAPH | EVENT_TERM_STACKSIZE |
					 EVENT_TERM_MAX_STACK | EVENT_TERM_MAX_EVENTS);
	assert_string_equal(t->call_graph, "dwarf");
	assert_int_equal(t->stack_size, 8192);
	assert_int_equal(t->max_stack, 7);
	assert_int_equal(t->max_events, 5);
	parse_ok(&s, "cpu-clock/call-graph=fp,call-graph=no/");
	assert_string_equal(s.v[1].terms.call_graph, "no");
	event_specs__exit(&s);

	/* inherit / no-inherit and overwrite / no-overwrite, with values as perf reads them */
	parse_ok(
		&s,
		"cpu-clock/inherit/,cpu-clock/no-inherit/,cpu-clock/no-inherit=0/,cpu-clock/inherit=0/");
	for (int i = 0; i < 4; i++)
		assert_int_equal(s.v[i].terms.set, EVENT_TERM_INHERIT);
	assert_true(s.v[0].terms.inherit);
	assert_false(s.v[1].terms.inherit);
	assert_true(s.v[2].terms.inherit);
	assert_false(s.v[3].terms.inherit);
	event_specs__exit(&s);
	parse_ok(&s, "cpu-clock/overwrite/,cpu-clock/no-overwrite/,cpu-clock/overwrite=5/");
	assert_true(s.v[0].terms.overwrite);
	assert_false(s.v[1].terms.overwrite);
	assert_true(s.v[2].terms.overwrite);
	assert_int_equal(s.v[1].terms.set, EVENT_TERM_OVERWRITE);
	event_specs__exit(&s);

	parse_ok(&s, "cpu-clock/time=0,percore,aux-output,aux-sample-size=4096,metric-id=m1/");
	t = &s.v[0].terms;
	assert_int_equal(t->set, EVENT_TERM_TIME | EVENT_TERM_PERCORE | EVENT_TERM_AUX_OUTPUT |
					 EVENT_TERM_AUX_SAMPLE_SIZE | EVENT_TERM_METRIC_ID);
	assert_false(t->time);
	assert_true(t->percore);
	assert_true(t->aux_output);
	assert_int_equal(t->aux_sample_size, 4096);
	assert_string_equal(t->metric_id, "m1");
	event_specs__exit(&s);

	/* branch_type as perf's parse_branch_str; privilege alone means any */
	parse_ok(
		&s,
		"cpu-clock/branch_type=any_call/,cpu-clock/branch_type=u/,cpu-clock/branch_type=no/");
	assert_int_equal(s.v[0].terms.branch_sample_type, PERF_SAMPLE_BRANCH_ANY_CALL);
	assert_int_equal(s.v[1].terms.branch_sample_type, PERF_SAMPLE_BRANCH_ANY);
	assert_int_equal(s.v[2].terms.branch_sample_type, 0);
	assert_int_equal(s.v[2].terms.set, EVENT_TERM_BRANCH_TYPE);
	event_specs__exit(&s);

	/* the last name= wins; a quoted one may hold ',' ':' '=' */
	parse_ok(&s, "cpu-clock/name=a,name=b/,task-clock/name='x,y:z=1'/k");
	assert_string_equal(s.v[0].name, "b");
	assert_string_equal(s.v[1].name, "x,y:z=1");
	assert_int_equal(s.v[1].attr.exclude_user, 1);
	event_specs__exit(&s);

	/* tracepoints take their subset; PMU events take every term beside the formats */
	parse_ok(&s, "sched:sched_switch/call-graph=dwarf,no-inherit,max-stack=3/");
	assert_int_equal(s.v[0].terms.set,
			 EVENT_TERM_CALLGRAPH | EVENT_TERM_INHERIT | EVENT_TERM_MAX_STACK);
	parse_ok(&s, "cpu/cycles-t,period=1000,name=tx/pp");
	assert_string_equal(s.v[1].name, "tx");
	assert_int_equal(s.v[1].attr.config, 0x10000003cULL);
	assert_int_equal(s.v[1].attr.precise_ip, 2);
	assert_int_equal(s.v[1].terms.period, 1000);
	/* each event of a glob or alias gets the terms */
	parse_ok(&s, "sched:sched_wak*/call-graph=fp/,cas_count_read/name=rd/");
	assert_int_equal(s.nr, 6);
	for (int i = 2; i < 4; i++)
		assert_string_equal(s.v[i].terms.call_graph, "fp");
	assert_string_equal(s.v[4].name, "rd");
	assert_string_equal(s.v[5].name, "rd");
	event_specs__exit(&s);
}

static void test_groups(void **state)
{
	struct event_specs s = { 0 };

	(void)state;
	/* Leaders are indexes into the whole set, across -e arguments. */
	parse_ok(&s, "cs,{cpu-clock,task-clock}:S");
	parse_ok(&s, "faults,grp{sched:sched_wak*,msr/tsc/}:W");
	assert_int_equal(s.nr, 7);
	assert_int_equal(s.last_arg, 3);
	assert_int_equal(s.v[0].leader, 0);
	assert_int_equal(s.v[1].leader, 1);
	assert_int_equal(s.v[1].nr_members, 2);
	assert_int_equal(s.v[2].leader, 1);
	assert_true(s.v[1].sample_read && s.v[2].sample_read);
	assert_false(s.v[0].sample_read);
	assert_null(s.v[1].group_name);
	assert_int_equal(s.v[3].leader, 3);
	assert_int_equal(s.v[4].leader, 4);
	assert_int_equal(s.v[4].nr_members, 3);
	assert_string_equal(s.v[4].group_name, "grp");
	for (int i = 4; i < 7; i++) {
		assert_int_equal(s.v[i].leader, 4);
		assert_true(s.v[i].weak_group);
	}
	assert_true(s.v[6].counting_only);
	assert_string_equal(s.v[6].pmu_name, "msr");
	/* :e and :D go to the leader only, as perf's group modifiers */
	parse_ok(&s, "{cpu-clock,task-clock}:De");
	assert_int_equal(s.v[7].attr.pinned, 1);
	assert_int_equal(s.v[7].attr.exclusive, 1);
	assert_int_equal(s.v[8].attr.pinned, 0);
	assert_int_equal(s.v[8].attr.exclusive, 0);
	event_specs__exit(&s);
}

/*
 * A failure anywhere, after events were already made for the argument,
 * leaves the set as it was; and a later argument appends as if nothing
 * had happened.
 */
static void test_all_or_nothing(void **state)
{
	static const char *const bad[] = {
		"sched:*,cpu-clock:zz",
		"{cpu-clock,task-clock}:zz",
		"cas_count_read,nosuch",
		"cas_count_read/nosuch/",
		"msr/tsc/,cpu/event=0x100/",
		"{cas_count_read,cas_count_write},{",
		"mem:0x1000,sched:sched_switch/period=1/",
		"g{cpu-clock,task-clock},r1a8/name=x/,L1-icache-stores",
		"cpu/cycles-t,name=a,name=b,foo/",
		"sched:sched_wak*/call-graph=fp,name=x/",
	};
	struct event_specs s = { 0 };
	char err[512];

	(void)state;
	parse_ok(&s, "{cpu-clock,task-clock}");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_events_ctx(&s, bad[i], &fx, err, sizeof(err)), -EINVAL);
		assert_int_equal(s.nr, 2);
		assert_int_equal(s.last_arg, 0);
		assert_string_equal(s.v[1].name, "task-clock");
		assert_int_equal(s.v[1].leader, 0);
	}
	parse_ok(&s, "{faults,cs}");
	assert_int_equal(s.nr, 4);
	assert_int_equal(s.v[3].leader, 2);
	event_specs__exit(&s);
}

static void test_err_one_line(void **state)
{
	static const char *const rows[] = {
		"cpu-clock\n",	   "sched:x\ny",   "cpu/name='a\nb'/", "nosuch\r",
		"cpu-clock:u\x7f", "{cpu-clock\n", "msr/\n/",	       "r1a8/name=\x1b[31m/",
	};
	struct event_specs s = { 0 };
	char err[512], small[12];
	char long_str[3000];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(err, 'X', sizeof(err));
		assert_int_equal(parse_events_ctx(&s, rows[i], &fx, err, sizeof(err)), -EINVAL);
		assert_non_null(memchr(err, '\0', sizeof(err)));
		for (const char *c = err; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				fail_msg("row %zu: control character in '%s'", i, err);
	}
	/* cut and terminated inside a small buffer, and no buffer at all is fine */
	memset(small, 'X', sizeof(small));
	assert_int_equal(parse_events_ctx(&s, "nosuch-event-with-a-long-name", &fx, small,
					  sizeof(small)),
			 -EINVAL);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_int_equal(parse_events_ctx(&s, "nosuch", &fx, NULL, 0), -EINVAL);
	/* a long argument gives a bounded line */
	memset(long_str, 'a', sizeof(long_str) - 1);
	long_str[sizeof(long_str) - 1] = '\0';
	assert_int_equal(parse_events_ctx(&s, long_str, &fx, err, sizeof(err)), -EINVAL);
	assert_true(strlen(err) < sizeof(err) - 1);
	assert_int_equal(s.nr, 0);
	event_specs__exit(&s);
}

static void test_filter(void **state)
{
	struct event_specs s = { 0 };
	char err[256];

	(void)state;
	/* nothing to follow yet */
	assert_int_equal(event_specs__add_filter(&s, "x", "--filter", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'--filter' must follow a -e tracepoint"));
	/* every event of the last argument, appended with && as perf */
	parse_ok(&s, "cpu-clock");
	parse_ok(&s, "sched:sched_wak*");
	assert_int_equal(event_specs__add_filter(&s, "prev_pid == 1", "--filter", err, sizeof(err)),
			 0);
	assert_int_equal(event_specs__add_filter(&s, "common_pid != 5", "--exclude-perf", err,
						 sizeof(err)),
			 0);
	assert_null(s.v[0].filter);
	for (int i = 1; i < 3; i++)
		assert_string_equal(s.v[i].filter, "(prev_pid == 1) && (common_pid != 5)");
	/* a non-tracepoint in the last argument: the option's name and the event */
	parse_ok(&s, "sched:sched_switch,task-clock");
	assert_int_equal(event_specs__add_filter(&s, "x", "--exclude-perf", err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "'--exclude-perf'"));
	assert_non_null(strstr(err, "'task-clock' is not one"));
	assert_null(s.v[3].filter);
	/* the default event is no -e argument */
	assert_int_equal(parse_events__add_default(&s, &(struct default_event_env){ 0 }), 0);
	assert_int_equal(event_specs__add_filter(&s, "x", "--filter", err, sizeof(err)), -EINVAL);
	assert_int_equal(s.v[5].leader, 5);
	assert_int_equal(s.v[5].nr_members, 1);
	event_specs__exit(&s);
}

static void test_hw_cache_names(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0), 15);
	assert_string_equal(buf, "L1-dcache-loads");
	event_name__hw_cache(buf, sizeof(buf), 0x10000);
	assert_string_equal(buf, "L1-dcache-load-misses");
	event_name__hw_cache(buf, sizeof(buf), 0x10102);
	assert_string_equal(buf, "LLC-store-misses");
	event_name__hw_cache(buf, sizeof(buf), 0x206);
	assert_string_equal(buf, "node-prefetches");
	event_name__hw_cache(buf, sizeof(buf), 0x5);
	assert_string_equal(buf, "branch-loads");
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x104), -EINVAL); /* iTLB stores */
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x7), -EINVAL);
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x300), -EINVAL);
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x20000), -EINVAL);
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x1000000), -EINVAL);
}

static bool no_hardware(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE;
}

static char *list_text(const struct parse_events_ctx *ctx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	parse_events__print_list(f, ctx);
	fclose(f);
	return text;
}

/* Where needle first is in text, or -1. */
static __attribute__((noinline)) long offset_of(const char *text, const char *needle)
{
	const char *at = strstr(text, needle);

	return at ? (long)(at - text) : -1;
}

static void test_print_list(void **state)
{
	static const char *const kinds[] = {
		"[Hardware event]",	  "[Software event]",	"[Tool event]",
		"[Hardware cache event]", "[Kernel PMU event]", "[Raw hardware event descriptor]",
		"[Hardware breakpoint]",  "[Tracepoint event]",
	};
	static const char *const lines[] = {
		"  cpu-cycles OR cycles                               [Hardware event]\n",
		"  page-faults OR faults                              [Software event]\n",
		"  bpf-output                                         [Software event]\n",
		"  duration_time                                      [Tool event]\n",
		"  L1-dcache-load-misses                              [Hardware cache event]\n",
		"  node-prefetches                                    [Hardware cache event]\n",
		"  cycles-t OR cpu/cycles-t/                          [Kernel PMU event]\n",
		"  msr/tsc/                                           [Kernel PMU event]\n",
		"  power/energy-pkg/                                  [Kernel PMU event]\n",
		"  uncore_imc_0/cas_count_param,umask=?/              [Kernel PMU event]\n",
		"  uncore_imc_1/clockticks/                           [Kernel PMU event]\n",
		"  rNNN                                               [Raw hardware event descriptor]\n",
		"  cpu/t1=v1[,t2=v2,t3 ...]/modifier                  [Raw hardware event descriptor]\n",
		"  mem:<addr>[/len][:access]                          [Hardware breakpoint]\n",
		"  irq:irq_handler_entry                              [Tracepoint event]\n",
		"  sched:sched_switch                                 [Tracepoint event]\n",
	};
	/* perf's order: core PMU first, then by PMU and name; tracepoints as one string */
	static const char *const order[] = {
		"  branch-instructions OR cpu/",
		"  tx-start OR cpu/",
		"  msr/smi/",
		"  msr/tsc/",
		"  power/",
		"  uncore_imc_0/cas_count_param",
		"  uncore_imc_0/cas_count_read/",
		"  uncore_imc_1/",
		"  irq:irq_handler_entry",
		"  irq:softirq_entry",
		"  sched:sched_process_exec",
		"  sched:sched_wakeup ",
		"  sched:sched_waking",
		"  syscalls:sys_enter_openat",
	};
	struct parse_events_ctx ctx = fx;
	char *text = list_text(&ctx);
	size_t last = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strstr(text, lines[i]))
			fail_msg("missing line '%s'", lines[i]);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		long at = offset_of(text, kinds[i]);

		if (at < 0 || (size_t)at < last)
			fail_msg("section '%s' missing or out of order", kinds[i]);
		last = (size_t)at;
	}
	last = 0;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		long at = offset_of(text, order[i]);

		if (at < 0 || (size_t)at < last)
			fail_msg("'%s' missing or out of order", order[i]);
		last = (size_t)at;
	}
	/* the uncore alias side files are not events; broken tracepoints are not listed */
	assert_null(strstr(text, ".scale"));
	assert_null(strstr(text, "broken:"));
	free(text);

	/* hardware and cache events only where the machine opens them, as perf */
	ctx.supported = no_hardware;
	text = list_text(&ctx);
	assert_null(strstr(text, "[Hardware event]"));
	assert_null(strstr(text, "[Hardware cache event]"));
	assert_non_null(strstr(
		text, "  cpu-clock                                          [Software event]\n"));
	free(text);
}

/* This machine's own sysfs and tracefs, where they have what is asked. */
static void test_live(void **state)
{
	struct event_specs s = { 0 };
	char err[512], text[64];
	FILE *f;

	(void)state;
	assert_int_equal(parse_events_ctx(&s, "cpu-clock,faults:u", NULL, err, sizeof(err)), 0);
	assert_int_equal(s.nr, 2);
	event_specs__exit(&s);
	f = fopen("/sys/bus/event_source/devices/msr/type", "r");
	if (f) {
		unsigned type = 0;

		assert_int_equal(fscanf(f, "%u", &type), 1);
		fclose(f);
		assert_int_equal(parse_events(&s, "msr/tsc/", err, sizeof(err)), 0);
		assert_int_equal(s.v[0].attr.type, type);
		assert_true(s.v[0].counting_only);
		assert_string_equal(s.v[0].name, "msr/tsc/");
		event_specs__exit(&s);
	}
	f = fopen("/sys/kernel/tracing/events/sched/sched_switch/id", "r");
	if (f && fgets(text, sizeof(text), f)) {
		assert_int_equal(parse_events(&s, "sched:sched_switch", err, sizeof(err)), 0);
		assert_int_equal(s.v[0].attr.config, strtoull(text, NULL, 10));
		event_specs__exit(&s);
	}
	if (f)
		fclose(f);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_err_one_line),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_hw_cache_names),
		cmocka_unit_test(test_print_list),
		cmocka_unit_test(test_live),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, setup, NULL);
}
