#!/bin/bash
# Grounds every game given (or every .kif under DIR), smallest file first,
# one process per game under a wall cap and an address-space cap, and prints
# one line per game: wall s, CPU s (user+sys), peak RSS MiB and what
# bench/grounddigest printed (nodes and the Program's digest, or the error).
# Two builds of the grounder give the same digest iff their Programs are
# identical.
#
# usage: scripts/ground_sweep.sh GROUNDDIGEST_BINARY CAP_SECONDS MEM_GIB DIR|GAME.kif...
#   e.g. go build -o /tmp/gd ./bench/grounddigest && nice -n 19 scripts/ground_sweep.sh /tmp/gd 120 6 ../shared/games
set -u
bin=$1 cap=$2 mem=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$@" -name '*.kif' -printf '%s %p\n' | sort -n -k1,1 -k2 | while read -r _ f; do
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/t" prlimit --as=$((mem * 1024 * 1024 * 1024)) \
		timeout $((cap + 5)) "$bin" -lenient-unsafe -ground-timeout "${cap}s" "$f" >"$tmp/o" 2>&1
	read -r w u s m < <(tail -1 "$tmp/t")
	printf '%s %s %.2f %d %s\n' "${f#*games/}" "$w" "$(echo "$u + $s" | bc)" $((m / 1024)) "$(head -1 "$tmp/o" | cut -d' ' -f2- | cut -c1-200)"
done
