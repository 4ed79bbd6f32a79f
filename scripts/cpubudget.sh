#!/bin/sh
# cpubudget.sh: runs a command until it has used BUDGET seconds of CPU
# (user+sys), then stops it with SIGTERM, and prints its wall, user and
# system seconds and peak RSS (KiB) as /usr/bin/time -f "%e %U %S %M" does.
# On a loaded machine a wall-clock limit gets a comparison a varying amount
# of work; a CPU budget gets it the same work: 60 s of CPU is what
# `compare -timeout 30s` gets on an idle two-core machine.
#
# Usage: scripts/cpubudget.sh BUDGET OUT CMD ARGS...
#   BUDGET  CPU seconds (integer)
#   OUT     file for the time line (the command's stdout and stderr are
#           discarded)
set -u
BUDGET=$1
OUT=$2
shift 2
/usr/bin/time -f "%e %U %S %M" -o "$OUT" "$@" > /dev/null 2>&1 &
TPID=$!
HZ=$(getconf CLK_TCK)
sleep 0.2
CPID=$(ps -o pid= --ppid "$TPID" | tr -d ' ')
while kill -0 "$TPID" 2>/dev/null; do
	[ -n "$CPID" ] || break
	T=$(awk -v hz="$HZ" '{ print int(($14 + $15) / hz) }' "/proc/$CPID/stat" 2>/dev/null) || break
	if [ "${T:-0}" -ge "$BUDGET" ]; then
		kill -TERM "$CPID" 2>/dev/null
		break
	fi
	sleep 0.2
done
wait "$TPID"
tail -1 "$OUT"
