// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kallsyms scan without reading all of /proc/kallsyms (synthesize.h,
 * kallsyms__scan_cached). Synthesis needs four facts from it: _text,
 * _etext, _edata (shown only with KALLSYMS_ALL) and the BPF images. The
 * kernel formats the whole 5 MB file for one read, and _etext sits at ~95%
 * of it: 30-40 ms of CPU on every recording,
 * most of what prec spends on a short one. But:
 *  - the BPF images (trampolines, dispatchers) exist only while BPF
 *    programs are loaded: BPF_PROG_GET_NEXT_ID answering ENOENT says none is;
 *  - _etext - _text and _edata - _text are fixed for a kernel build (KASLR
 *    moves the whole
 *    image), and the build-id cache holds a kallsyms copy of this kernel
 *    (prec and perf record put it there, under the kernel's build-id) once
 *    any recording of this kernel has hit it;
 *  - _text is among the first lines of /proc/kallsyms.
 * When all three hold, _etext and _edata are this boot's _text plus the
 * copy's distances; anything else (a program loaded, no copy, no permission, an
 * odd file) falls back to the full read, so the records are the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/bpf.h"
#include "prec/buildid.h"
#include "prec/buildid_cache.h"
#include "synth/synthesize.h"

/* The copy is read this much at a time; a line is under 600 bytes. */
#define KALLSYMS_WINDOW (64 << 10)

/* The address on the line ending at name_end (" T _text"), or 0. */
static uint64_t line_addr(const char *buf, const char *name_end)
{
	const char *line = name_end;
	char *end;
	uint64_t v;

	while (line > buf && line[-1] != '\n')
		line--;
	v = strtoull(line, &end, 16);
	return end > line && *end == ' ' ? v : 0;
}

/* The address of the core kernel's symbol named by pat (" _text\n"); 0 when
 * missing. A module's symbol ends in "\t[mod]\n", so it never matches. */
static uint64_t find_addr(const char *buf, size_t len, const char *pat, size_t pat_len)
{
	const char *p = memmem(buf, len, pat, pat_len);

	return p ? line_addr(buf, p) : 0;
}

/* _text's, _etext's and _edata's addresses in a kallsyms text; 0 when missing. */
int kallsyms__text_range(const char *buf, size_t len, uint64_t *text, uint64_t *etext,
			 uint64_t *edata)
{
	static const char t[] = " _text\n", e[] = " _etext\n", d[] = " _edata\n";

	*text = find_addr(buf, len, t, sizeof(t) - 1);
	*etext = find_addr(buf, len, e, sizeof(e) - 1);
	*edata = find_addr(buf, len, d, sizeof(d) - 1);
	return *text && *etext > *text ? 0 : -ENOENT;
}

int kallsyms__text_range_fd(int fd, uint64_t *text, uint64_t *etext, uint64_t *edata)
{
	char *buf = malloc(KALLSYMS_WINDOW);
	size_t have = 0; /* a line cut at the window's end, carried over */
	uint64_t off = 0;
	int ret = -ENOENT;

	*text = *etext = *edata = 0;
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = pread(fd, buf + have, KALLSYMS_WINDOW - have, (off_t)off);
		const char *nl;
		size_t len, lines;
		uint64_t t, e, d;

		if (n < 0) {
			ret = -errno;
			break;
		}
		off += (uint64_t)n;
		len = have + (size_t)n;
		nl = n ? memrchr(buf, '\n', len) : NULL;
		lines = n ? (nl ? (size_t)(nl - buf) + 1 : 0) : len;
		if (!lines && len == KALLSYMS_WINDOW)
			break; /* a line longer than a window: not kallsyms */
		kallsyms__text_range(buf, lines, &t, &e, &d);
		*text = *text ? *text : t;
		*etext = *etext ? *etext : e;
		*edata = *edata ? *edata : d;
		/* Without KALLSYMS_ALL there is no _edata: the whole copy is read,
		 * ~5% more than up to _etext. */
		if (!n || (*text && *etext && *edata))
			break;
		have = len - lines;
		memmove(buf, buf + lines, have);
	}
	free(buf);
	if (ret == -ENOENT && *text && *etext > *text)
		ret = 0;
	return ret;
}

/* This boot's _text from the head of proc_dir/kallsyms. */
static int live_text(const char *proc_dir, uint64_t *text)
{
	char path[PATH_MAX], line[512];
	struct ksym sym;
	FILE *f;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "%s/kallsyms", proc_dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* A few lines: _text follows the per-CPU symbols' start. */
	for (int i = 0; i < 64 && fgets(line, sizeof(line), f); i++) {
		if (!kallsyms__parse_line(line, &sym) && !strcmp(sym.name, "_text")) {
			*text = sym.addr;
			ret = sym.addr ? 0 : -EPERM; /* kptr_restrict */
			break;
		}
	}
	fclose(f);
	return ret;
}

/* _etext - _text and _edata - _text (0: no _edata) from the build-id cache's
 * kallsyms copy of this kernel. */
static int cached_text_len(const char *sys_dir, const char *buildid_dir, uint64_t *len,
			   uint64_t *data_len)
{
	struct buildid_cache_paths *p;
	char root[PATH_MAX], sbid[BUILD_ID_MAX * 2 + 1];
	struct build_id bid;
	uint64_t text, etext, edata;
	struct stat st;
	int fd, ret;

	ret = buildid__read_kernel(sys_dir, &bid);
	if (!ret)
		ret = buildid__snprintf(&bid, sbid, sizeof(sbid)) > 0 ? 0 : -EINVAL;
	if (!ret)
		ret = buildid_cache__root(buildid_dir, root, sizeof(root));
	if (ret)
		return ret;
	p = malloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	ret = buildid_cache__paths(root, "[kernel.kallsyms]", sbid, BUILDID_CACHE_KALLSYMS, p);
	fd = ret ? -1 : open(p->file, O_RDONLY | O_CLOEXEC);
	free(p);
	if (fd < 0)
		return ret ? ret : -errno;
	/* Read, not mapped: another recorder may rewrite the shared copy
	 * meanwhile, and a mapped file cut short is a SIGBUS. */
	ret = -ENOENT;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    !kallsyms__text_range_fd(fd, &text, &etext, &edata)) {
		*len = etext - text;
		/* As kallsyms__scan: an _edata below _text is not used. */
		*data_len = edata > text ? edata - text : 0;
		ret = 0;
	}
	close(fd);
	return ret;
}

int kallsyms__scan_cached(const char *proc_dir, const char *sys_dir, const char *buildid_dir,
			  struct kallsyms_scan *ks)
{
	uint64_t text, len, data_len;

	memset(ks, 0, sizeof(*ks));
	if (!sysinfo__bpf_none_loaded() || cached_text_len(sys_dir, buildid_dir, &len, &data_len) ||
	    live_text(proc_dir, &text))
		return -EAGAIN;
	ks->text = text;
	ks->etext = text + len;
	ks->have_text = ks->have_etext = 1;
	if (data_len) {
		ks->edata = text + data_len;
		ks->have_edata = 1;
	}
	return 0;
}
