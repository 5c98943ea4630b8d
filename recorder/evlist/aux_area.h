/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_AUX_AREA_H
#define PREC_RECORDER_AUX_AREA_H
/*
 * AUX area tracing (Intel PT and BTS, Arm CoreSight and SPE, HiSilicon PTT,
 * s390 CPU-measurement sampling) and the other perf 6.1 features prec does
 * not record: which events and options need them, and the one line that
 * says so and names what to do instead. Nothing here is ignored silently.
 */
#include <stdbool.h>
#include <stddef.h>

#include "prec/error.h"

struct event_specs;

/* Whether the sysfs PMU named pmu_name writes an AUX area (perf's arch
 * auxtrace_record__init list). */
bool aux_area__pmu(const char *pmu_name);

/* Whether an -e string names a BPF scriptlet (perf 6.1's -e FILE.c or
 * FILE.o, compiled with --clang-path/--clang-opt): an existing regular file
 * ending in .c or .o. */
bool aux_area__bpf_scriptlet(const char *event);

/*
 * After the events are parsed: -S/--snapshot (snapshot) and --aux-sample
 * (sample) without an AUX area event (perf's messages, with the fix), any
 * AUX area event or aux-* term. 0, or -EINVAL with one line in e.
 */
int aux_area__check(const struct event_specs *specs, bool snapshot, bool sample,
		    struct prec_err *e);

#endif
