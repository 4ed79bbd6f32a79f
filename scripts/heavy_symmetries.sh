#!/usr/bin/env bash
# scripts/heavy_symmetries.sh BINARY GAME.kif: uploads one game to the real
# server binary and asks for its symmetries (GET /games/{id}/symmetries, once
# and again); prints the answers, their times, the server's peak RSS and its
# children's (sampled every 100 ms). Usage:
#   go build -o /tmp/server ./cmd/server && scripts/heavy_symmetries.sh /tmp/server /work/shared/games/ggp-base/amazonsSuicide.kif
# EXTRA adds server flags (e.g. EXTRA="--heavy-max-rss 157286400");
# WATCHDOG_MIB (default 3072) kills the server once the server and its
# children together pass it, so that a binary that computes in-process
# cannot take the machine's memory.
set -euo pipefail
bin=$1 game=$2 dir=$(mktemp -d)
# shellcheck disable=SC2086 # EXTRA is a list of flags
"$bin" --addr 127.0.0.1:0 --data "$dir/data" --rate-limit 0 --classify=false --request-timeout "${REQUEST_TIMEOUT:-5m}" ${EXTRA:-} 2>"$dir/log" &
pid=$!
sampler=
trap 'kill $sampler 2>/dev/null; kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for i in $(seq 100); do addr=$(sed -n 's/.*"msg":"listening","addr":"\([^"]*\)".*/\1/p' "$dir/log"); [[ -n "$addr" ]] && break; sleep 0.1; done
rss() { awk '/^VmRSS:/ {print $2; f=1} END {if (!f) print 0}' "/proc/$1/status" 2>/dev/null || echo 0; }
sample() {
	local server=0 child=0 total=0 limit=$((${WATCHDOG_MIB:-3072} * 1024))
	while kill -0 "$pid" 2>/dev/null; do
		local now sum
		now=$(rss "$pid")
		sum=$now
		((now > server)) && server=$now
		for c in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
			now=$(rss "$c")
			sum=$((sum + now))
			((now > child)) && child=$now
		done
		((sum > total)) && total=$sum
		echo "$server $child $total" >"$dir/peaks"
		if ((sum > limit)); then
			echo "watchdog: server and children at $((sum / 1024)) MiB, over ${WATCHDOG_MIB:-3072} MiB: server killed" >"$dir/watchdog"
			kill -9 "$pid"
		fi
		sleep 0.1
	done
}
python3 -c 'import json,sys; print(json.dumps({"name": sys.argv[1], "gdl": open(sys.argv[1]).read()}))' "$game" >"$dir/body.json"
curl -s -o /dev/null -w 'upload %{http_code} %{time_total}s\n' -H 'Content-Type: application/json' "http://$addr/api/v1/games" -d @"$dir/body.json"
sample &
sampler=$!
for i in 1 2; do
	curl -s -o "$dir/sym" -w "symmetries $i: %{http_code} %{time_total}s " "http://$addr/api/v1/games/1/symmetries" || echo -n "symmetries $i: no answer "
	head -c 300 "$dir/sym" 2>/dev/null || true
	echo
done
sleep 0.3
[[ -f "$dir/watchdog" ]] && cat "$dir/watchdog"
read -r server child total <"$dir/peaks"
echo "peak RSS (sampled every 100 ms): server ${server} kB, largest child ${child} kB, together ${total} kB"
if kill -0 "$pid" 2>/dev/null; then grep VmHWM /proc/$pid/status; echo "readyz $(curl -s -o /dev/null -w '%{http_code}' "http://$addr/readyz")"; fi
