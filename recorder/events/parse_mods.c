// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event modifiers (cycles:ukpp, {a,b}:S) with perf 6.1's rules
 * (parse-events.c get_event_modifier/check_modifier), and the modifier
 * suffix perf derives back from an attr (evsel__add_modifiers).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "events/parse_events_int.h"

static const char *const modifier_letters = "ukhpPGHSDIWeb";
#define MODS_ACCEPTED "accepted: u k h G H I p pp ppp P S D W e b"

struct modifiers {
	int eu, ek, eh, eH, eG, eI, precise, precise_max, sample_read, pinned, exclusive;
	int exclude_GH, weak, bpf;
};

/* perf's check_modifier and the lexer's modifier_event, with the reasons. */
int pe_mods__check(struct pe_state *st, const char *m, size_t len, size_t off, size_t ev_off)
{
	const char *ev = st->str + ev_off;
	int ev_len = (int)(off + len - ev_off);
	int p = 0;

	if (!len)
		return pe_error(st, off, MODS_ACCEPTED, "missing modifier after ':' in '%.*s'",
				ev_len, ev);
	for (size_t i = 0; i < len; i++)
		if (!strchr(modifier_letters, m[i]) || !m[i])
			return pe_error(st, off + i, MODS_ACCEPTED,
					"unknown modifier '%c' in '%.*s'", m[i], ev_len, ev);
	for (size_t i = 0; i < len; i++) {
		if (m[i] == 'p') {
			p++;
			continue;
		}
		if (memchr(m + i + 1, m[i], len - i - 1))
			return pe_error(st, off + i, "give each modifier once",
					"modifier '%c' repeated in '%.*s'", m[i], ev_len, ev);
	}
	if (p > 3)
		return pe_error(st, off, "at most ppp", "too many 'p' modifiers in '%.*s'", ev_len,
				ev);
	if (len > strlen("ukhGHpppPSDIWeb"))
		return pe_error(st, off, MODS_ACCEPTED, "too many modifiers in '%.*s'", ev_len, ev);
	return 0;
}

/* The letters that only turn their own flag on. */
static const struct {
	char letter;
	size_t field; /* offset of an int in struct modifiers */
} flag_mods[] = {
	{ 'I', offsetof(struct modifiers, eI) },
	{ 'P', offsetof(struct modifiers, precise_max) },
	{ 'S', offsetof(struct modifiers, sample_read) },
	{ 'D', offsetof(struct modifiers, pinned) },
	{ 'e', offsetof(struct modifiers, exclusive) },
	{ 'W', offsetof(struct modifiers, weak) },
	{ 'b', offsetof(struct modifiers, bpf) },
};

/* perf's get_event_modifier: from scratch (base NULL) or over a group member. */
static void mods__compute(const char *m, size_t len, const struct pe_event *base,
			  struct modifiers *o)
{
	const struct perf_event_attr *a = base ? &base->spec.attr : NULL;
	int exclude;

	memset(o, 0, sizeof(*o));
	if (a) {
		o->eu = a->exclude_user;
		o->ek = a->exclude_kernel;
		o->eh = a->exclude_hv;
		o->eH = a->exclude_host;
		o->eG = a->exclude_guest;
		o->eI = a->exclude_idle;
		o->precise = a->precise_ip;
		o->pinned = a->pinned;
		o->exclusive = a->exclusive;
		o->exclude_GH = base->exclude_GH;
	}
	exclude = o->eu | o->ek | o->eh;
	for (size_t i = 0; i < len; i++) {
		switch (m[i]) {
		case 'u':
		case 'k':
		case 'h':
			if (!exclude)
				exclude = o->eu = o->ek = o->eh = 1;
			if (m[i] == 'u') {
				if (!o->exclude_GH)
					o->eG = 1;
				o->eu = 0;
			} else if (m[i] == 'k') {
				o->ek = 0;
			} else {
				o->eh = 0;
			}
			break;
		case 'G':
		case 'H':
			if (!o->exclude_GH)
				o->exclude_GH = o->eG = o->eH = 1;
			if (m[i] == 'G')
				o->eG = 0;
			else
				o->eH = 0;
			break;
		case 'p':
			o->precise++;
			if (!o->exclude_GH)
				o->eG = 1;
			break;
		default:
			for (size_t f = 0; f < sizeof(flag_mods) / sizeof(flag_mods[0]); f++)
				if (flag_mods[f].letter == m[i])
					*(int *)((char *)o + flag_mods[f].field) = 1;
			break;
		}
	}
}

static void mods__apply(struct pe_event *ev, const struct modifiers *o, bool set_pinned)
{
	struct perf_event_attr *a = &ev->spec.attr;

	a->exclude_user = o->eu;
	a->exclude_kernel = o->ek;
	a->exclude_hv = o->eh;
	a->precise_ip = o->precise > 3 ? 3 : o->precise;
	a->exclude_host = o->eH;
	a->exclude_guest = o->eG;
	a->exclude_idle = o->eI;
	ev->exclude_GH = o->exclude_GH;
	ev->spec.exclude_GH = o->exclude_GH;
	ev->spec.sample_read = o->sample_read;
	ev->spec.precise_max = o->precise_max;
	ev->spec.weak_group = o->weak;
	ev->bpf_counter = o->bpf;
	if (set_pinned) {
		a->pinned = o->pinned;
		a->exclusive = o->exclusive;
	}
}

/*
 * Reads MODS at *p up to the event's end and applies them to the events
 * from first on: as the events' own (group false) or as the group's.
 */
int parse_mods(struct pe_state *st, size_t *p, int first, size_t ev_off, bool in_group, bool group)
{
	const char *m = st->str + *p;
	size_t len = 0;
	int ret;

	while (!is_delim(m[len], in_group))
		len++;
	ret = pe_mods__check(st, m, len, *p, ev_off);
	if (ret)
		return ret;
	for (int i = first; i < st->nr_ev; i++) {
		struct modifiers o;

		mods__compute(m, len, group ? &st->ev[i] : NULL, &o);
		mods__apply(&st->ev[i], &o, !group || st->ev[i].spec.leader == i);
	}
	*p += len;
	return 0;
}

bool pe_mods__all_letters(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(modifier_letters, s[i]) || !s[i])
			return false;
	return len > 0;
}

int event_name__from_attr(char *buf, size_t size, const char *base,
			  const struct perf_event_attr *attr)
{
	char mods[16];
	int n = 0;
	int guest_default = 0;

	/* Same letters and order as perf's evsel__add_modifiers(). */
	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			mods[n++] = 'k';
		if (!attr->exclude_user)
			mods[n++] = 'u';
		if (!attr->exclude_hv)
			mods[n++] = 'h';
		guest_default = 1;
	}
	for (unsigned i = 0; i < attr->precise_ip && i < 3; i++)
		mods[n++] = 'p';
	if (attr->precise_ip)
		guest_default = 1;
	if (attr->exclude_host || (int)attr->exclude_guest == guest_default) {
		if (!attr->exclude_host)
			mods[n++] = 'H';
		if (!attr->exclude_guest)
			mods[n++] = 'G';
	}
	mods[n] = '\0';
	return snprintf(buf, size, "%s%s%s", base, n ? ":" : "", mods);
}
