#!/bin/bash
# Paired grounding runs: `gamequiv ground` against Debian's gringo on the
# plain GDL-to-ASP translation of scripts/gdl2asp.py (apt-get install gringo).
# One line per game: wall and CPU (user+sys) seconds and peak RSS of each, and
# what each produced (circuit nodes; ground rules in gringo's smodels output).
#
# usage: scripts/ground_vs_gringo.sh GAMEQUIV_BINARY TIMEOUT_SECONDS GAME.kif...
set -u
bin=$1 limit=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| game | gamequiv wall s | gamequiv CPU s | gamequiv MiB | gamequiv result | gringo wall s | gringo CPU s | gringo MiB | gringo result |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in "$@"; do
	g=$(basename "$f" .kif)
	"$(dirname "$0")/gdl2asp.py" "$f" >"$tmp/$g.lp"
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/tq" timeout $((limit + 5)) "$bin" ground --lenient-unsafe --ground-timeout "${limit}s" "$f" >"$tmp/oq" 2>"$tmp/eq"
	rq=$?
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/tg" timeout "$limit" gringo "$tmp/$g.lp" -o smodels >"$tmp/og" 2>"$tmp/eg"
	rg=$?
	read -r qw qu qs qm < <(tail -1 "$tmp/tq")
	read -r gw gu gs gm < <(tail -1 "$tmp/tg")
	if [ $rq -eq 0 ]; then
		qr="$(grep -o '[0-9]* circuit nodes' "$tmp/oq")"
	else
		qr="$(grep -v '^warning' "$tmp/eq" | head -1 | sed 's/ (reached.*//' | cut -c1-60)"
	fi
	case $rg in
	0) gr="$(grep -c '' "$tmp/og") smodels lines" ;;
	124) gr="timeout" ;;
	*) gr="error $(grep -m1 error "$tmp/eg" | cut -c1-50)" ;;
	esac
	printf '| %s | %s | %.2f | %d | %s | %s | %.2f | %d | %s |\n' "$g" "$qw" "$(echo "$qu + $qs" | bc)" $((qm / 1024)) "$qr" "$gw" "$(echo "$gu + $gs" | bc)" $((gm / 1024)) "$gr"
done
