#!/usr/bin/env bash
# scripts/heavy_burst.sh BINARY: 20 parallel uploads of a grounding blow-up and 20 parallel
# symmetry requests (20 distinct games) at the real server binary with
# --max-heavy 2; prints each status, the server's peak RSS, and the peak
# RSS of its child processes (heavy work and comparisons, sampled every
# 100 ms: the largest child, and the largest sum with the server). Usage:
#   go build -o /tmp/server ./cmd/server && scripts/heavy_burst.sh /tmp/server | sort | uniq -c
# MAX_HEAVY (default 2) and REQUEST_TIMEOUT (default 10s) set the server's
# --max-heavy and --request-timeout; EXTRA adds server flags (e.g.
# EXTRA="--heavy-max-rss 209715200").
set -euo pipefail
bin=$1 dir=$(mktemp -d)
# shellcheck disable=SC2086 # EXTRA is a list of flags
"$bin" --addr 127.0.0.1:0 --data "$dir/data" --max-heavy "${MAX_HEAVY:-2}" --request-timeout "${REQUEST_TIMEOUT:-10s}" --rate-limit 0 --classify=false ${EXTRA:-} 2>"$dir/log" &
pid=$!
sampler=
trap 'kill $sampler 2>/dev/null; kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
# rss PID: resident memory in KiB (0 once it has exited).
rss() { awk '/^VmRSS:/ {print $2; f=1} END {if (!f) print 0}' "/proc/$1/status" 2>/dev/null || echo 0; }
sample() {
	local child=0 total=0
	while kill -0 "$pid" 2>/dev/null; do
		local sum now
		sum=$(rss "$pid")
		for c in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
			now=$(rss "$c")
			sum=$((sum + now))
			((now > child)) && child=$now
		done
		((sum > total)) && total=$sum
		echo "$child $total" >"$dir/peaks"
		sleep 0.1
	done
}
for i in $(seq 100); do addr=$(sed -n 's/.*"msg":"listening","addr":"\([^"]*\)".*/\1/p' "$dir/log"); [[ -n "$addr" ]] && break; sleep 0.1; done
buttons='(role robot) (button a) (button b) (<= (legal robot (press ?x)) (button ?x) (not (true (on ?x)))) (<= (next (on ?x)) (does robot (press ?x))) (<= (next (on ?x)) (true (on ?x))) (<= terminal (true (on a)) (true (on b))) (<= (goal robot 100) (true (on a)) (true (on b))) (<= (goal robot 0) (not (true (on a)))) (<= (goal robot 0) (true (on a)) (not (true (on b))))'
blowup="$buttons $(for i in $(seq 0 16); do printf '(n %d) ' $i; done) (<= (next (big ?a ?b ?c ?d ?e)) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e))"
for i in $(seq 20); do
	curl -s -o /dev/null -H 'Content-Type: application/json' "http://$addr/api/v1/games" \
		-d "{\"name\":\"b$i\",\"gdl\":\"$buttons ; $i\"}"
done
sample &
sampler=$!
start=$(date +%s.%N)
for i in $(seq 20); do
	curl -s -o /dev/null -w 'upload %{http_code}\n' -H 'Content-Type: application/json' "http://$addr/api/v1/games" \
		-d "{\"name\":\"blowup\",\"gdl\":\"$blowup\"}" &
done
sleep 0.3
for i in $(seq 20); do
	curl -s -o /dev/null -w 'symmetries %{http_code}\n' "http://$addr/api/v1/games/$i/symmetries" &
done
wait $(jobs -p | grep -v -e "^$pid$" -e "^$sampler$") 2>/dev/null || true
echo "burst took $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5)s"
echo "after: readyz $(curl -s -o /dev/null -w '%{http_code}' "http://$addr/readyz"), symmetries of game 1 $(curl -s -o /dev/null -w '%{http_code}' "http://$addr/api/v1/games/1/symmetries")"
grep VmHWM /proc/$pid/status
read -r child total <"$dir/peaks"
echo "children: largest ${child} kB, server and children together at most ${total} kB (sampled every 100 ms)"
