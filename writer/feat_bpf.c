// SPDX-License-Identifier: GPL-2.0-only
/*
 * BPF_PROG_INFO and BPF_BTF, byte for byte as perf 6.1's write_bpf_prog_info()
 * and write_bpf_btf() in tools/perf/util/header.c:
 *
 *   BPF_PROG_INFO: u32 count, then per program (ascending id) its whole
 *                  struct perf_bpil and data:
 *                    u32 info_len (SYSINFO_BPF_INFO_LEN), u32 data_len,
 *                    u64 arrays, info_len bytes of struct bpf_prog_info
 *                    (array fields as offsets into data), data_len bytes.
 *   BPF_BTF:       u32 count, then per BTF (ascending id)
 *                    u32 id, u32 size, size bytes of raw BTF.
 *
 * Both are written with count 0 when there is nothing (no privilege, no
 * programs, no snapshot), as perf writes them.
 */
#include <errno.h>
#include <string.h>

#include "prec/sysinfo.h"
#include "prec/bpf.h"
#include "features.h"

/* Written as perf's struct holds it: ours may be shorter or longer. */
static int put_info(struct feat_sink *s, const struct bpf_prog_info *info)
{
	uint8_t raw[SYSINFO_BPF_INFO_LEN];
	size_t n = sizeof(*info) < sizeof(raw) ? sizeof(*info) : sizeof(raw);

	memset(raw, 0, sizeof(raw));
	memcpy(raw, info, n);
	return feat_sink__put_bytes(s, raw, sizeof(raw));
}

int feat_bpf_prog_info__write(struct feat_sink *sink, const struct writer_meta *meta)
{
	const struct sysinfo_bpf *bpf = meta->si ? meta->si->bpf : NULL;
	uint32_t nr = bpf ? bpf->nr_progs : 0;

	feat_sink__put_u32(sink, nr);
	for (uint32_t i = 0; i < nr; i++) {
		const struct sysinfo_bpf_prog *p = &bpf->progs[i];

		/* data_len must cover what data holds; a NULL data is empty. */
		if (p->data_len && !p->data)
			return -EINVAL;
		feat_sink__put_u32(sink, SYSINFO_BPF_INFO_LEN);
		feat_sink__put_u32(sink, p->data_len);
		feat_sink__put_u64(sink, p->arrays);
		put_info(sink, &p->info);
		if (p->data_len)
			feat_sink__put_bytes(sink, p->data, p->data_len);
	}
	return feat_sink__err(sink);
}

int feat_bpf_btf__write(struct feat_sink *sink, const struct writer_meta *meta)
{
	const struct sysinfo_bpf *bpf = meta->si ? meta->si->bpf : NULL;
	uint32_t nr = bpf ? bpf->nr_btfs : 0;

	feat_sink__put_u32(sink, nr);
	for (uint32_t i = 0; i < nr; i++) {
		const struct sysinfo_btf *b = &bpf->btfs[i];

		if (b->size && !b->data)
			return -EINVAL;
		feat_sink__put_u32(sink, b->id);
		feat_sink__put_u32(sink, b->size);
		if (b->size)
			feat_sink__put_bytes(sink, b->data, b->size);
	}
	return feat_sink__err(sink);
}
