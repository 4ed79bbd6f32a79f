#!/bin/bash
# variant_sweep.sh: issue 12 point 1's claim that every `gamequiv mutate`
# variant grounds within 2x the time and size of its original. For every
# corpus game (smallest file first) whose original grounds in under
# SWEEP_MAX_CPU CPU seconds, grounds the variants of all transformations
# with seeds SWEEP_SEEDS and of each single transformation (`-ops OP`) with
# seed 1, and prints one line per grounding:
#
#   game variant nodes cpu_s rss_mib size_ratio cpu_ratio flag
#
# variant is "orig", "all.S" or the op's name; nodes is the circuit size or
# ERR (the first words of the error follow the flag); flag is "ok", "SIZE"
# (over 2x the original's nodes), "CPU" (over 2x the original's user+sys
# CPU and over SWEEP_MIN_CPU seconds, below which process start-up noise
# dominates), "FAIL" (no circuit) or "SKIP" (the original is over
# SWEEP_MAX_CPU or fails). `grep -v ' ok$'` lists the variants to look at;
# rerun those old and new alternately before believing a CPU flag.
#
# usage: scripts/variant_sweep.sh GQ DIR|GAME.kif... > sweep.txt
#   GQ   the gamequiv binary (go build -o /tmp/gq ./cmd/gamequiv)
# Environment: SWEEP_MAX_CPU (5), SWEEP_MIN_CPU (0.5), SWEEP_SEEDS
# ("1 2 3 4 5"), SWEEP_OPS (the single transformations; default the list of
# `gamequiv mutate -h`), SWEEP_CAP (wall cap of one grounding, s; 60),
# SWEEP_MEM_GIB (address-space cap, 6), SWEEP_SKIP (regular expression of
# game names to leave out). Variants go to $TMPDIR/variant_sweep.
set -u
GQ=$1
shift
maxcpu=${SWEEP_MAX_CPU:-5}
mincpu=${SWEEP_MIN_CPU:-0.5}
seeds=${SWEEP_SEEDS:-1 2 3 4 5}
ops=${SWEEP_OPS:-rename-symbols rename-vars reorder-rules reorder-body permute-args pair-args de-morgan split-or merge-or unfold fold tautology duplicate}
cap=${SWEEP_CAP:-60}
mem=${SWEEP_MEM_GIB:-6}
W=${TMPDIR:-/tmp}/variant_sweep
mkdir -p "$W"

# ground FILE: prints "nodes cpu rss" or "ERR cpu rss message".
ground() {
	/usr/bin/time -f "%U %S %M" -o "$W/time" prlimit --as=$((mem << 30)) \
		timeout $((cap + 5)) "$GQ" ground --json -lenient-unsafe -ground-timeout "${cap}s" "$1" >"$W/out" 2>"$W/err"
	read -r u s m < <(tail -1 "$W/time")
	local cpu
	cpu=$(echo "$u + $s" | bc)
	local n
	n=$(grep -o '"circuit_nodes":[0-9]*' "$W/out" | cut -d: -f2)
	if [ -z "$n" ]; then
		echo "ERR $cpu $((m / 1024)) $(head -c 160 "$W/err" | tr '\n' ' ')"
	else
		echo "$n $cpu $((m / 1024))"
	fi
}

find "$@" -name '*.kif' -printf '%s %p\n' | sort -n -k1,1 -k2 | while read -r _ f; do
	g=$(basename "$f" .kif)
	if [ -n "${SWEEP_SKIP:-}" ] && [[ $g =~ ${SWEEP_SKIP} ]]; then
		continue
	fi
	read -r on oc om orest < <(ground "$f")
	if [ "$on" = ERR ] || [ "$(echo "$oc > $maxcpu" | bc)" = 1 ]; then
		echo "$g orig $on $oc $om - - SKIP ${orest:-}"
		continue
	fi
	echo "$g orig $on $oc $om 1 1 ok"
	variants=()
	for s in $seeds; do variants+=("all.$s"); done
	for op in $ops; do variants+=("$op"); done
	for v in "${variants[@]}"; do
		vf="$W/$g.$v.kif"
		case $v in
		all.*) "$GQ" mutate -seed "${v#all.}" "$f" >"$vf" 2>/dev/null ;;
		*) "$GQ" mutate -ops "$v" -seed 1 "$f" >"$vf" 2>/dev/null ;;
		esac || {
			echo "$g $v - - - - - FAIL mutate failed"
			continue
		}
		read -r n c m rest < <(ground "$vf")
		if [ "$n" = ERR ]; then
			echo "$g $v ERR $c $m - - FAIL ${rest:-}"
			continue
		fi
		sr=$(echo "scale=3; $n / $on" | bc)
		cr=$(echo "scale=2; $c / ($oc + 0.005)" | bc)
		flag=ok
		if [ "$(echo "$n > 2 * $on" | bc)" = 1 ]; then
			flag=SIZE
		elif [ "$(echo "$c > 2 * $oc && $c > $mincpu" | bc)" = 1 ]; then
			flag=CPU
		fi
		echo "$g $v $n $c $m $sr $cr $flag"
	done
done
