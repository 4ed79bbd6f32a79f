#!/bin/bash
# mutate_sweep.sh: issue 12 point 1's claim that every `gamequiv mutate`
# variant grounds within 2x the size of its original. For every corpus
# game (smallest file first), prints the circuit nodes of the original and
# of its equivalent variants of seeds 1-3 (all transformations), "ERR" for
# a grounding that failed (a limit), one line per game:
#   game | original | seed 1 | seed 2 | seed 3
#
# usage: scripts/mutate_sweep.sh GQ DIR... > sweep.txt
#   GQ   the gamequiv binary (go build -o /tmp/gq ./cmd/gamequiv)
#   DIR  corpus directories (../shared/games/ggp-base ../shared/games/ggp-base-repo)
# Environment: SWEEP_SKIP, a regular expression of game names to leave out
# (the games over the 30 s grounding line take minutes per variant under
# load); SWEEP_CAP, the wall cap of one grounding in seconds (130).
# Variants go to $TMPDIR/mutate_sweep.
set -u
GQ=$1
shift
W=${TMPDIR:-/tmp}/mutate_sweep
mkdir -p "$W"
nodes() {
	timeout "${SWEEP_CAP:-130}" "$GQ" ground --json -lenient-unsafe "$1" 2>/dev/null |
		python3 -c 'import json,sys
try: print(json.load(sys.stdin)["circuit_nodes"])
except Exception: print("ERR")'
}
find "$@" -name '*.kif' -printf '%s %p\n' | sort -n | while read -r _ f; do
	g=$(basename "$f" .kif)
	if [ -n "${SWEEP_SKIP:-}" ] && [[ $g =~ ${SWEEP_SKIP} ]]; then
		continue
	fi
	line="$g | $(nodes "$f")"
	for s in 1 2 3; do
		if "$GQ" mutate -seed "$s" "$f" > "$W/$g.$s.kif" 2>/dev/null; then
			line="$line | $(nodes "$W/$g.$s.kif")"
		else
			line="$line | mutate failed"
		fi
	done
	echo "$line"
done
