#!/bin/sh
# graph_same.sh: checks that two gamequiv binaries print byte-identical
# `graph --json` for each game. A game whose graph the old binary does not
# finish within T seconds (ground, build and group) is listed as skipped.
# Prints one line per game (same, DIFFERS, skipped) and a count.
#
# Usage: scripts/graph_same.sh OLD NEW T GAME.kif... > report.txt
# Work files go to $TMPDIR/graph_same.
set -u
OLD=$1
NEW=$2
T=$3
shift 3
W=${TMPDIR:-/tmp}/graph_same
mkdir -p "$W"
same=0 differ=0 skipped=0
for f in "$@"; do
	g=$(basename "$f" .kif)
	if ! "$OLD" graph --json -timeout "${T}s" "$f" > "$W/$g.old.json" 2>/dev/null; then
		echo "skipped $g (old binary: no graph within ${T}s)"
		skipped=$((skipped + 1))
		continue
	fi
	"$NEW" graph --json -timeout "$((T * 4))s" "$f" > "$W/$g.new.json" 2>/dev/null
	if cmp -s "$W/$g.old.json" "$W/$g.new.json"; then
		echo "same $g"
		same=$((same + 1))
	else
		echo "DIFFERS $g"
		differ=$((differ + 1))
	fi
done
echo "same $same, differ $differ, skipped $skipped"
[ "$differ" -eq 0 ]
