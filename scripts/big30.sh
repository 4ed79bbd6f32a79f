#!/bin/sh
# big30.sh: issue 12 point 3. Grounds every corpus game (ggp-base and
# ggp-base-repo) with `gamequiv ground --json`, takes the N largest by
# circuit nodes, and compares each with its `gamequiv mutate -seed 1`
# variant under /usr/bin/time -v, printing one Markdown table row per game:
# circuit nodes, ground / graph / search / verify ms, peak RSS, search
# nodes, candidates, verdict (the report's reason when not equivalent).
#
# Usage: scripts/big30.sh GQ GAMES_DIR [N] [TIMEOUT] > table.md
#        BIG30_TOP=top.txt scripts/big30.sh GQ GAMES_DIR ...  (compare the
#        games of top.txt, lines "nodes path", instead of grounding all)
#   GQ        the gamequiv binary (go build -o /tmp/gq ./cmd/gamequiv)
#   GAMES_DIR the corpus (/work/shared/games)
#   N         number of games (30)
#   TIMEOUT   the compare --timeout of one comparison (5m)
# Work files go to $TMPDIR/big30 (kept: sizes.txt, the variants, the JSON
# reports and the time -v outputs).
set -eu
GQ=$1
DIR=$2
N=${3:-30}
TO=${4:-5m}
W=${TMPDIR:-/tmp}/big30
mkdir -p "$W"
if [ -n "${BIG30_TOP:-}" ]; then
	cp "$BIG30_TOP" "$W/top.txt"
else
	: > "$W/sizes.txt"
	for f in "$DIR"/ggp-base/*.kif "$DIR"/ggp-base-repo/*.kif; do
		n=$("$GQ" ground --json -ground-timeout 60s "$f" 2>/dev/null |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["circuit_nodes"])' 2>/dev/null) || continue
		echo "$n $f" >> "$W/sizes.txt"
	done
	sort -rn "$W/sizes.txt" | head -n "$N" > "$W/top.txt"
fi
echo "| game | circuit nodes | ground ms | graph ms | search ms | verify ms | CPU s | peak RSS MiB | search nodes | candidates | verdict |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"
while read -r n f; do
	g=$(basename "$f" .kif)
	"$GQ" mutate -seed 1 "$f" > "$W/$g.m1.kif"
	/usr/bin/time -v "$GQ" compare --json --timeout "$TO" "$f" "$W/$g.m1.kif" > "$W/$g.json" 2> "$W/$g.time" || true
	rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$W/$g.time")
	cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$W/$g.time")
	python3 - "$g" "$n" "$rss" "$W/$g.json" "$cpu" <<'EOF'
import json, sys
g, n, rss, path, cpu = sys.argv[1:6]
try:
    d = json.load(open(path))
except Exception:
    err = open(path[:-len(".json")] + ".time").read().strip().splitlines()
    print(f"| {g} | {n} | | | | | {cpu} | {rss} | | | no report: {err[0][:100] if err else 'empty'} |")
    sys.exit(0)
st = d.get("stats", {})
ph = st.get("phase_ms", {})
f = lambda k: f"{ph[k]:.0f}" if k in ph else ""
v = d.get("verdict", "")
if v != "equivalent":
    v += ": " + d.get("reason", "")[:100]
print(f"| {g} | {n} | {f('ground')} | {f('graph')} | {f('search')} | {f('verify')} | {cpu} | {rss} | {st.get('search_nodes', '')} | {st.get('candidates', '')} | {v} |")
EOF
done < "$W/top.txt"
