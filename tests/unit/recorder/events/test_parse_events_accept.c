// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -e grammar on every accepted string but PMU events (those are
 * test_parse_events_pmu.c): symbolic, tool, raw and numeric events, cache
 * names, breakpoints, tracepoints, lists and groups, each with the whole attr
 * and spec fields it must give (perf 6.1's, see parse_events_expect.h). Two
 * deliberate differences: a plain uncore alias lists its boxes in name order
 * (perf: directory order), and a split uncore alias group is made
 * contiguous.
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

#include "recorder/events/parse_events.h"
#include "parse_events_expect.h"

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

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, setup, NULL);
}
