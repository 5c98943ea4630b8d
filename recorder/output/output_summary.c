// SPDX-License-Identifier: GPL-2.0-only
/*
 * The summary lines at the end of a recording (output.h, output__summary):
 * perf record's wording, and for lost data one line naming what to try.
 */
#include "bpf/filter.h"
#include "bpf/off_cpu.h"
#include "prec/log.h"
#include "options/options.h"
#include "drain/drain.h"
#include "output/output.h"
#include "unwind/unwind.h"

void output__summary(struct output *o)
{
	struct drain_stats st = o->total;
	uint64_t bytes = o->file_bytes, comp_in = o->comp_in, comp_out = o->comp_out;
	const char *path = o->final_name;

	if (o->unw &&
	    !o->src.stream_files) /* --threads: each stream's unwinder, counted at its end */
		unwinder__summary(o->unw, &st);
	st.samples = o->file.samples; /* the last file's, as perf */
	pr_info("[ prec record: Woken up %llu times to write data ]\n",
		(unsigned long long)st.wakeups);
	/* Both mean a ring was full when the kernel had something to write: the
	 * fixes are more room, a drain that gets its turn, or less data. */
	if (st.lost_samples)
		pr_warn("%llu samples lost: the kernel dropped them while the ring buffer was full (try a larger -m, -r 10 to drain with SCHED_FIFO, --threads, or fewer samples: a lower -F or a higher -c)",
			(unsigned long long)st.lost_samples);
	if (st.lost)
		pr_warn("%llu events lost in %llu chunks: the ring buffer filled up (try a larger -m, -r 10 to drain with SCHED_FIFO, --threads, or fewer samples: a lower -F or a higher -c)",
			(unsigned long long)st.lost, (unsigned long long)st.lost_records);
	/* Not lost: the filter asked for it (LOST_SAMPLES with the BPF bit). */
	if (bpf_filters__dropped(o->src.evlist))
		pr_info("[ prec record: %llu samples dropped by --filter ]\n",
			(unsigned long long)bpf_filters__dropped(o->src.evlist));
	if (st.unwound)
		pr_info("[ prec record: Unwound %llu user stacks at record time, %llu incomplete (kept the frames found) ]\n",
			(unsigned long long)st.unwound, (unsigned long long)st.unwind_partial);
	if (o->src.off_cpu) {
		uint64_t totals, direct, lost;

		off_cpu__counts(o->src.off_cpu, &totals, &direct, &lost);
		pr_info("[ prec record: %llu off-CPU samples: %llu summed, %llu direct ]\n",
			(unsigned long long)(totals + direct), (unsigned long long)totals,
			(unsigned long long)direct);
		if (lost)
			pr_warn("%llu direct off-CPU samples lost: their ring was full (raise --off-cpu-thresh)",
				(unsigned long long)lost);
	}
	if (comp_out)
		/* perf's wording; "original" is what the data would have taken. */
		pr_info("[ prec record: Captured and wrote %.3f MB %s (%llu samples), compressed (original %.3f MB, ratio is %.3f) ]\n",
			(double)bytes / 1048576.0, path, (unsigned long long)st.samples,
			(double)(bytes - comp_out + comp_in) / 1048576.0,
			(double)comp_in / (double)comp_out);
	else
		pr_info("[ prec record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
			(double)bytes / 1048576.0, path, (unsigned long long)st.samples);
}
