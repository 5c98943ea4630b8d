// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BPF --filter grammar (bpf_filter_parse.h): perf 6.4-6.12's terms, operators
 * and symbolic memory values, read into the entry array the BPF program
 * walks, and the table of which sample_type bit each field needs and which
 * option adds it (perf's bpf-filter.c). Pure: no I/O, no libbpf.
 */
#include "events/bpf_filter_parse.h"
#include "prec/number.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct sym {
	const char *name;
	uint64_t value;
};

struct term {
	const char *name;
	uint64_t sample; /* PERF_SAMPLE_* bit; 0 for a helper */
	uint16_t part;
	uint16_t helper;
	const struct sym *syms; /* the symbolic values it takes besides numbers, or NULL */
	bool path; /* takes a path, == or != only (cgroup) */
};

static const struct sym mem_op_syms[] = {
	{ "na", PERF_MEM_OP_NA },	{ "load", PERF_MEM_OP_LOAD },
	{ "store", PERF_MEM_OP_STORE }, { "pfetch", PERF_MEM_OP_PFETCH },
	{ "exec", PERF_MEM_OP_EXEC },	{ NULL, 0 },
};

static const struct sym mem_lvl_syms[] = {
	{ "l1", PERF_MEM_LVLNUM_L1 },
	{ "l2", PERF_MEM_LVLNUM_L2 },
	{ "l3", PERF_MEM_LVLNUM_L3 },
	{ "l4", PERF_MEM_LVLNUM_L4 },
	{ "cxl", PERF_MEM_LVLNUM_CXL },
	{ "io", PERF_MEM_LVLNUM_IO },
	{ "any_cache", PERF_MEM_LVLNUM_ANY_CACHE },
	{ "lfb", PERF_MEM_LVLNUM_LFB },
	{ "ram", PERF_MEM_LVLNUM_RAM },
	{ "pmem", PERF_MEM_LVLNUM_PMEM },
	{ NULL, 0 },
};

/* The program reads snoopx above the 5 bits of snoop: fwd and peer sit there. */
static const struct sym mem_snoop_syms[] = {
	{ "none", PERF_MEM_SNOOP_NONE },
	{ "hit", PERF_MEM_SNOOP_HIT },
	{ "miss", PERF_MEM_SNOOP_MISS },
	{ "hitm", PERF_MEM_SNOOP_HITM },
	{ "fwd", (uint64_t)PERF_MEM_SNOOPX_FWD << 5 },
	{ "peer", (uint64_t)PERF_MEM_SNOOPX_PEER << 5 },
	{ NULL, 0 },
};

static const struct sym mem_remote_syms[] = { { "remote", PERF_MEM_REMOTE_REMOTE }, { NULL, 0 } };
static const struct sym mem_lock_syms[] = { { "locked", PERF_MEM_LOCK_LOCKED }, { NULL, 0 } };

static const struct sym mem_dtlb_syms[] = {
	{ "l1_hit", PERF_MEM_TLB_L1 | PERF_MEM_TLB_HIT },
	{ "l1_miss", PERF_MEM_TLB_L1 | PERF_MEM_TLB_MISS },
	{ "l2_hit", PERF_MEM_TLB_L2 | PERF_MEM_TLB_HIT },
	{ "l2_miss", PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS },
	{ "any_hit", PERF_MEM_TLB_HIT },
	{ "any_miss", PERF_MEM_TLB_MISS },
	{ "walk", PERF_MEM_TLB_WK },
	{ "os", PERF_MEM_TLB_OS },
	{ "fault", PERF_MEM_TLB_OS },
	{ NULL, 0 },
};

static const struct sym mem_blk_syms[] = {
	{ "by_data", PERF_MEM_BLK_DATA },
	{ "by_addr", PERF_MEM_BLK_ADDR },
	{ NULL, 0 },
};

static const struct sym mem_hops_syms[] = {
	{ "hops0", PERF_MEM_HOPS_0 },
	{ "hops1", PERF_MEM_HOPS_1 },
	{ "hops2", PERF_MEM_HOPS_2 },
	{ "hops3", PERF_MEM_HOPS_3 },
	{ NULL, 0 },
};

static const struct term terms[] = {
	{ "ip", PERF_SAMPLE_IP, 0, 0, NULL, false },
	{ "id", PERF_SAMPLE_ID, 0, 0, NULL, false },
	{ "tid", PERF_SAMPLE_TID, 0, 0, NULL, false },
	{ "pid", PERF_SAMPLE_TID, 1, 0, NULL, false },
	{ "cpu", PERF_SAMPLE_CPU, 0, 0, NULL, false },
	{ "time", PERF_SAMPLE_TIME, 0, 0, NULL, false },
	{ "addr", PERF_SAMPLE_ADDR, 0, 0, NULL, false },
	{ "period", PERF_SAMPLE_PERIOD, 0, 0, NULL, false },
	{ "txn", PERF_SAMPLE_TRANSACTION, 0, 0, NULL, false },
	{ "weight", PERF_SAMPLE_WEIGHT, 0, 0, NULL, false },
	{ "weight1", PERF_SAMPLE_WEIGHT_STRUCT, 1, 0, NULL, false },
	{ "weight2", PERF_SAMPLE_WEIGHT_STRUCT, 2, 0, NULL, false },
	{ "weight3", PERF_SAMPLE_WEIGHT_STRUCT, 3, 0, NULL, false },
	{ "ins_lat", PERF_SAMPLE_WEIGHT_STRUCT, 2, 0, NULL, false },
	{ "retire_lat", PERF_SAMPLE_WEIGHT_STRUCT, 3, 0, NULL, false },
	{ "p_stage_cyc", PERF_SAMPLE_WEIGHT_STRUCT, 3, 0, NULL, false },
	{ "phys_addr", PERF_SAMPLE_PHYS_ADDR, 0, 0, NULL, false },
	{ "code_pgsz", PERF_SAMPLE_CODE_PAGE_SIZE, 0, 0, NULL, false },
	{ "data_pgsz", PERF_SAMPLE_DATA_PAGE_SIZE, 0, 0, NULL, false },
	{ "mem_op", PERF_SAMPLE_DATA_SRC, 1, 0, mem_op_syms, false },
	{ "mem_lvl", PERF_SAMPLE_DATA_SRC, 2, 0, mem_lvl_syms, false },
	{ "mem_lvlnum", PERF_SAMPLE_DATA_SRC, 2, 0, mem_lvl_syms, false },
	{ "mem_snoop", PERF_SAMPLE_DATA_SRC, 3, 0, mem_snoop_syms, false },
	{ "mem_remote", PERF_SAMPLE_DATA_SRC, 4, 0, mem_remote_syms, false },
	{ "mem_lock", PERF_SAMPLE_DATA_SRC, 5, 0, mem_lock_syms, false },
	{ "mem_dtlb", PERF_SAMPLE_DATA_SRC, 6, 0, mem_dtlb_syms, false },
	{ "mem_blk", PERF_SAMPLE_DATA_SRC, 7, 0, mem_blk_syms, false },
	{ "mem_hops", PERF_SAMPLE_DATA_SRC, 8, 0, mem_hops_syms, false },
	{ "uid", 0, 0, SF_HELPER_UID, NULL, false },
	{ "gid", 0, 0, SF_HELPER_GID, NULL, false },
	{ "cgroup", PERF_SAMPLE_CGROUP, 0, 0, NULL, true },
};

#define TERM_NAMES                                                                                 \
	"ip, id, tid, pid, cpu, time, addr, period, txn, weight, weight1-3, ins_lat, retire_lat, " \
	"p_stage_cyc, phys_addr, code_pgsz, data_pgsz, mem_op, mem_lvl, mem_snoop, mem_remote, "   \
	"mem_lock, mem_dtlb, mem_blk, mem_hops, uid, gid, cgroup"

/* The bits a term may need: name, and the option that adds it (perf's table). */
static const struct {
	uint64_t bit;
	const char *name;
	const char *option;
} bits[] = {
	{ PERF_SAMPLE_IP, "PERF_SAMPLE_IP", NULL },
	{ PERF_SAMPLE_TID, "PERF_SAMPLE_TID", NULL },
	{ PERF_SAMPLE_PERIOD, "PERF_SAMPLE_PERIOD", "--period" },
	{ PERF_SAMPLE_ID, "PERF_SAMPLE_ID", "--sample-identifier" },
	{ PERF_SAMPLE_CPU, "PERF_SAMPLE_CPU", "--sample-cpu" },
	{ PERF_SAMPLE_TIME, "PERF_SAMPLE_TIME", "-T" },
	{ PERF_SAMPLE_ADDR, "PERF_SAMPLE_ADDR", "-d" },
	{ PERF_SAMPLE_DATA_SRC, "PERF_SAMPLE_DATA_SRC", "-d" },
	{ PERF_SAMPLE_PHYS_ADDR, "PERF_SAMPLE_PHYS_ADDR", "--phys-data" },
	{ PERF_SAMPLE_WEIGHT, "PERF_SAMPLE_WEIGHT", "-W" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "PERF_SAMPLE_WEIGHT_STRUCT", "-W" },
	{ PERF_SAMPLE_TRANSACTION, "PERF_SAMPLE_TRANSACTION", "--transaction" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "PERF_SAMPLE_CODE_PAGE_SIZE", "--code-page-size" },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "PERF_SAMPLE_DATA_PAGE_SIZE", "--data-page-size" },
	{ PERF_SAMPLE_CGROUP, "PERF_SAMPLE_CGROUP", "--all-cgroups" },
};

const char *filter_terms__bit_name(uint64_t bit)
{
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (bits[i].bit == bit)
			return bits[i].name;
	return "an unknown PERF_SAMPLE bit";
}

const char *filter_terms__bit_option(uint64_t bit)
{
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (bits[i].bit == bit)
			return bits[i].option;
	return NULL;
}

int filter_terms__missing(const struct filter_terms *f, uint64_t sample_type)
{
	for (int i = 0; i < f->nr; i++) {
		uint64_t bit = f->v[i].sample;

		if (bit && !(sample_type & sample_filter_bits(bit)))
			return i;
	}
	return -1;
}

/* The reader: the string, where it is, and the entries so far. */
struct reader {
	const char *s;
	size_t pos;
	struct filter_terms *f;
	struct prec_err *e;
};

static bool is_ident(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

static void skip_space(struct reader *r)
{
	while (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' || r->s[r->pos] == '\n')
		r->pos++;
}

/* The token at pos for a message: an identifier or number whole, else one byte. */
static int token_len(const char *p)
{
	int n = 0;

	if (!*p)
		return 0;
	while (is_ident(p[n], false))
		n++;
	return n ? n : 1;
}

static int fail(struct reader *r, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct reader *r, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ret = prec_err__vset(r->e, ret, fmt, ap);
	va_end(ap);
	return ret;
}

/* "'x' at offset N", or "the end" when nothing is left. */
static const char *where(const struct reader *r, char *buf, size_t len)
{
	const char *p = r->s + r->pos;

	if (!*p)
		snprintf(buf, len, "the end");
	else if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
		snprintf(buf, len, "byte 0x%02x at offset %zu", (unsigned char)*p, r->pos);
	else
		snprintf(buf, len, "'%.*s' at offset %zu", token_len(p) > 32 ? 32 : token_len(p), p,
			 r->pos);
	return buf;
}

static int add(struct reader *r, struct sample_filter_entry e, size_t at, size_t end)
{
	struct filter_terms *f = r->f;

	if (f->nr == SAMPLE_FILTER_MAX)
		return fail(
			r, -E2BIG,
			"too many terms: a filter holds %d entries (each term takes one, each '||' group two more): split it between events or drop terms",
			SAMPLE_FILTER_MAX);
	f->at[f->nr] = at > UINT16_MAX ? UINT16_MAX : (uint16_t)at;
	f->len[f->nr] = end - at > UINT16_MAX ? UINT16_MAX : (uint16_t)(end - at);
	f->v[f->nr++] = e;
	return 0;
}

static const struct term *find_term(const char *p, size_t n)
{
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++)
		if (strlen(terms[i].name) == n && !memcmp(terms[i].name, p, n))
			return &terms[i];
	return NULL;
}

static int read_op(struct reader *r, const struct term *t, uint32_t *op)
{
	static const struct {
		const char *text;
		uint32_t op;
	} ops[] = {
		/* The two-byte ones first: ">=" is not ">" then "=". */
		{ "==", SF_OP_EQ }, { "!=", SF_OP_NE }, { ">=", SF_OP_GE }, { "<=", SF_OP_LE },
		{ ">", SF_OP_GT },  { "<", SF_OP_LT },	{ "&", SF_OP_AND },
	};
	char w[64];

	skip_space(r);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].text);

		if (!strncmp(r->s + r->pos, ops[i].text, n)) {
			r->pos += n;
			*op = ops[i].op;
			return 0;
		}
	}
	return fail(r, -EINVAL,
		    "expected an operator after '%s', found %s (==, !=, >, >=, <, <=, &)", t->name,
		    where(r, w, sizeof(w)));
}

/* The symbolic values of t, "l1, l2, ..." */
static void sym_list(const struct term *t, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct sym *s = t->syms; s && s->name && n < len; s++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", s->name);
}

static int read_number(struct reader *r, uint64_t *v)
{
	const char *p = r->s + r->pos;
	int base = 10;
	size_t i = 0;
	uint64_t n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && hex__digit(p[2]) >= 0) {
		base = 16;
		i = 2;
	}
	for (;; i++) {
		int d = base == 16		   ? hex__digit(p[i]) :
			p[i] >= '0' && p[i] <= '9' ? p[i] - '0' :
						     -1;

		if (d < 0)
			break;
		if (n > (UINT64_MAX - (unsigned)d) / (uint64_t)base)
			return fail(
				r, -EINVAL,
				"the number at offset %zu does not fit in 64 bits (the largest is 0xffffffffffffffff)",
				r->pos);
		n = n * (uint64_t)base + (unsigned)d;
	}
	if (is_ident(p[i], false)) {
		size_t bad = i + (size_t)token_len(p + i);

		return fail(
			r, -EINVAL,
			"'%.*s' at offset %zu is not a number (decimal digits, or 0x and hex digits)",
			(int)(bad > 32 ? 32 : bad), p, r->pos);
	}
	r->pos += i;
	*v = n;
	return 0;
}

static int read_value(struct reader *r, const struct term *t, uint64_t *v)
{
	const char *p;
	char w[64], syms[160];
	size_t n = 0;

	skip_space(r);
	p = r->s + r->pos;
	if (*p >= '0' && *p <= '9')
		return read_number(r, v);
	sym_list(t, syms, sizeof(syms));
	while (is_ident(p[n], n == 0))
		n++;
	for (const struct sym *s = t->syms; n && s && s->name; s++) {
		if (strlen(s->name) == n && !memcmp(s->name, p, n)) {
			r->pos += n;
			*v = s->value;
			return 0;
		}
	}
	if (n)
		return fail(r, -EINVAL, "%s is not a value of '%s' (a number%s%s)",
			    where(r, w, sizeof(w)), t->name, syms[0] ? ", or one of " : "", syms);
	return fail(r, -EINVAL, "expected a value for '%s', found %s (a number%s%s)", t->name,
		    where(r, w, sizeof(w)), syms[0] ? ", or one of " : "", syms);
}

/*
 * A cgroup's path: perf's lexer takes every byte up to a space, tab or
 * newline, ',' and ')' included, so the same strings name the same cgroups.
 */
static int read_path(struct reader *r, const struct term *t, uint32_t op, size_t *path_at,
		     size_t *path_len)
{
	size_t n = 0;
	char w[64];

	if (op != SF_OP_EQ && op != SF_OP_NE)
		return fail(
			r, -EINVAL,
			"'%s' takes == or != only, at offset %zu (write '%s == /PATH' or '%s != /PATH')",
			t->name, r->pos, t->name, t->name);
	skip_space(r);
	while (r->s[r->pos + n] && r->s[r->pos + n] != ' ' && r->s[r->pos + n] != '\t' &&
	       r->s[r->pos + n] != '\n')
		n++;
	if (!n)
		return fail(
			r, -EINVAL,
			"expected a cgroup path for '%s', found %s (a path under the cgroup2 mount, e.g. '%s == /system.slice')",
			t->name, where(r, w, sizeof(w)), t->name);
	*path_at = r->pos;
	*path_len = n;
	r->pos += n;
	return 0;
}

/* NAME OP VALUE */
static int read_term(struct reader *r)
{
	struct sample_filter_entry e = { 0 };
	const struct term *t;
	uint64_t value = 0;
	size_t at, n = 0, path_at = 0, path_len = 0;
	char w[64];
	int ret;

	skip_space(r);
	at = r->pos;
	while (is_ident(r->s[at + n], n == 0))
		n++;
	t = n ? find_term(r->s + at, n) : NULL;
	if (!t)
		return fail(r, -EINVAL, "%s %s (terms: " TERM_NAMES ")",
			    n ? "unknown term" : "expected a term, found", where(r, w, sizeof(w)));
	r->pos += n;
	ret = read_op(r, t, &e.op);
	if (!ret && t->path)
		ret = read_path(r, t, e.op, &path_at, &path_len);
	else if (!ret)
		ret = read_value(r, t, &value);
	if (ret)
		return ret;
	e.value = value;
	e.sample = t->sample;
	e.part = t->part;
	e.helper = t->helper;
	ret = add(r, e, at, r->pos);
	if (!ret) {
		r->f->path_at[r->f->nr - 1] = path_at;
		r->f->path_len[r->f->nr - 1] = path_len;
	}
	return ret;
}

static bool next_is(struct reader *r, const char *tok)
{
	skip_space(r);
	if (strncmp(r->s + r->pos, tok, strlen(tok)))
		return false;
	r->pos += strlen(tok);
	return true;
}

/* term ('||' term)*, or the same in parentheses: one entry, or a group. */
static int read_group(struct reader *r)
{
	struct sample_filter_entry begin = { .op = SF_OP_GROUP_BEGIN };
	struct sample_filter_entry end = { .op = SF_OP_GROUP_END };
	int first = r->f->nr, ret;
	bool paren;
	size_t at;
	char w[64];

	skip_space(r);
	at = r->pos;
	paren = next_is(r, "(");
	ret = read_term(r);
	while (!ret && next_is(r, "||")) {
		if (r->f->nr - first == 1) {
			/* A second term: the first one was a group's. */
			ret = add(r, begin, at, at);
			if (ret)
				return ret;
			memmove(&r->f->v[first + 1], &r->f->v[first], sizeof(r->f->v[0]));
			memmove(&r->f->at[first + 1], &r->f->at[first], sizeof(r->f->at[0]));
			memmove(&r->f->len[first + 1], &r->f->len[first], sizeof(r->f->len[0]));
			memmove(&r->f->path_at[first + 1], &r->f->path_at[first],
				sizeof(r->f->path_at[0]));
			memmove(&r->f->path_len[first + 1], &r->f->path_len[first],
				sizeof(r->f->path_len[0]));
			r->f->v[first] = begin;
			r->f->path_len[first] = 0;
		}
		ret = read_term(r);
	}
	if (ret)
		return ret;
	if (paren && !next_is(r, ")"))
		return fail(
			r, -EINVAL,
			"expected ')' to close the group at offset %zu, found %s (a group holds terms joined by '||')",
			at, where(r, w, sizeof(w)));
	if (r->f->nr - first > 1) {
		r->f->at[first] = (uint16_t)(at > UINT16_MAX ? UINT16_MAX : at);
		r->f->len[first] = (uint16_t)(r->pos - at > UINT16_MAX ? UINT16_MAX : r->pos - at);
		ret = add(r, end, at, r->pos);
	}
	return ret;
}

int filter_terms__parse(const char *str, struct filter_terms *f, struct prec_err *e)
{
	struct reader r = { .s = str, .f = f, .e = e };
	char w[64];
	int ret;

	memset(f, 0, sizeof(*f));
	skip_space(&r);
	if (!str[r.pos])
		return fail(
			&r, -EINVAL,
			"the filter is empty (write terms such as 'ip < 0xffffffff00000000', joined by ',' or '||')");
	do {
		ret = read_group(&r);
	} while (!ret && next_is(&r, ","));
	if (ret)
		return ret;
	if (str[r.pos])
		return fail(&r, -EINVAL, "unexpected %s (terms are joined by ',' or '||')",
			    where(&r, w, sizeof(w)));
	if (f->nr < SAMPLE_FILTER_MAX)
		f->v[f->nr].op = SF_OP_DONE;
	return 0;
}
