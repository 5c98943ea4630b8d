// SPDX-License-Identifier: GPL-2.0-only
/*
 * --off-cpu's user stacks: the program keeps each in its stacks map (by id,
 * BPF_F_USER_STACK); a sample's callchain is the frames read back here,
 * innermost first, up to the first 0 (the map zeroes the rest).
 */
#include "bpf/off_cpu_int.h"

#ifdef PREC_HAVE_BPF
#include <bpf/bpf.h>

int off_cpu__stack(const struct off_cpu *oc, uint32_t stack_id, uint64_t *frames)
{
	int n = 0;

	if (bpf_map_lookup_elem(oc->stack_fd, &stack_id, frames))
		return 0;
	while (n < OFF_CPU_MAX_STACK && frames[n])
		n++;
	return n;
}
#endif
