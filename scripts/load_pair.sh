#!/usr/bin/env bash
# scripts/load_pair.sh NAME SERVER_BINARY [server flags...]
#
# One bench/load run against a server binary started here, for paired
# old/new measurements (issue 15 point 6): the server runs with
# GODEBUG=gctrace=1 on a fresh data directory (SQLite), or on $DBURL
# (a fresh PostgreSQL database), with --rate-limit 0; the load bench is
# `go run ./bench/load -url ... -json` with its defaults (500 comparisons,
# 50 clients polling every 100 ms). Output in $OUT/NAME (default
# /tmp/loadpair): server.log (JSON log and gctrace), load.json, uptime.
# It then prints three lines: client GET p50/p99 and the GETs over 20 ms,
# the server's own GET latency (access log, from handler start to last
# byte) p50/p90/p99/max, the number of GCs and completions/s; the
# server's CPU seconds (user + system) when the load ended; and the waits
# behind those latencies: the server's goroutines for a Go processor
# (p99 and the number over 10 ms, from its stop log) and its store calls
# for a free database connection (count, total ms), the client's
# goroutines the same (load.json), and each process's threads' total
# wait for a CPU during the load (Linux schedstat run delay, ms). With
# comparison processes (--worker-process) it adds their CPU seconds and
# run delay during the load (the server's CPU is then its own only).
#
# Example (build both binaries first, alternate them):
#   (cd ../base && go build -o /tmp/srv-base ./cmd/server)
#   go build -o /tmp/srv-new ./cmd/server
#   for r in 1 2 3; do scripts/load_pair.sh base-$r /tmp/srv-base; scripts/load_pair.sh new-$r /tmp/srv-new; done
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
name=$1 bin=$2
shift 2
out=${OUT:-/tmp/loadpair}/$name
rm -rf "$out"
mkdir -p "$out/data"
go build -o "$out/loadbench" ./bench/load
args=(--addr 127.0.0.1:0 --data "$out/data" --rate-limit 0 --max-queue 5000)
[[ -n "${DBURL:-}" ]] && args+=(--database-url "$DBURL")
# SERVER_WRAP and CLIENT_WRAP prefix the server's and the load bench's
# command (diagnostics, e.g. CLIENT_WRAP='nice -n -10' or 'taskset -c 1').
GODEBUG=gctrace=1 ${SERVER_WRAP:-} "$bin" "${args[@]}" "$@" 2>"$out/server.log" &
pid=$!
trap 'kill -INT $pid 2>/dev/null || true' EXIT
addr=
for _ in $(seq 150); do
	# Not a JSON parse: a gctrace line may be written into the middle of it.
	addr=$(grep -o '"msg":"listening","addr":"[^"]*"' "$out/server.log" | head -1 | sed 's/.*"addr":"//; s/"$//' || true)
	[[ -n "$addr" ]] && break
	sleep 0.2
done
[[ -n "$addr" ]] || { echo "server did not start; see $out/server.log" >&2; exit 1; }
# run_delay_ms PID: its threads' total wait for a CPU so far.
run_delay_ms() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $2} END {printf "%.0f", s / 1e6}'; }
# children PID: the server's comparison processes (--worker-process).
children() { cat /proc/"$1"/task/*/children 2>/dev/null | tr ' ' '\n' | grep . || true; }
# cpu_s PID...: their CPU seconds so far (user + system).
cpu_s() { for p in "$@"; do cat /proc/"$p"/stat 2>/dev/null; done | awk -v hz="$(getconf CLK_TCK)" '{s += $14 + $15} END {printf "%.2f", s / hz}'; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >"$out/uptime"
delay0=$(run_delay_ms $pid)
kids=$(children $pid)
kdelay0=0 kcpu0=$(cpu_s $kids)
for k in $kids; do kdelay0=$(( kdelay0 + $(run_delay_ms $k) )); done
${CLIENT_WRAP:-} "$out/loadbench" -url "http://$addr" -json >"$out/load.json"
echo "server run delay ms: $(( $(run_delay_ms $pid) - delay0 ))" >"$out/rundelay"
# The comparison processes started before the load and still running
# (one that died and was replaced is not counted; none without them).
kdelay=0
for k in $kids; do kdelay=$(( kdelay + $(run_delay_ms $k) )); done
echo "$(( kdelay - kdelay0 )) $(awk -v a="$(cpu_s $kids)" -v b="$kcpu0" 'BEGIN {printf "%.2f", a - b}')" >"$out/children"
# The server's CPU time so far (user + system; start-up and uploads included).
awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f\n", ($14 + $15) / hz}' /proc/$pid/stat >"$out/cpu_s"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/uptime"
kill -INT $pid
wait $pid || true
trap - EXIT
python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
lat, gcs, stop = [], 0, {}
for line in open(d + "/server.log"):
    if line.startswith("gc "):
        gcs += 1
        continue
    if not line.startswith("{"):
        continue
    x = json.loads(line)
    if x.get("msg") == "stopped":
        stop = x
    if x.get("msg") == "request" and x.get("method") == "GET" and x.get("route") == "/api/v1/comparisons/:id":
        lat.append(x["latency_ms"])
lat.sort()
n = len(lat)
r = json.load(open(d + "/load.json"))
load = open(d + "/uptime").read().split()[2]
print("%s load %s client GET p50/p99 %.1f/%.1f ms (%s of %d over 20 ms) server GET p50/p90/p99/max %.2f/%.1f/%.1f/%.1f ms (n=%d) GCs %d completions/s %.1f completed %d lost %d"
      % (d.rsplit("/", 1)[1], load, r["get_p50_ms"], r["get_p99_ms"], r.get("gets_over_20ms", "?"), r["gets"], lat[n // 2], lat[int(n * .9)], lat[int(n * .99)], lat[-1], n, gcs,
         r["completions_per_s"], r["completed"], r["lost"]))
kd, kc = open(d + "/children").read().split()
print("  server CPU %s s; comparison processes during the load: CPU %s s, run delay %s ms" % (open(d + "/cpu_s").read().strip(), kc, kd))
print("  waits: server goroutines p99 %s ms, %s over 10 ms; db pool waits %s/%s ms (writer), %s/%s ms (SQLite readers); client goroutines p99 %s ms, %s over 10 ms; run delay (threads waiting for a CPU) server %s ms, client %s ms"
      % (stop.get("sched_wait_p99_ms", "?"), stop.get("sched_waits_over_10ms", "?"), stop.get("db_write_waits", "?"), stop.get("db_write_wait_ms", "?"), stop.get("db_read_waits", "?"), stop.get("db_read_wait_ms", "?"),
         r.get("client_sched_wait_p99_ms", "?"), r.get("client_sched_waits_over_10ms", "?"),
         open(d + "/rundelay").read().split()[-1], r.get("client_run_delay_ms", "?")))
PY
