// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -e grammar on PMU events against the fixture PMUs: pmu/terms/ with
 * formats, aliases and hard-coded terms, software/ and tracepoint/ as PMUs,
 * uncore aliases over several boxes, each with the whole attr and spec
 * fields it must give (perf 6.1's, see parse_events_expect.h).
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
