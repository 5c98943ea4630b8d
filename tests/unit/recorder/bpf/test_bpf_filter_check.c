// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_filter__check (recorder/bpf/filter.c): perf's check that an event
 * samples every field its BPF filter reads, as one line naming the term as
 * written, the event, the PERF_SAMPLE bit and the option that adds it; and
 * the drop counts of a recording without a loaded program.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "recorder/bpf/filter.h"
#include "recorder/evlist/evlist.h"

static int check(const char *filter, uint64_t sample_type, struct prec_err *err)
{
	struct evsel e = { .name = "cpu-clock", .filter = filter, .filter_bpf = true };

	e.attr.sample_type = sample_type;
	prec_err__clear(err);
	return bpf_filter__check(&e, err);
}

static void test_check(void **state)
{
	const uint64_t base = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(check("ip < 5, tid != 0, period > 1, uid == 0, gid == 0", base, &e), 0);
	assert_int_equal(check("cpu == 1", base, &e), -EINVAL);
	assert_string_equal(
		prec_err__msg(&e),
		"--filter 'cpu == 1': event 'cpu-clock' does not sample PERF_SAMPLE_CPU: add --sample-cpu");
	assert_int_equal(check("cpu == 1", base | PERF_SAMPLE_CPU, &e), 0);
	/* the term inside a group, as written */
	assert_int_equal(check("ip > 0, period > 0 ||  code_pgsz > 4096", base, &e), -EINVAL);
	assert_string_equal(
		prec_err__msg(&e),
		"--filter 'code_pgsz > 4096': event 'cpu-clock' does not sample PERF_SAMPLE_CODE_PAGE_SIZE: add --code-page-size");
	assert_int_equal(check("mem_op == load", base, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "PERF_SAMPLE_DATA_SRC: add -d"));
	assert_int_equal(check("id > 0", base | PERF_SAMPLE_IDENTIFIER, &e), 0);
	/* cgroup needs --all-cgroups, then a path that names a cgroup */
	assert_int_equal(check("cgroup == /", base, &e), -EINVAL);
	assert_string_equal(
		prec_err__msg(&e),
		"--filter 'cgroup == /': event 'cpu-clock' does not sample PERF_SAMPLE_CGROUP: add --all-cgroups");
	assert_int_equal(check("cgroup != /prec-no-such-cgroup", base | PERF_SAMPLE_CGROUP, &e),
			 -ENOENT);
	assert_non_null(strstr(prec_err__msg(&e),
			       "--filter 'cgroup != /prec-no-such-cgroup': cannot open cgroup "));
	assert_non_null(strstr(prec_err__msg(&e), "(give a path under the cgroup2 mount "));
	/* a bit no option adds */
	assert_int_equal(check("ip < 5", PERF_SAMPLE_TID, &e), -EINVAL);
	assert_string_equal(
		prec_err__msg(&e),
		"--filter 'ip < 5': event 'cpu-clock' does not sample PERF_SAMPLE_IP, and no option adds it: filter on a field it samples");
}

static void test_dropped_without_program(void **state)
{
	struct evsel v[2] = { { .name = "a" }, { .name = "b" } };
	struct evlist l = { .evsel = v, .nr = 2 };

	(void)state;
	assert_int_equal(bpf_filter__dropped(NULL), 0);
	assert_int_equal(bpf_filters__dropped(&l), 0);
	assert_int_equal(bpf_filters__dropped(NULL), 0);
	bpf_filter__delete(NULL);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_dropped_without_program),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
