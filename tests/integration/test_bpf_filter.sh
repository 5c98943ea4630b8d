#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# BPF sample filters (--filter after an event that is not a tracepoint), the
# cases of perf's record_bpf_filter.sh and more, judged by stock perf 6.1:
#  - an ip filter leaves no kernel address where an unfiltered run has some,
#    and its drops are a LOST_SAMPLES record perf report --stats counts;
#  - a term whose field the event does not sample is refused in one line
#    naming the PERF_SAMPLE bit and the option, 1..125, no file; with the
#    option it records;
#  - '||' keeps a sample one term of the group passes, ',' needs all;
#  - two events with a filter each; a period filter with -c and --period;
#    uid from the BPF helper;
#  - cgroup (perf 6.12): refused without --all-cgroups and for a cgroup that
#    is not there; == keeps only the samples taken in the cgroup, != drops
#    them (perf report --sort cgroup);
#  - as nobody the filter is refused in one line, 1..125, no file.
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1
need_root "loading BPF programs needs CAP_BPF and CAP_PERFMON"

# A prec built without its BPF programs, a kernel without BTF or one too old
# for the program (Linux 6.2) cannot do any of this: skip, saying which.
run_prec -e task-clock --filter 'period > 1' -o "$TMP/probe.data" -- true
if ((PREC_RC != 0)); then
	grep -q 'built with its BPF programs\|BTF type information\|lacks what the program needs' \
		"$PREC_ERR" && skip "$(head -n 1 "$PREC_ERR")"
	fail "--filter 'period > 1' -- true exited $PREC_RC: $(head -n 3 "$PREC_ERR")"
fi

# Time in the kernel: /dev/zero's reads clear pages.
KWORK=(dd if=/dev/zero of=/dev/null bs=1M count=3000)

# kernel_ips DATA: how many samples of DATA have a kernel address.
kernel_ips()
{
	"$PERF" script -i "$1" -F ip 2>/dev/null | grep -c 'ffffffff[0-9a-f]*'
}

# nr_samples DATA [EVENT]: the samples perf script reads (of EVENT).
nr_samples()
{
	"$PERF" script -i "$1" -F event 2>/dev/null | grep -c "${2:-.}"
}

# lost_samples DATA: the LOST_SAMPLES records perf report --stats counts.
lost_samples()
{
	"$PERF" report --stats -i "$1" 2>/dev/null |
		awk '/LOST_SAMPLES events:/ { n = $3 } END { print n + 0 }'
}

# refused WHAT PATTERN OUT: the last run failed in 1..125 with one line
# holding PATTERN, and left no OUT.
refused()
{
	local what=$1 pat=$2 out=$3
	((LAST_RC >= 1 && LAST_RC <= 125)) || fail "$what: exit $LAST_RC, expected 1..125"
	(($(wc -l <"$LAST_ERR") == 1)) || fail "$what: not one line: $(cat "$LAST_ERR")"
	grep -q -- "$pat" "$LAST_ERR" || fail "$what: '$(cat "$LAST_ERR")' does not name $pat"
	[[ ! -e $out ]] || fail "$what: left $out behind"
}

# 1. Basic: user addresses only. The same run unfiltered has kernel ones.
prec_record_ok -q -e task-clock -c 10000 -o "$TMP/all.data" -- "${KWORK[@]}"
all=$(kernel_ips "$TMP/all.data")
((all > 0)) || skip "no kernel samples without a filter: nothing to filter"
prec_record_ok -e task-clock -c 10000 --filter 'ip < 0xffffffff00000000' \
	-o "$TMP/user.data" -- "${KWORK[@]}"
(($(kernel_ips "$TMP/user.data") == 0)) ||
	fail "ip < 0xffffffff00000000 left kernel samples: $("$PERF" script -i "$TMP/user.data" -F ip | grep -m 3 ffffffff)"
(($(nr_samples "$TMP/user.data") > 0)) || fail "ip < 0xffffffff00000000 left no sample at all"
# The drops: a LOST_SAMPLES record perf counts, and the summary says them.
(($(lost_samples "$TMP/user.data") > 0)) ||
	fail "no LOST_SAMPLES for the dropped samples: $("$PERF" report --stats -i "$TMP/user.data" 2>&1 | grep -i lost)"
grep -q 'samples dropped by --filter' "$PREC_ERR" "$PREC_OUT" ||
	fail "the summary does not tell the dropped samples: $(cat "$PREC_ERR")"
# No drop, no record: a filter every sample passes.
# (perf 6.1 warns of the lost samples where there are some: it does not
# know perf 6.4's BPF bit.)
prec_record_ok -q -e task-clock -c 10000 --filter 'ip > 0' -o "$TMP/none.data" -- "${KWORK[@]}"
require_valid "$TMP/none.data"
(($(lost_samples "$TMP/none.data") == 0)) || fail "a filter that dropped nothing wrote LOST_SAMPLES"
(($(kernel_ips "$TMP/none.data") > 0)) || fail "'ip > 0' dropped the kernel samples"

# 2. A term without its sample bit: refused before anything runs.
run_prec -e task-clock --filter 'cpu > 0' -o "$TMP/cpu.data" -- true
refused "cpu without --sample-cpu" "'cpu > 0': event 'task-clock' does not sample PERF_SAMPLE_CPU: add --sample-cpu" \
	"$TMP/cpu.data"
prec_record_ok -q --sample-cpu -e task-clock --filter 'cpu > 0' -o "$TMP/cpu.data" -- true
run_prec -e task-clock -c 10000 --filter 'period > 1' -o "$TMP/period.data" -- true
refused "period with -c" "PERF_SAMPLE_PERIOD: add --period" "$TMP/period.data"
run_prec -e task-clock --filter 'phys_addr > 0' -o "$TMP/phys.data" -- true
refused "phys_addr" "PERF_SAMPLE_PHYS_ADDR: add --phys-data" "$TMP/phys.data"
# A filter that does not parse: a usage error, naming the token.
run_prec -e task-clock --filter 'ip << 5' -o "$TMP/bad.data" -- true
refused "a bad filter" "found '<' at offset 4" "$TMP/bad.data"
((PREC_RC == 2)) || fail "a bad filter exited $PREC_RC, expected 2 (usage)"

# 3. Groups: perf's cases, then what '||' and ',' keep.
prec_record_ok -q -e task-clock --filter 'period > 1000 || ip > 0' -o "$TMP/g.data" -- true
run_prec -e task-clock --filter 'cpu > 0 || ip > 0' -o "$TMP/g1.data" -- true
refused "cpu in a group" "PERF_SAMPLE_CPU" "$TMP/g1.data"
run_prec -e task-clock --filter 'period > 0 || code_pgsz > 4096' -o "$TMP/g2.data" -- true
refused "code_pgsz in a group" "'code_pgsz > 4096'.*PERF_SAMPLE_CODE_PAGE_SIZE: add --code-page-size" \
	"$TMP/g2.data"
prec_record_ok -q -e task-clock -c 10000 --filter 'ip >= 0xffffffff00000000 || ip < 0x1000' \
	-o "$TMP/or.data" -- "${KWORK[@]}"
n=$(nr_samples "$TMP/or.data")
((n > 0 && $(kernel_ips "$TMP/or.data") == n)) ||
	fail "'ip >= 0xffffffff00000000 || ip < 0x1000' kept $n samples, $(kernel_ips "$TMP/or.data") in the kernel"
prec_record_ok -q -e task-clock -c 10000 --filter '(ip >= 0xffffffff00000000 || ip < 0x1000), ip < 0x1000' \
	-o "$TMP/and.data" -- "${KWORK[@]}"
(($(nr_samples "$TMP/and.data") == 0)) || fail "a filter nothing passes kept samples"
(($(lost_samples "$TMP/and.data") > 0)) || fail "a filter nothing passes wrote no LOST_SAMPLES"

# 4. Two events, a filter each (perf's multi case).
prec_record_ok -q -e task-clock --filter 'period > 100000' \
	-e page-faults --filter 'ip < 0xffffffff00000000' -o "$TMP/multi.data" -- "${KWORK[@]}"
"$PERF" script -i "$TMP/multi.data" -F period,event 2>/dev/null | grep task-clock |
	awk '{ if (int($1) <= 100000) { print $0; exit(1); } }' >"$TMP/multi.bad" ||
	fail "task-clock kept a period <= 100000: $(cat "$TMP/multi.bad")"
(($(nr_samples "$TMP/multi.data" task-clock) > 0)) || fail "no task-clock samples kept"
# (grep -c, not -q: an early exit would break the pipe under pipefail)
if (($("$PERF" script -i "$TMP/multi.data" -F event,ip 2>/dev/null | grep page-fault |
	grep -c 'ffffffff[0-9a-f]*') > 0)); then
	fail "page-faults kept a kernel address"
fi

# 5. period with -c: a fixed period either passes or not, every sample.
prec_record_ok -q -e task-clock -c 30000 --period --filter 'period > 20000' \
	-o "$TMP/p1.data" -- "${KWORK[@]}"
(($(nr_samples "$TMP/p1.data") > 0 && $(lost_samples "$TMP/p1.data") == 0)) ||
	fail "-c 30000, period > 20000: $(nr_samples "$TMP/p1.data") samples, $(lost_samples "$TMP/p1.data") lost"
prec_record_ok -q -e task-clock -c 10000 --period --filter 'period > 20000' \
	-o "$TMP/p2.data" -- "${KWORK[@]}"
(($(nr_samples "$TMP/p2.data") == 0 && $(lost_samples "$TMP/p2.data") > 0)) ||
	fail "-c 10000, period > 20000: $(nr_samples "$TMP/p2.data") samples, $(lost_samples "$TMP/p2.data") lost"

# 6. uid, from the BPF helper: root's command passes uid == 0, not uid == 4242.
prec_record_ok -q -e task-clock -c 10000 --filter 'uid == 0' -o "$TMP/u0.data" -- "${KWORK[@]}"
(($(nr_samples "$TMP/u0.data") > 0)) || fail "uid == 0 dropped root's samples"
prec_record_ok -q -e task-clock -c 10000 --filter 'uid == 4242' -o "$TMP/u1.data" -- "${KWORK[@]}"
(($(nr_samples "$TMP/u1.data") == 0)) || fail "uid == 4242 kept root's samples"

# 8. cgroup: the id of a path under the cgroup2 mount, read from each sample.
run_prec -e task-clock --filter 'cgroup == /' -o "$TMP/cg.data" -- true
refused "cgroup without --all-cgroups" "'cgroup == /': event 'task-clock' does not sample PERF_SAMPLE_CGROUP: add --all-cgroups" \
	"$TMP/cg.data"
run_prec --all-cgroups -e task-clock --filter 'cgroup == /prec-no-such-cgroup' -o "$TMP/cg.data" -- true
refused "a cgroup that is not there" "cannot open cgroup .*prec-no-such-cgroup: No such file or directory (give a path under the cgroup2 mount" \
	"$TMP/cg.data"
CGROOT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
CG=prec-bpf-filter-$$
if [[ -n $CGROOT ]] && mkdir "$CGROOT/$CG" 2>/dev/null; then
	# The cgroup goes with the temp dir, whatever the exit.
	cg_cleanup()
	{
		local rc=$?
		rmdir "$CGROOT/$CG" 2>/dev/null
		(exit "$rc")
		_cleanup
	}
	trap cg_cleanup EXIT
	# cg_percent DATA: the share of DATA's samples perf reports in the cgroup.
	cg_percent()
	{
		"$PERF" report -i "$1" --sort cgroup --stdio 2>/dev/null |
			awk -v cg="/$CG" '$2 == cg { sub("%", "", $1); print int($1) }'
	}
	INCG=(sh -c "echo \$\$ >$CGROOT/$CG/cgroup.procs && exec ${KWORK[*]}")
	prec_record_ok -q --all-cgroups -e task-clock -c 10000 --filter "cgroup == /$CG" \
		-o "$TMP/cgin.data" -- "${INCG[@]}"
	(($(nr_samples "$TMP/cgin.data") > 0)) || fail "cgroup == /$CG kept no sample"
	[[ $(cg_percent "$TMP/cgin.data") == 100 ]] ||
		fail "cgroup == /$CG kept samples of other cgroups: $("$PERF" report -i "$TMP/cgin.data" --sort cgroup --stdio 2>&1 | grep %)"
	prec_record_ok -q --all-cgroups -e task-clock -c 10000 --filter "cgroup != $CG" \
		-o "$TMP/cgout.data" -- "${INCG[@]}"
	(($(lost_samples "$TMP/cgout.data") > 0)) || fail "cgroup != $CG dropped nothing"
	[[ -z $(cg_percent "$TMP/cgout.data") ]] ||
		fail "cgroup != $CG kept samples of $CG: $("$PERF" report -i "$TMP/cgout.data" --sort cgroup --stdio 2>&1 | grep %)"
fi

# 7. As nobody the program cannot load: one line, 1..125, no file.
if command -v setpriv >/dev/null; then
	chmod 755 "$TMP"
	mkdir -m 777 "$TMP/u"
	_run nobody setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PREC" -e task-clock:u --filter 'ip < 0x1000' -o "$TMP/u/x.data" -- true
	refused "as nobody" 'CAP_BPF' "$TMP/u/x.data"
fi
pass
