#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Keeping names is never worse than perf record (issue 37): each row records
# the same command with stock perf record and with prec, and judges both
# files with stock perf (perf script: each sample in JIT code, named or not)
# while the perf maps are still in /tmp, as perf record's user reads them.
# prec must name at least what perf names:
#  1. ten 0.5 s JIT processes in a row (processes named), and ten 15 ms
#     ones (JIT samples named);
#  2. five 300 ms `node --perf-basic-prof -e` scripts (where node is);
#  3. a pid reused through clone3's set_tid (prec_pidreuse): the second
#     process's samples are named second::*, never first::*; the first's
#     first::*, never second::* (90 % of the second's named, half of the
#     first's; perf record, whose reader finds only the second's map,
#     names only the second);
#  4. a stale /tmp/perf-1.map, written before by another container sharing
#     /tmp, and a process that is pid 1 of its own pid namespace, JITting
#     without a map: none of its samples named after the stale map (perf
#     names none);
#  5. a map of 1.1 million lines whose live functions come last: they are
#     named, and the JIT ELF holds every line or prec said what it dropped
#     (or prec wrote no ELF, and perf report reads the map itself);
#  6. `ulimit -n 64` and 40 JIT processes at once: processes named;
#  7. the leader thread exits, and long after it the workers JIT new
#     functions, the only ones run in the last 30 % of the run: those
#     samples are named with them as well as perf record names them;
#  8. the map rewritten in place (truncated, then written again with new
#     names at the same addresses, as `jcmd PID Compiler.perfmap` does), at
#     the same length and longer: the samples of the run's last 30 % are
#     named with the new names;
#  9. --overwrite: the map deleted after the run, the JIT names are kept,
#     or prec said in a line that they are not.
# Every row is run and its verdict logged; the test fails listing the rows
# that failed. TRUST_ROWS="3 5" runs some rows only. The test runs in a
# /tmp of its own (a private mount namespace, /tmp bound to a directory of
# /var/tmp): the maps stay until perf reads them, whatever else runs on
# the machine (another test deleting the maps it finds in /tmp).
# shellcheck disable=SC2016 # awk conditions and sh -c scripts, in single quotes
# Each recording's limit (the slowest takes about 10 s).
export RUN_TIMEOUT=90
SELF=$(realpath "$0")
# shellcheck source=/dev/null # lib.sh, found at run time
source "${TEST_LIB:-$(dirname "$0")/lib.sh}" || exit 1

need_root "clone3 set_tid, another pid namespace's process, ulimit for prec and perf alike"
need_namespaces "a /tmp of its own"
need_tool unshare "install util-linux"
need_tool nm "install binutils"
FAKEJIT=$WORKLOAD_DIR/prec_fakejit
PIDREUSE=$WORKLOAD_DIR/prec_pidreuse
[[ -x $FAKEJIT && -x $PIDREUSE ]] || fail "prec_fakejit or prec_pidreuse not built"
"$FAKEJIT" --no-map 1 || skip "prec_fakejit cannot JIT here (x86_64 and aarch64 only)"

# The test once more, in its own /tmp; this run only waits for it.
if [[ -z ${TRUST_OWN_TMP:-} ]]; then
	own=$(mktemp -d /var/tmp/prec-trust-tmp.XXXXXX) || fail "mktemp /var/tmp"
	chmod 1777 "$own"
	export TRUST_OWN_TMP=$own
	in_private_mounts bash -c 'mount --bind "$0" /tmp && exec bash "$1"' "$own" "$SELF"
	rc=$?
	[[ -n ${KEEP_TMP:-} ]] || rm -rf "$own"
	exit "$rc"
fi

ROWS=${TRUST_ROWS:-1 2 3 4 5 6 7 8 9}
export HOME=$TMP/home
mkdir -p "$HOME"
# This run's functions: a prefix of its own, so its maps are told apart.
TAG=trust$$
failures=()

row_on()
{
	[[ " $ROWS " == *" $1 "* ]]
}

bad()
{
	log "row $1: FAILED: $2"
	failures+=("row $1: $2")
}

ok()
{
	log "row $1: ok: $2"
}

# The maps this test's processes left in /tmp (the JIT runtimes leave
# them, as node does): those of pids seen in its recordings, and those
# naming its own functions (TAG). Other programs' maps stay.
PIDS_SEEN=$TMP/pids.seen
: >"$PIDS_SEEN"
drop_maps()
{
	local m pid
	while read -r pid; do
		rm -f "/tmp/perf-$pid.map"
	done < <(sort -u "$PIDS_SEEN")
	for m in /tmp/perf-*.map; do
		[[ -f $m ]] || continue
		if head -c 4096 "$m" | grep -q "$TAG" || tail -c 4096 "$m" | grep -q "$TAG"; then
			rm -f "$m"
		fi
	done 2>/dev/null
	return 0
}
STALE=
on_exit()
{
	local rc=$?
	drop_maps
	[[ -n $STALE ]] && rm -f "$STALE"
	(exit "$rc")
	_cleanup
}
trap on_exit EXIT

# jit_samples DATA: one line per sample in JIT code, tab-separated:
# pid, comm, time, named (1/0), symbol. JIT code is what perf puts in an
# anonymous executable mapping's DSO (/tmp/perf-PID.map, [JIT] tid) or in
# a JIT ELF (jitted-PID.so), or a user address in no DSO at all.
jit_samples()
{
	"$PERF" script -F comm,pid,time,ip,sym,dso -i "$1" 2>/dev/null |
		awk '
		match($0, / [0-9]+ +[0-9]+\.[0-9]+: +[0-9a-f]+ /) {
			comm = substr($0, 1, RSTART - 1)
			gsub(/^ +| +$/, "", comm)
			gsub(/ /, "_", comm)
			split(substr($0, RSTART, RLENGTH), f, " ")
			rest = substr($0, RSTART + RLENGTH)
			if (!match(rest, / \([^()]*\)$/))
				next
			dso = substr(rest, RSTART + 2, RLENGTH - 3)
			sym = substr(rest, 1, RSTART - 1)
			user = length(f[3]) < 16 || f[3] ~ /^0*[0-7]/
			if (!(dso ~ /jitted-[0-9]+(-[0-9]+)?\.so$/ || dso ~ /perf-[0-9]+\.map$/ || dso ~ /^\[JIT\]/ ||
			      dso ~ /\/\/anon/ || (dso == "[unknown]" && user)))
				next
			named = !(sym == "[unknown]" || sym ~ /^(0x)?[0-9a-f]+$/ || sym == "")
			sub(/:$/, "", f[2])
			printf "%s\t%s\t%s\t%d\t%s\n", f[1], comm, f[2], named, sym
		}'
}

# samples DATA: jit_samples into DATA.jit, its pids remembered.
samples()
{
	jit_samples "$1" >"$1.jit"
	cut -f1 "$1.jit" | sort -u >>"$PIDS_SEEN"
}

# share JITFILE [AWK-CONDITION]: "named total ratio" of the JIT samples
# (those meeting the condition on $1 pid, $2 comm, $3 time, $4 named,
# $5 symbol).
share()
{
	awk -F '\t' "${2:-1}"' { t++; n += $4 } END { printf "%d %d %.3f\n", n, t, t ? n / t : 0 }' "$1"
}

# procs_named JITFILE MIN: "named total" processes, of those with at least
# MIN JIT samples; named: at least half of its JIT samples named.
procs_named()
{
	awk -F '\t' -v min="$2" '{ t[$1]++; n[$1] += $4 }
		END { for (p in t) if (t[p] >= min) { all++; if (n[p] * 2 >= t[p]) named++ }
			printf "%d %d\n", named, all }' "$1"
}

# ge A B [TOL]: A >= B - TOL.
ge()
{
	awk -v a="$1" -v b="$2" -v t="${3:-0}" 'BEGIN { exit !(a + 0 >= b - t) }'
}

# both ROW TAG CMD...: the command recorded by perf record (TAG-perf.data)
# and by prec (TAG-prec.data), each with the options in REC_OPTS too, each
# file's JIT samples in .jit beside it. A recorder that fails is the row's
# failure (1).
REC_OPTS=()
both()
{
	local row=$1 tag=$2
	shift 2
	run_perf record -e cpu-clock "${REC_OPTS[@]}" -o "$tag-perf.data" -- "$@"
	if ((PERF_RC != 0)); then
		bad "$row" "perf record exited $PERF_RC: $(tail -n 2 "$PERF_ERR")"
		return 1
	fi
	samples "$tag-perf.data"
	run_prec record -e cpu-clock "${REC_OPTS[@]}" -o "$tag-prec.data" -- "$@"
	cp "$PREC_ERR" "$tag-prec.err"
	if ((PREC_RC != 0)); then
		bad "$row" "prec exited $PREC_RC: $(tail -n 2 "$PREC_ERR")"
		return 1
	fi
	samples "$tag-prec.data"
	return 0
}

# compare_share ROW WHAT TAG [TOL]: prec names at least perf's share of the
# JIT samples (less TOL, default 0.05: two runs sample differently).
compare_share()
{
	local row=$1 what=$2 tag=$3 tol=${4:-0.05} p q
	read -r -a q < <(share "$tag-perf.data.jit")
	read -r -a p < <(share "$tag-prec.data.jit")
	if ((q[1] == 0)); then
		bad "$row" "$what: perf record has no JIT sample (the control)"
	elif ge "${p[2]}" "${q[2]}" "$tol"; then
		ok "$row" "$what: prec names ${p[0]} of ${p[1]} JIT samples (${p[2]}), perf record ${q[0]} of ${q[1]} (${q[2]})"
	else
		bad "$row" "$what: prec names ${p[0]} of ${p[1]} JIT samples (${p[2]}), perf record ${q[0]} of ${q[1]} (${q[2]})"
	fi
}

# compare_procs ROW WHAT TAG MIN: prec names at least as many processes.
compare_procs()
{
	local row=$1 what=$2 tag=$3 p q
	read -r -a q < <(procs_named "$tag-perf.data.jit" "$4")
	read -r -a p < <(procs_named "$tag-prec.data.jit" "$4")
	if ((q[0] == 0)); then
		bad "$row" "$what: perf record names no process (the control)"
	elif ((p[0] >= q[0])); then
		ok "$row" "$what: prec names ${p[0]} of ${p[1]} processes, perf record ${q[0]} of ${q[1]}"
	else
		bad "$row" "$what: prec names ${p[0]} of ${p[1]} processes, perf record ${q[0]} of ${q[1]}"
	fi
}

# ---- 1. short-lived JIT processes, one after the other ----
if row_on 1; then
	if both 1 seq sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do "$0" --prefix "$1" 500; done' \
			"$FAKEJIT" "$TAG"; then
		compare_procs 1 "ten 0.5 s processes" seq 20
	fi
	if both 1 short sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do "$0" --prefix "$1" 15; done' \
		"$FAKEJIT" "$TAG"; then
		compare_share 1 "ten 15 ms processes" short
	fi
fi

# ---- 2. node scripts of 300 ms ----
if row_on 2; then
	if command -v node >/dev/null; then
		js='function hotTrust(n){let s=0;for(let i=0;i<n;i++){s+=Math.sqrt(i)*Math.sin(i);}return s;}
let t=Date.now(),x=0;while(Date.now()-t<300){x+=hotTrust(20000);}if(x<0)console.log(x);'
		if both 2 node sh -c 'for i in 1 2 3 4 5; do node --perf-basic-prof -e "$0"; done' "$js"; then
			compare_share 2 "five 300 ms node scripts" node
		fi
	else
		log "row 2: node not installed, row left out"
	fi
fi

# ---- 3. a pid reused through clone3 set_tid ----
if row_on 3; then
	# perf record, for the log: it names the second process (its map is
	# the one left), not the first (its map was replaced).
	run_perf record -e cpu-clock -o reuse-perf.data -- "$PIDREUSE" 500
	if ((PERF_RC == 0)); then
		samples reuse-perf.data
		read -r -a q < <(share reuse-perf.data.jit '$2 == "jitfirst" && $5 ~ /^first::/')
		read -r -a qs < <(share reuse-perf.data.jit '$2 == "jitsecond" && $5 ~ /^second::/')
		log "row 3: perf record: ${q[1]} samples of the first process named first::*, ${qs[1]} of the second second::*"
	fi
	for _ in 1 2 3; do
		run_prec record -e cpu-clock -o reuse-prec.data -- "$PIDREUSE" 500
		((PREC_RC == 75)) || break # 75: another process took the pid; again
	done
	cp "$PREC_ERR" reuse-prec.err
	if ((PREC_RC == 77)); then
		log "row 3: clone3 set_tid refused here ($(tail -n 1 "$PREC_ERR")), row left out"
	elif ((PREC_RC != 0)); then
		bad 3 "prec $PIDREUSE exited $PREC_RC: $(tail -n 2 "$PREC_ERR")"
	else
		samples reuse-prec.data
		# comm jitfirst / jitsecond: named after the right process only.
		read -r -a f < <(share reuse-prec.data.jit '$2 == "jitfirst" && $5 ~ /^first::/')
		read -r -a fa < <(share reuse-prec.data.jit '$2 == "jitfirst"')
		read -r -a fw < <(share reuse-prec.data.jit '$2 == "jitfirst" && $5 ~ /^second::/')
		read -r -a s < <(share reuse-prec.data.jit '$2 == "jitsecond" && $5 ~ /^second::/')
		read -r -a sa < <(share reuse-prec.data.jit '$2 == "jitsecond"')
		read -r -a sw < <(share reuse-prec.data.jit '$2 == "jitsecond" && $5 ~ /^first::/')
		msg="first process: ${f[1]} of ${fa[1]} JIT samples named first::*, ${fw[1]} second::*; second: ${s[1]} of ${sa[1]} named second::*, ${sw[1]} first::*"
		if ((fa[1] < 20 || sa[1] < 20)); then
			bad 3 "too few JIT samples: $msg"
		elif ((fw[1] > 0 || sw[1] > 0)); then
			bad 3 "one process named after the other: $msg"
		elif ((s[1] * 10 < sa[1] * 9 || f[1] * 2 < fa[1])); then
			bad 3 "not named: $msg"
		else
			ok 3 "$msg"
		fi
	fi
fi

# ---- 4. a stale /tmp/perf-1.map ----
if row_on 4; then
	if [[ -e /tmp/perf-1.map ]]; then
		log "row 4: /tmp/perf-1.map exists on this machine, row left out"
	elif ! unshare -p -f true 2>/dev/null; then
		log "row 4: no pid namespace here (unshare -p failed), row left out"
	else
		STALE=/tmp/perf-1.map
		# Another container's map, written a minute before, naming the very
		# addresses this one's JIT uses.
		for i in 0 1 2 3; do
			printf '%x 7 stale::func_%03d\n' $((0x400000000000 + i * 0x100)) "$i"
		done >"$STALE"
		touch -d '-1 min' "$STALE"
		if both 4 stale unshare -p -f --kill-child "$FAKEJIT" --no-map --addr 400000000000 1000; then
			read -r -a p < <(share stale-prec.data.jit '$5 ~ /^stale::/')
			read -r -a pa < <(share stale-prec.data.jit)
			read -r -a q < <(share stale-perf.data.jit '$5 ~ /^stale::/')
			msg="prec names ${p[1]} of ${pa[1]} JIT samples after the stale map, perf record ${q[1]}"
			if ((pa[1] < 20)); then
				bad 4 "too few JIT samples: $msg"
			elif ((p[1] > q[1])); then
				bad 4 "$msg"
			else
				ok 4 "$msg"
			fi
		fi
		rm -f "$STALE"
		STALE=
	fi
fi

# ---- 5. a map of 1.1 million lines, the live functions last ----
if row_on 5; then
	lines=1100000
	if both 5 big "$FAKEJIT" --prefix "$TAG" --map-lines "$lines" --line-bytes 48 1500; then
		compare_share 5 "1.1 million lines" big
		elf=$(find "$HOME/.debug/jit" -name 'jitted-*.so' -newer big-perf.data -type f 2>/dev/null | head -n 1)
		nsyms=0
		[[ -n $elf ]] && nsyms=$(nm "$elf" 2>/dev/null | grep -c ' fill_\| LazyCompile:\|::func_')
		if [[ -z $elf ]]; then
			ok 5 "no JIT ELF: perf report reads the map itself"
		elif ((nsyms >= lines + 4)); then
			ok 5 "the JIT ELF holds all $nsyms symbols"
		elif grep -Eiq 'drop|dropped|newest|kept|symbols' big-prec.err; then
			ok 5 "the JIT ELF holds $nsyms symbols, and prec said so: $(grep -Ei 'drop|newest|kept|symbols' big-prec.err | head -n 1)"
		else
			bad 5 "the JIT ELF holds $nsyms of $((lines + 4)) symbols, and prec said nothing of it"
		fi
	fi
fi

# ---- 6. ulimit -n 64 and 40 JIT processes ----
if row_on 6; then
	many='i=0; while [ $i -lt 40 ]; do "$0" --prefix "$1" 1500 & i=$((i + 1)); done; wait'
	for rec in perf prec; do
		if [[ $rec == perf ]]; then
			_run perf bash -c 'ulimit -n 64 && exec "$@"' ulimit "$PERF" record -e cpu-clock \
				-o fds-perf.data -- sh -c "$many" "$FAKEJIT" "$TAG"
		else
			_run prec bash -c 'ulimit -n 64 && exec "$@"' ulimit "$PREC" record -e cpu-clock \
				-o fds-prec.data -- sh -c "$many" "$FAKEJIT" "$TAG"
			cp "$LAST_ERR" fds-prec.err
		fi
		if ((LAST_RC != 0)); then
			bad 6 "$rec under ulimit -n 64 exited $LAST_RC: $(tail -n 2 "$LAST_ERR")"
			continue
		fi
		samples "fds-$rec.data"
	done
	[[ -s fds-perf.data.jit && -s fds-prec.data.jit ]] && compare_procs 6 "40 processes, ulimit -n 64" fds 10
	grep -i warning fds-prec.err | head -n 3 | sed "s/^/$TEST_NAME: row 6: prec said: /" >&2
fi

# late_window JITFILE: the JIT samples of the last 30 % of their time span.
late_window()
{
	awk -F '\t' 'NR == FNR { if (!n++ || $3 < lo) lo = $3; if ($3 > hi) hi = $3; next }
		$3 >= lo + 0.7 * (hi - lo)' "$1" "$1"
}
# ---- 7. the leader exits, the workers go on JITting ----
if row_on 7; then
	# Small rings, drained every 100 ms or so as a busy recording's are: the
	# leader's exit is seen while the workers still run (with the default
	# rings a light recording like this one may be drained only at its end).
	REC_OPTS=(-m 8)
	if both 7 leader "$FAKEJIT" --prefix "$TAG" --threads 2 --leader-exit 2000; then
		compare_share 7 "after the leader's exit" leader
		# The run's last 30 %: only the late functions run then.
		late_window leader-prec.data.jit >leader-prec.late
		late_window leader-perf.data.jit >leader-perf.late
		read -r -a p < <(share leader-prec.late '$5 ~ /::late_/')
		read -r -a q < <(share leader-perf.late '$5 ~ /::late_/')
		read -r -a pa < <(share leader-prec.late)
		read -r -a qa < <(share leader-perf.late)
		msg="the last 30 % of the run, in the functions JITted after the leader's exit: prec names ${p[1]} of ${pa[1]} JIT samples, perf record ${q[1]} of ${qa[1]}"
		if ((qa[1] == 0 || q[1] == 0)); then
			bad 7 "perf record names none (the control): $msg"
		elif ((pa[1] > 0 && p[1] * qa[1] * 100 >= q[1] * pa[1] * 95)); then
			ok 7 "$msg"
		else
			bad 7 "$msg"
		fi
	fi
	REC_OPTS=()
fi

# ---- 8. the map rewritten in place ----
if row_on 8; then
	for how in rewrite rewrite-longer; do
		if both 8 "$how" "$FAKEJIT" --prefix "$TAG" --"$how" 2000; then
			late_window "$how-prec.data.jit" >"$how-prec.late"
			late_window "$how-perf.data.jit" >"$how-perf.late"
			new='$5 ~ /::(newf|rewritten_func)_/'
			read -r -a p < <(share "$how-prec.late" "$new")
			read -r -a po < <(share "$how-prec.late" '$5 ~ /::func_/')
			read -r -a pa < <(share "$how-prec.late")
			read -r -a q < <(share "$how-perf.late" "$new")
			read -r -a qa < <(share "$how-perf.late")
			msg="--$how: the last 30 % of the run: prec names ${p[1]} of ${pa[1]} JIT samples with the new names (${po[1]} with the old), perf record ${q[1]} of ${qa[1]}"
			if ((qa[1] == 0 || q[1] == 0)); then
				bad 8 "perf record names none with the new names (the control): $msg"
			elif ((po[1] == 0 && p[1] * qa[1] * 100 >= q[1] * pa[1] * 95)); then
				ok 8 "$msg"
			else
				bad 8 "$msg"
			fi
		fi
	done
fi

# ---- 9. --overwrite ----
if row_on 9; then
	run_prec record --overwrite -e cpu-clock -o ow.data -- "$FAKEJIT" --prefix "$TAG" 1500
	cp "$PREC_ERR" ow-prec.err
	if ((PREC_RC != 0)); then
		bad 9 "prec --overwrite exited $PREC_RC: $(tail -n 2 "$PREC_ERR")"
	else
		samples ow.data
		# The map gone, as after a container: what prec kept is all there is.
		drop_maps
		jit_samples ow.data >ow.gone
		read -r -a p < <(share ow.gone)
		if ((p[1] < 20)); then
			bad 9 "--overwrite: ${p[1]} JIT samples in the file"
		elif ge "${p[2]}" 0.9; then
			ok 9 "--overwrite: names kept, ${p[0]} of ${p[1]} JIT samples named with the map gone"
		elif grep -Eiq 'names' ow-prec.err; then
			ok 9 "--overwrite: ${p[0]} of ${p[1]} JIT samples named with the map gone, and prec said: $(grep -Ei 'names' ow-prec.err | head -n 1)"
		else
			bad 9 "--overwrite: ${p[0]} of ${p[1]} JIT samples named with the map gone, and prec said nothing of names"
		fi
	fi
fi

drop_maps
if ((${#failures[@]})); then
	fail "${#failures[@]} rows failed: $(printf '%s; ' "${failures[@]}")"
fi
pass "prec names at least what perf record names in every row ($ROWS)"
