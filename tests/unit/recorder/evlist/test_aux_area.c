// SPDX-License-Identifier: GPL-2.0-only
/* What needs an AUX area PMU or BPF, and the line prec gives (recorder/evlist/aux_area.c). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "recorder/events/parse_events.h"
#include "recorder/evlist/aux_area.h"

static void test_pmu_names(void **state)
{
	(void)state;
	assert_true(aux_area__pmu("intel_pt"));
	assert_true(aux_area__pmu("intel_bts"));
	assert_true(aux_area__pmu("cs_etm"));
	assert_true(aux_area__pmu("arm_spe_0"));
	assert_true(aux_area__pmu("hisi_ptt0_2"));
	assert_true(aux_area__pmu("hisi_ptt"));
	assert_false(aux_area__pmu("intel_ptx"));
	assert_false(aux_area__pmu("cpu"));
	assert_false(aux_area__pmu("cpu_core"));
	assert_false(aux_area__pmu(NULL));
}

static void test_scriptlet(void **state)
{
	char path[] = "/tmp/prec-aux-XXXXXX.c";
	int fd;

	(void)state;
	assert_false(aux_area__bpf_scriptlet("cpu-clock"));
	assert_false(aux_area__bpf_scriptlet("/nonexistent/prog.c"));
	fd = mkstemps(path, 2);
	assert_true(fd >= 0);
	close(fd);
	assert_true(aux_area__bpf_scriptlet(path));
	unlink(path);
	assert_false(aux_area__bpf_scriptlet("/tmp")); /* a directory */
}

/* Each refusal, in the order a user meets them; nothing refused without one. */
static void test_check(void **state)
{
	struct event_spec v[2] = { { .name = (char *)"cpu-clock" }, { .name = (char *)"x" } };
	struct event_specs specs = { .v = v, .nr = 1 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(aux_area__check(&specs, false, false, &e), 0);

	/* -S/--snapshot */
	assert_int_equal(aux_area__check(&specs, true, false, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "No AUX area tracing to snapshot"));
	assert_non_null(strstr(prec_err__msg(&e), "intel_pt//"));

	/* --aux-sample */
	assert_int_equal(aux_area__check(&specs, false, true, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "No AUX area event to sample"));

	v[0].terms.set = EVENT_TERM_AUX_SAMPLE_SIZE;
	assert_int_equal(aux_area__check(&specs, false, false, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "aux-sample-size"));
	v[0].terms.set = 0;

	/* An AUX area event itself comes first, even with -S. */
	v[1].name = (char *)"intel_pt//";
	v[1].pmu_name = (char *)"intel_pt";
	specs.nr = 2;
	assert_int_equal(aux_area__check(&specs, true, false, &e), -EINVAL);
	assert_string_equal(prec_err__msg(&e),
			    "event 'intel_pt//': prec does not record AUX area traces (intel_pt): record it with perf record");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmu_names),
		cmocka_unit_test(test_scriptlet),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
