#!/bin/bash
# Builds the ground graph of every game given (or every .kif under DIR),
# smallest file first, with two builds of bench/graphphase (OLD and NEW,
# alternating which runs first), one process per game and build under a
# wall cap and an address-space cap. Games that do not ground within
# GROUND_S seconds are skipped. Prints one line per game: both builds'
# graph CPU seconds (the Build alone), their digests (the graph's JSON,
# semantic colours and every function's features) and "same", "DIFF",
# "FAIL" (a build printed nothing) or "skipped" (neither grounded in time);
# the last line sums the CPU of the games both built.
#
# usage: scripts/graph_identity.sh OLD_GRAPHPHASE NEW_GRAPHPHASE GROUND_S CAP_S MEM_GIB DIR|GAME.kif...
#   e.g. nice -n 10 scripts/graph_identity.sh /tmp/gp-old /tmp/gp-new 1 60 6 ../shared/games
set -u
old=$1 new=$2 ground=$3 cap=$4 mem=$5
shift 5
run() { # binary game: prints "graph_cpu digest", or "- error"
	prlimit --as=$((mem * 1024 * 1024 * 1024)) timeout $((ground + cap + 10)) \
		"$1" -ground-timeout "${ground}s" -timeout "${cap}s" "$2" 2>/dev/null |
		awk 'NR == 2 { if ($2 == "error:") print "- error"; else print $4, $NF }'
}
i=0 so=0 sn=0 diff=0 failed=0 n=0
while read -r _ f; do
	if ((i++ % 2 == 0)); then
		ro=$(run "$old" "$f") rn=$(run "$new" "$f")
	else
		rn=$(run "$new" "$f") ro=$(run "$old" "$f")
	fi
	read -r co do <<<"${ro:-- none}"
	read -r cn dn <<<"${rn:-- none}"
	if [ "$do" = error ] && [ "$dn" = error ]; then
		printf '%s - - error error skipped\n' "${f#*games/}"
		continue
	fi
	verdict=same
	if [ "$do" = none ] || [ "$dn" = none ]; then
		# A build that printed nothing (killed by a cap, crashed) proves
		# nothing, even if the other one did the same.
		verdict=FAIL && failed=$((failed + 1))
	elif [ "$do" != "$dn" ]; then
		verdict=DIFF && diff=$((diff + 1))
	fi
	if [ "$co" != - ] && [ "$cn" != - ]; then
		so=$(echo "$so + $co" | bc) sn=$(echo "$sn + $cn" | bc) n=$((n + 1))
	fi
	printf '%s %s %s %s %s %s\n' "${f#*games/}" "$co" "$cn" "$do" "$dn" "$verdict"
done < <(find "$@" -name '*.kif' -printf '%s %p\n' | sort -n -k1,1 -k2)
printf 'total %d games built by both: old %s s, new %s s graph CPU; %d digests differ, %d runs printed nothing\n' "$n" "$so" "$sn" "$diff" "$failed"
