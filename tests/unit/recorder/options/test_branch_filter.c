// SPDX-License-Identifier: GPL-2.0-only
/*
 * -j's list (branch_filter__parse) against perf 6.1's parse_branch_str:
 * its names, case-insensitive, OR-ed; privilege levels alone become ANY and
 * nothing else, the levels being the event's exclude bits; a name it does
 * not know is refused naming the ones it does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>

#include "recorder/options/regs.h"

static uint64_t parse_ok(const char *list)
{
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	uint64_t bits = ~0ULL;

	assert_int_equal(branch_filter__parse(list, &bits, &e), 0);
	return bits;
}

static void test_levels_alone_are_any(void **state)
{
	(void)state;
	/* What perf record 6.1 opens for -j u, -j k, -j hv: 8, not 9, 10, 12. */
	assert_int_equal(parse_ok("u"), PERF_SAMPLE_BRANCH_ANY);
	assert_int_equal(parse_ok("k"), PERF_SAMPLE_BRANCH_ANY);
	assert_int_equal(parse_ok("hv"), PERF_SAMPLE_BRANCH_ANY);
	assert_int_equal(parse_ok("u,k"), PERF_SAMPLE_BRANCH_ANY);
	assert_int_equal(parse_ok("U"), PERF_SAMPLE_BRANCH_ANY);
}

static void test_levels_with_a_type_stay(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("any_call,u"),
			 PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER);
	assert_int_equal(parse_ok("any,k"), PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_KERNEL);
	assert_int_equal(parse_ok("ind_call,cond"),
			 PERF_SAMPLE_BRANCH_IND_CALL | PERF_SAMPLE_BRANCH_COND);
}

static void test_perf_spellings(void **state)
{
	(void)state;
	/* perf 6.1's names for the call stack and the privilege save, and
	 * the kernel's, which prec also takes. */
	assert_int_equal(parse_ok("stack"), PERF_SAMPLE_BRANCH_CALL_STACK);
	assert_int_equal(parse_ok("call_stack"), PERF_SAMPLE_BRANCH_CALL_STACK);
	assert_int_equal(parse_ok("any,priv"),
			 PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_PRIV_SAVE);
	assert_int_equal(parse_ok("any,save_type"),
			 PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_TYPE_SAVE);
	assert_int_equal(parse_ok("ind_jmp,call"),
			 PERF_SAMPLE_BRANCH_IND_JUMP | PERF_SAMPLE_BRANCH_CALL);
	/* perf 6.8's counter: PERF_SAMPLE_BRANCH_COUNTERS, bit 19. */
	assert_int_equal(parse_ok("any,counter"), PERF_SAMPLE_BRANCH_ANY | (1ULL << 19));
	assert_int_equal(parse_ok("no_flags,no_cycles,hw_index"),
			 PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |
				 PERF_SAMPLE_BRANCH_HW_INDEX);
}

static void test_unknown_refused(void **state)
{
	static const char *const bad[] = { "", "u,", "user", "any,,k", "stackx" };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	uint64_t bits;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(branch_filter__parse(bad[i], &bits, &e), -EINVAL);
		assert_non_null(strstr(prec_err__msg(&e), "unknown branch filter"));
		assert_non_null(strstr(prec_err__msg(&e), "stack"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels_alone_are_any),
		cmocka_unit_test(test_levels_with_a_type_stay),
		cmocka_unit_test(test_perf_spellings),
		cmocka_unit_test(test_unknown_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
