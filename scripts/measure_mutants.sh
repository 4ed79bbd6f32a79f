#!/usr/bin/env bash
# scripts/measure_mutants.sh: CPU time of Compare(game, equivalent mutant),
# the load-independent evidence for equiv's pendingEquivalent (issue 11).
#
# For each GAME and seed, builds the variant as TestMutantsEquivalent does
# (mutate.Equivalent with every op; if it does not ground within 5 s and
# pair-args was applied, the same seed without pair-args), then runs
#   nice -n 10 /usr/bin/time -v BIN compare --json --timeout T GAME VARIANT
# one at a time and prints one TSV line: verdict, CPU s (user+sys), wall s,
# peak RSS, the report's phase times, nodes and candidates, the 1-minute
# load average at the start, and the reason of a non-equivalent verdict.
# CPU seconds do not depend on the machine's load: a game whose every seed
# is equivalent under about 30 CPU s is within issue 11's 60 s on 2 cores.
#
# Usage (BIN from `go build -o /tmp/gq ./cmd/gamequiv`):
#   scripts/measure_mutants.sh [-t 300s] [-C 0] [-s '1 2 3'] [-c 60] BIN GAME... > out.tsv
# -t: the compare --timeout (seconds, "NNs"); -C: a CPU budget in seconds
# (0: none): a comparison that has used that much CPU is interrupted and
# reported as verdict cpu_cap with the phase its error names, which on a
# loaded machine says "over the budget" where a wall limit cannot;
# -s: seeds; -c: once a seed is not equivalent or takes more than this
# many CPU s, the game's later seeds are not run (a "skipped" line each;
# 0 runs every seed). Bounded: each comparison by -t (and killed 60 s
# past it) and -C, each grounding of a variant by 5 s.
set -euo pipefail

timeout=300s seeds='1 2 3' stopcpu=60 cpucap=0
while getopts 't:s:c:C:' o; do
	case $o in
	t) timeout=$OPTARG ;;
	s) seeds=$OPTARG ;;
	c) stopcpu=$OPTARG ;;
	C) cpucap=$OPTARG ;;
	*) sed -n '2,/^set /p' "$0" | sed '$d' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if (($# < 2)); then
	sed -n '2,/^set /p' "$0" | sed '$d' >&2
	exit 2
fi
bin=$1
shift
# The ops of mutate.AllOps &^ mutate.PairArgs, the property test's fallback.
nopair=rename-symbols,rename-vars,reorder-rules,reorder-body,permute-args,de-morgan,split-or,merge-or,unfold,fold,tautology,duplicate
mutantGround=5s
hardkill=$(( ${timeout%s} + 60 ))
tick=$(getconf CLK_TCK)

# watch PID: interrupt the comparison under the process tree of PID (nice,
# time, timeout, gamequiv) once its own CPU time reaches cpucap seconds.
watch() {
	local pid=$1 gq='' t
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		[[ -n $gq ]] || gq=$(pgrep -P "$(pgrep -P "$pid" | head -1)" 2>/dev/null | head -1) || true
		[[ -n $gq && -r /proc/$gq/stat ]] || continue
		t=$(awk '{sub(/^.*\) /, ""); print $12 + $13}' "/proc/$gq/stat" 2>/dev/null) || continue
		if ((t >= cpucap * tick)); then
			kill -INT "$gq" 2>/dev/null || true
			touch "$tmp/capped"
			return
		fi
	done
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'game\tseed\tops\tverdict\tlimit\tcpu_s\tuser_s\tsys_s\twall_s\trss_mb\tground_ms\tgraph_ms\tsearch_ms\tverify_ms\tnodes\tcandidates\tsat_calls\tload1\treason\n'
for game in "$@"; do
	name=${game##*/games/}
	skip=''
	for seed in $seeds; do
		if [[ -n $skip ]]; then
			printf '%s\t%s\t-\tskipped\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t%s\n' "$name" "$seed" "$skip"
			continue
		fi
		ops=all
		"$bin" mutate -json -seed "$seed" "$game" >"$tmp/m.json"
		jq -r .gdl "$tmp/m.json" >"$tmp/v.kif"
		if ! "$bin" ground -ground-timeout "$mutantGround" "$tmp/v.kif" >/dev/null 2>&1; then
			if jq -e '.applied | index("pair-args")' "$tmp/m.json" >/dev/null; then
				ops=no-pair-args
				"$bin" mutate -seed "$seed" -ops "$nopair" "$game" >"$tmp/v.kif"
			fi
			if ! "$bin" ground -ground-timeout "$mutantGround" "$tmp/v.kif" >/dev/null 2>&1; then
				printf '%s\t%s\t%s\tmutant_not_grounded\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\n' "$name" "$seed" "$ops"
				skip="mutant seed $seed did not ground"
				continue
			fi
		fi
		load=$(cut -d' ' -f1 /proc/loadavg)
		rc=0
		rm -f "$tmp/capped"
		nice -n 10 /usr/bin/time -v -o "$tmp/time" timeout -k 10 "$hardkill" \
			"$bin" compare --json --timeout "$timeout" "$game" "$tmp/v.kif" >"$tmp/out.json" 2>"$tmp/err" &
		cmp=$!
		if ((cpucap > 0)); then
			watch "$cmp" &
			wpid=$!
		fi
		wait "$cmp" || rc=$?
		if ((cpucap > 0)); then
			kill "$wpid" 2>/dev/null || true
			wait "$wpid" 2>/dev/null || true
		fi
		user=$(awk -F': ' '/User time/ {print $2}' "$tmp/time")
		sys=$(awk -F': ' '/System time/ {print $2}' "$tmp/time")
		wall=$(awk '/Elapsed \(wall clock\)/ {print $NF}' "$tmp/time" | awk -F: '{s=0; for (i=1;i<=NF;i++) s=s*60+$i; print s}')
		rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2/1024}' "$tmp/time")
		cpu=$(echo "$user + $sys" | bc | awk '{printf "%.2f", $1}')
		if [[ -s $tmp/out.json ]] && jq -e .verdict "$tmp/out.json" >/dev/null 2>&1; then
			line=$(jq -r '[.verdict, (.limit // ""), (.stats.phase_ms.ground // 0 | floor), (.stats.phase_ms.graph // 0 | floor),
				(.stats.phase_ms.search // 0 | floor), (.stats.phase_ms.verify // 0 | floor), .stats.search_nodes,
				.stats.candidates, .stats.sat_calls, (if .verdict == "equivalent" then "" else .reason[:200] | gsub("[\t\n]"; " ") end)] | map(tostring) | join("\u001f")' "$tmp/out.json")
			IFS=$'\x1f' read -r verdict limit g gr s v nodes cand sat reason <<<"$line"
		else
			verdict=error limit='' g='' gr='' s='' v='' nodes='' cand='' sat=''
			[[ -e $tmp/capped ]] && verdict=cpu_cap limit="${cpucap} CPU s"
			reason="exit $rc: $(grep -v '^warning:' "$tmp/err" | head -c 200 | tr '\t\n' '  ')"
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
			"$name" "$seed" "$ops" "$verdict" "$limit" "$cpu" "$user" "$sys" "$wall" "$rss" \
			"$g" "$gr" "$s" "$v" "$nodes" "$cand" "$sat" "$load" "$reason"
		if [[ $stopcpu != 0 ]]; then
			if [[ $verdict != equivalent ]]; then
				skip="seed $seed was $verdict"
			elif (($(echo "$cpu > $stopcpu" | bc))); then
				skip="seed $seed took $cpu CPU s (over $stopcpu)"
			fi
		fi
	done
done
