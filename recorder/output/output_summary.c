// SPDX-License-Identifier: GPL-2.0-only
/*
 * The summary lines at the end of a recording (output.h, output__summary):
 * perf record's wording, and for lost data one line naming what to try;
 * a kernel.perf_event_max_sample_rate lowered during the recording (perf
 * says nothing) is printed with its values.
 */
#include "bpf/filter.h"
#include "bpf/off_cpu.h"
#include "prec/log.h"
#include "drain/drain.h"
#include "evlist/evlist.h"
#include "output/output.h"
#include "unwind/unwind.h"
#include "prec/sysinfo.h"

/* What --off-cpu's program could not keep (bpf/off_cpu.h), one line each. */
static void output__off_cpu_losses(const struct off_cpu *oc)
{
	struct off_cpu_losses l;

	off_cpu__losses(oc, &l);
	if (l.blocks)
		pr_warn("%llu off-CPU blocks lost: the program's maps were full or their end was not seen (fewer tasks, or a higher --off-cpu-thresh)",
			(unsigned long long)l.blocks);
	if (l.stacks)
		pr_warn("%llu off-CPU blocks kept without their callchain: the stack map was full or two stacks shared a bucket",
			(unsigned long long)l.stacks);
	if (l.children)
		pr_warn("%llu forked processes not followed by --off-cpu: its task filter was full",
			(unsigned long long)l.children);
	if (l.cut)
		pr_warn("%llu summed off-CPU samples not written: --max-size reached",
			(unsigned long long)l.cut);
	if (l.late)
		pr_verbose(
			"%llu off-CPU blocks ended without a switch naming the task: timed from its next switch out\n",
			(unsigned long long)l.late);
}

/*
 * The kernel halves perf_event_max_sample_rate each time a sample's handling
 * takes longer than perf_cpu_time_max_percent allows, and from then on
 * throttles every event above it: samples the user asked for are missing
 * and nothing in the file says why.
 */
static void output__sample_rate_fall(const struct evlist *evlist)
{
	int64_t before = evlist ? evlist->max_sample_rate : 0;
	int64_t after;

	if (before <= 0)
		return;
	after = sysinfo__sysctl_or("kernel/perf_event_max_sample_rate", before);
	if (after <= 0 || after >= before)
		return;
	pr_warn("kernel.perf_event_max_sample_rate fell from %lld to %lld Hz during the recording: events sampling faster were throttled to it (the kernel lowers it when samples take too long, see kernel.perf_cpu_time_max_percent; use -F %lld or lower, or raise it back with 'sysctl -w kernel.perf_event_max_sample_rate=%lld')",
		(long long)before, (long long)after, (long long)after, (long long)before);
}

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
	output__sample_rate_fall(o->src.evlist);
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
		output__off_cpu_losses(o->src.off_cpu);
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
