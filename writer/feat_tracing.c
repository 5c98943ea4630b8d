// SPDX-License-Identifier: GPL-2.0-only
/*
 * TRACING_DATA: perf's tracing-data blob (tracefs headers, the formats of the
 * recorded tracepoints, printk formats, saved cmdlines), built by
 * tracing_data__build() from the live tracefs before the recording ends and
 * written here verbatim: perf 6.1's write_tracing_data() streams the same
 * bytes straight into the section, without a size of its own.
 */
#include <errno.h>

#include "features.h"

/* Left out (-ENOENT) when no tracepoint was recorded, as perf record does. */
int feat_tracing_data__write(struct feat_sink *sink, const struct writer_meta *meta)
{
	if (!meta->tracing_data_len || !meta->tracing_data)
		return -ENOENT;
	feat_sink__put_bytes(sink, meta->tracing_data, meta->tracing_data_len);
	return feat_sink__err(sink);
}
