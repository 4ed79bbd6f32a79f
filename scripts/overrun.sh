#!/bin/sh
# overrun.sh: issue 12 point 2's cancellation bar (no phase overruns the
# time limit by more than 1 s). Compares each game with its `gamequiv
# mutate -seed 1` variant under `compare -timeout T`, and prints one
# Markdown row per game that stopped at the limit: the phase it was in
# (the last phase of the report's phase_ms), the process's wall time and
# its overrun past T (process start, parse and exit included).
#
# Usage: scripts/overrun.sh GQ T GAME.kif... > table.md
#   GQ  the gamequiv binary (go build -o /tmp/gq ./cmd/gamequiv)
#   T   the compare -timeout, in seconds (10)
# Work files go to $TMPDIR/overrun.
set -eu
GQ=$1
T=$2
shift 2
W=${TMPDIR:-/tmp}/overrun
mkdir -p "$W"
echo "| game | timeout s | verdict | stopped in | wall s | overrun s | CPU s | peak RSS MiB |"
echo "|---|--:|---|---|--:|--:|--:|--:|"
for f in "$@"; do
	g=$(basename "$f" .kif)
	"$GQ" mutate -seed 1 "$f" > "$W/$g.m1.kif" || { echo "| $g | $T | mutate failed | | | | | |"; continue; }
	/usr/bin/time -f "%e %U %S %M" -o "$W/$g.time" \
		"$GQ" compare --json -timeout "${T}s" -ground-timeout "${T}s" "$f" "$W/$g.m1.kif" > "$W/$g.json" 2>/dev/null || true
	python3 - "$W/$g.json" "$W/$g.time" "$g" "$T" <<'PY'
import json, sys
rep, tim, g, t = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
wall, user, sys_, rss = open(tim).read().split()[-4:]
try:
    r = json.load(open(rep))
except ValueError:
    r = {"verdict": "error"}
phases = r.get("stats", {}).get("phase_ms", {})
order = ["ground", "graph", "search", "verify"]
last = [p for p in order if p in phases]
stopped = last[-1] if last else "-"
wall = float(wall)
print(f"| {g} | {t:g} | {r.get('verdict')} | {stopped} | {wall:.2f} | {wall - t:+.2f} | {float(user) + float(sys_):.1f} | {int(rss) // 1024} |")
PY
done
