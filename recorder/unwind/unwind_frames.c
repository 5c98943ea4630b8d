// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record-time DWARF unwinding (unwind_int.h), the libunwind side: its remote
 * API with accessors over one sample at a time. Registers come from the
 * sample's REGS_USER, memory from its stack copy or, for the unwind tables,
 * from the mapped ELF files (unwind_elf.c) found through the build-id
 * tracker's maps. Address spaces are made once per process slot and keep
 * libunwind's cache of unwind rules; nothing is allocated per sample.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <libunwind.h>

#include "dsos/dso_track.h"
#include "unwind/unwind_int.h"

/* libunwind exports it but has no prototype for it in its headers. */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
					      unw_dyn_info_t *di, unw_proc_info_t *pi,
					      int need_unwind_info, void *arg);
#define dwarf_search_unwind_table UNW_OBJ(dwarf_search_unwind_table)

#ifdef __x86_64__
/* libunwind's x86-64 register numbers -> perf's (asm/perf_regs.h). */
static const int8_t unw_to_perf[UNW_X86_64_RIP + 1] = {
	[UNW_X86_64_RAX] = 0,  [UNW_X86_64_RDX] = 3,  [UNW_X86_64_RCX] = 2,  [UNW_X86_64_RBX] = 1,
	[UNW_X86_64_RSI] = 4,  [UNW_X86_64_RDI] = 5,  [UNW_X86_64_RBP] = 6,  [UNW_X86_64_RSP] = 7,
	[UNW_X86_64_R8] = 16,  [UNW_X86_64_R9] = 17,  [UNW_X86_64_R10] = 18, [UNW_X86_64_R11] = 19,
	[UNW_X86_64_R12] = 20, [UNW_X86_64_R13] = 21, [UNW_X86_64_R14] = 22, [UNW_X86_64_R15] = 23,
	[UNW_X86_64_RIP] = 8,
};
#define NR_UNW_REGS (UNW_X86_64_RIP + 1)
#define PERF_REG_IP 8
#define PERF_REG_SP 7
#endif

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int unwind_event_regs(struct uw_event *ev, uint64_t mask)
{
	memset(ev->reg_pos, -1, sizeof(ev->reg_pos));
#ifdef __x86_64__
	if (!(mask & (1ULL << PERF_REG_IP)) || !(mask & (1ULL << PERF_REG_SP)))
		return -EINVAL;
	ev->nr_regs = __builtin_popcountll(mask);
	for (int r = 0; r < NR_UNW_REGS; r++) {
		int bit = unw_to_perf[r];

		if (mask & (1ULL << bit))
			ev->reg_pos[r] = (int8_t)__builtin_popcountll(mask & ((1ULL << bit) - 1));
	}
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

/* ---- libunwind's accessors ---- */

static int uw_find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
			     int need_unwind_info, void *arg)
{
	struct unwinder *u = arg;
	struct uw_cur *c = &u->cur;
	struct dso_track_map m;
	const struct uelf *e;
	unw_dyn_info_t di;
	uint64_t vaddr;

	if (!u->track || dso_track__find_map(u->track, c->pid, ip, &m)) {
		c->why = WHY_NO_MAP;
		return -UNW_ENOINFO;
	}
	e = uelf_cache__get(&u->elfs, m.name);
	if (!e || !e->has_table || uelf__off_to_vaddr(e, m.pgoff, &vaddr)) {
		c->why = WHY_NO_TABLE;
		return -UNW_ENOINFO;
	}
	c->elf = e;
	c->bias = m.start - vaddr;
	memset(&di, 0, sizeof(di));
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = e->text_lo + c->bias;
	di.end_ip = e->text_hi + c->bias;
	di.u.rti.segbase = e->hdr_vaddr + c->bias;
	di.u.rti.table_data = e->table_vaddr + c->bias;
	/* In words; each entry is two 4-byte offsets. */
	di.u.rti.table_len = e->fde_count * 8 / sizeof(unw_word_t);
	return dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
}

static void uw_put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
	/* libunwind frees the table-format info it made itself. */
}

static int uw_get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *dilap, void *arg)
{
	return -UNW_ENOINFO; /* no dynamically registered (JIT) unwind info */
}

static int uw_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp, int write,
			 void *arg)
{
	struct unwinder *u = arg;
	struct uw_cur *c = &u->cur;
	struct dso_track_map m;
	const struct uelf *e;

	if (write || ++c->reads > UNWIND_MAX_READS)
		return -UNW_EINVAL;
	/* The stack copy: most reads of a step (saved registers, the CFA). */
	if (addr >= c->sp && c->stack_len >= 8 && addr - c->sp <= c->stack_len - 8) {
		memcpy(valp, c->stack + (addr - c->sp), sizeof(*valp));
		return 0;
	}
	/* The unwind tables of the file being looked at. */
	if (c->elf && !uelf__read_vaddr(c->elf, addr - c->bias, valp))
		return 0;
	if (u->track && !dso_track__find_map(u->track, c->pid, addr, &m) &&
	    (e = uelf_cache__get(&u->elfs, m.name)) &&
	    !uelf__read_off(e, addr - m.start + m.pgoff, valp))
		return 0;
	/* Above the stack pointer but past the copy: the copy was too short. */
	if (addr >= c->sp && addr - c->sp < (1u << 20))
		c->why = WHY_SHORT_STACK;
	*valp = 0;
	return -UNW_EINVAL;
}

static int uw_access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *valp, int write,
			 void *arg)
{
	struct unwinder *u = arg;
	const struct uw_cur *c = &u->cur;

	if (write)
		return -UNW_EREADONLYREG;
	if (reg < 0 || reg >= 32 || c->ev->reg_pos[reg] < 0)
		return -UNW_EBADREG;
	*valp = rd64(c->regs + 8 * c->ev->reg_pos[reg]);
	return 0;
}

static int uw_access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *val, int write,
			   void *arg)
{
	return -UNW_EINVAL; /* perf samples no FP registers */
}

static int uw_resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	return -UNW_EINVAL;
}

static int uw_get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf, size_t len,
			    unw_word_t *offp, void *arg)
{
	return -UNW_EINVAL; /* perf report names the frames */
}

static unw_accessors_t uw_accessors = {
	.find_proc_info = uw_find_proc_info,
	.put_unwind_info = uw_put_unwind_info,
	.get_dyn_info_list_addr = uw_get_dyn_info_list_addr,
	.access_mem = uw_access_mem,
	.access_reg = uw_access_reg,
	.access_fpreg = uw_access_fpreg,
	.resume = uw_resume,
	.get_proc_name = uw_get_proc_name,
};

static uint32_t slot_of(uint32_t pid)
{
	return (uint32_t)(((uint64_t)pid * 0x9e3779b97f4a7c15ULL) >> 32) & (AS_SLOTS - 1);
}

static unw_addr_space_t as_for(struct unwinder *u, uint32_t pid)
{
	struct as_slot *s = &u->slots[slot_of(pid)];

	if (!s->as) {
		s->as = unw_create_addr_space(&uw_accessors, 0);
		if (!s->as)
			return NULL;
		unw_set_caching_policy(s->as, UNW_CACHE_GLOBAL);
	} else if (s->pid != pid) {
		unw_flush_cache(s->as, 0, 0);
	}
	s->pid = pid;
	return s->as;
}

void unwind_spaces_exec(struct unwinder *u, uint32_t pid)
{
	struct as_slot *s = &u->slots[slot_of(pid)];

	if (s->as && s->pid == pid)
		unw_flush_cache(s->as, 0, 0);
}

int unwind_frames(struct unwinder *u, const struct uw_event *ev, uint32_t pid, const uint8_t *regs,
		  const uint8_t *stack, uint64_t stack_len, int max, bool *partial)
{
	struct uw_cur *c = &u->cur;
	unw_addr_space_t as;
	unw_cursor_t cursor;
	int n = 1, ret;

	*partial = false;
	if (max < 1)
		return 0;
	c->ev = ev;
	c->pid = pid;
	c->regs = regs;
	c->stack = stack;
	c->stack_len = stack_len;
	c->sp = rd64(regs + 8 * ev->reg_pos[UNW_REG_SP]);
	c->elf = NULL;
	c->why = WHY_NONE;
	c->reads = 0;
	u->ips[0] = rd64(regs + 8 * ev->reg_pos[UNW_REG_IP]);
	if (max == 1)
		return 1;
	as = as_for(u, pid);
	ret = as ? unw_init_remote(&cursor, as, u) : -UNW_ENOMEM;
	while (!ret && n < max) {
		unw_word_t ip;

		ret = unw_step(&cursor);
		if (ret <= 0)
			break;
		ret = unw_get_reg(&cursor, UNW_REG_IP, &ip);
		if (ret || !ip)
			break;
		/* A caller's frame is at its call, one byte before the return
		 * address, unless a signal interrupted it (perf does the same). */
		if (unw_is_signal_frame(&cursor) <= 0)
			ip--;
		u->ips[n++] = ip;
		ret = 0;
	}
	if (ret < 0) {
		*partial = true;
		switch (c->why) {
		case WHY_NO_MAP:
			u->st.no_map++;
			break;
		case WHY_NO_TABLE:
			u->st.no_table++;
			break;
		case WHY_SHORT_STACK:
			u->st.short_stack++;
			break;
		default:
			u->st.other++;
			break;
		}
	}
	return n;
}

void unwind_spaces_exit(struct unwinder *u)
{
	for (int i = 0; i < AS_SLOTS; i++) {
		if (u->slots[i].as)
			unw_destroy_addr_space(u->slots[i].as);
		u->slots[i].as = NULL;
	}
}
