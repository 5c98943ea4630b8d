// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness for the BPF --filter grammar (recorder/events/bpf_filter_parse.c):
 * any bytes in, no crash, no leak, and the contract: a refusal is one line;
 * an accepted filter is what the BPF program can walk (known operators,
 * groups that open before they close and never nest nor stay empty, a term
 * that reads one sample bit or one helper, the end marker when there is
 * room) and each entry's text lies inside the string; a cgroup term's path
 * is inside its term, not empty, holds no space, and only cgroup terms
 * (== or !=) have one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/events/bpf_filter_parse.h"

static void check_ok(const struct filter_terms *f, const char *str, size_t len)
{
	int in_group = 0, members = 0;

	if (f->nr < 1 || f->nr > SAMPLE_FILTER_MAX)
		abort();
	for (int i = 0; i < f->nr; i++) {
		const struct sample_filter_entry *e = &f->v[i];

		if ((size_t)f->at[i] + f->len[i] > len)
			abort();
		if (f->path_len[i] != 0) {
			if (e->sample != PERF_SAMPLE_CGROUP || e->op > SF_OP_NE ||
			    f->path_at[i] < f->at[i] || f->path_at[i] + f->path_len[i] > len ||
			    memchr(str + f->path_at[i], ' ', f->path_len[i]))
				abort();
		} else if (e->sample == PERF_SAMPLE_CGROUP) {
			abort();
		}
		if (e->op == SF_OP_GROUP_BEGIN) {
			if (in_group)
				abort();
			in_group = 1;
			members = 0;
		} else if (e->op == SF_OP_GROUP_END) {
			if (!in_group || members < 2)
				abort();
			in_group = 0;
		} else if (e->op <= SF_OP_AND) {
			/* one bit, or a helper and no bit */
			if (e->helper ? e->sample != 0 || e->helper > SF_HELPER_GID :
					e->sample == 0 || (e->sample & (e->sample - 1)))
				abort();
			members += in_group;
		} else {
			abort();
		}
	}
	if (in_group || (f->nr < SAMPLE_FILTER_MAX && f->v[f->nr].op != SF_OP_DONE))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct filter_terms *f = malloc(sizeof(*f));
	char *str = malloc(size + 1);
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int ret;

	if (!f || !str)
		goto out;
	memcpy(str, data, size);
	str[size] = '\0';
	prec_err__clear(&e);
	ret = filter_terms__parse(str, f, &e);
	if (ret) {
		if ((ret != -EINVAL && ret != -E2BIG) || !prec_err__is_set(&e) ||
		    strpbrk(prec_err__msg(&e), "\r\n"))
			abort();
	} else {
		check_ok(f, str, strlen(str));
	}
out:
	free(f);
	free(str);
	return 0;
}
