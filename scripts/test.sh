#!/usr/bin/env bash
# scripts/test.sh: the one test command of gamequiv (`make test`, .ci/run).
#
#   1. gofmt: every .go file must be formatted (testdata excluded);
#   2. go vet ./...;
#   3. optional external tools (nauty's dreadnaut, bliss): installed with apt
#      when running as root with CI=true, otherwise a visible NOTICE says
#      which tests are skipped;
#   4. go test -count=1 -timeout 25m ./... ($GAMEQUIV_TEST_FLAGS is added,
#      e.g. GAMEQUIV_TEST_FLAGS=-race);
#   5. each grounding fuzz target for $GAMEQUIV_FUZZTIME (default 15s);
#   6. the Python client's pytest tests and the example notebook, executed
#      headless against a server this script starts (see python_client).
#
# It must finish well within 30 minutes on 2 cores.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

started=$SECONDS
notices=()

step() { printf '\n==> %s\n' "$*"; }

notice() {
	notices+=("$*")
	printf '\n%s\nNOTICE: %s\n%s\n\n' "$(rule)" "$*" "$(rule)"
}

rule() { printf '%.0s*' {1..78}; }

# --- apt helpers ---------------------------------------------------------

apt_updated=0
# Seconds apt waits for the dpkg and lists locks another apt process holds
# (DPkg::Lock::Timeout) before it gives up: waiting beats skipping tools.
apt_lock_timeout=${GAMEQUIV_APT_LOCK_TIMEOUT:-600}

# may_install: true when this run may install system packages itself.
may_install() {
	[[ "${CI:-}" == "true" && "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null
}

# apt_install PKG...: install Debian packages, running apt-get update once per run.
apt_install() {
	if ((apt_updated == 0)); then
		echo "apt-get update"
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$apt_lock_timeout" update -qq ||
			echo "warning: apt-get update failed" >&2
		apt_updated=1
	fi
	echo "apt-get install $*"
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$apt_lock_timeout" \
		install -y -qq --no-install-recommends "$@"
}

# optional_tool BINARY PACKAGE: make BINARY available from Debian PACKAGE if
# possible; otherwise print a notice (tests that need it skip themselves).
optional_tool() {
	local bin=$1 pkg=$2
	if command -v "$bin" >/dev/null; then
		echo "$bin: $(command -v "$bin")"
		return 0
	fi
	if may_install; then
		apt_install "$pkg" || echo "warning: apt-get install $pkg failed" >&2
	fi
	if command -v "$bin" >/dev/null; then
		echo "$bin: $(command -v "$bin")"
	else
		notice "$bin not installed: tests that compare against it are skipped (install: apt-get install $pkg)"
	fi
}

# --- optional external tools ---------------------------------------------
# One function per tool; add new ones (chromium, postgresql, ...) here and
# list them in ENSURE. A function may also start a service or export the
# variables its tests read.

games_dir=""
# ensure_games: the shared game corpus (internal/testgames looks for it the
# same way: $GAMEQUIV_GAMES, else shared/games in an ancestor directory).
ensure_games() {
	local d=${GAMEQUIV_GAMES:-}
	if [[ -z "$d" ]]; then
		local a=$PWD
		while :; do
			if [[ -d "$a/shared/games/ggp-base" ]]; then
				d="$a/shared/games"
				break
			fi
			[[ "$a" == / ]] && break
			a=$(dirname "$a")
		done
	fi
	if [[ -n "$d" && -d "$d/ggp-base" ]]; then
		games_dir=$d
		echo "game corpus: $d"
	else
		notice "game corpus not found (set GAMEQUIV_GAMES or put it at ../shared/games): corpus, conformance and end-to-end game tests are skipped"
	fi
}

ensure_nauty() { optional_tool dreadnaut nauty; }
ensure_bliss() { optional_tool bliss bliss; }
ensure_minisat() { optional_tool minisat minisat; }
ensure_cadical() { optional_tool cadical cadical; }

# ensure_postgres: when PostgreSQL's server binaries exist (installed with apt
# when running as root with CI=true), run a throwaway cluster in a temporary
# directory on a free loopback port, create database geqtest and export
# GEQ_TEST_PG so the store conformance suite and the e2e server test also run
# on PostgreSQL. The cluster is stopped and removed when this script exits.
# An already set GEQ_TEST_PG is used as is.
pg_dir=""
stop_postgres() {
	if [[ -n "$pg_dir" && -d "$pg_dir" ]]; then
		pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate -w stop >/dev/null 2>&1 || true
		rm -rf "$pg_dir"
	fi
}
# pg_as CMD...: run CMD as user postgres when root (initdb refuses root).
pg_as() {
	if [[ "$(id -u)" -eq 0 ]]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}
ensure_postgres() {
	if [[ -n "${GEQ_TEST_PG:-}" ]]; then
		echo "postgresql: GEQ_TEST_PG already set"
		return 0
	fi
	pg_bin=$(find_pg_bin)
	if [[ -z "$pg_bin" ]] && may_install; then
		apt_install postgresql || echo "warning: apt-get install postgresql failed" >&2
		pg_bin=$(find_pg_bin)
	fi
	if [[ -z "$pg_bin" ]]; then
		notice "PostgreSQL not installed: store and server tests run on SQLite only (install: apt-get install postgresql, or set GEQ_TEST_PG)"
		return 0
	fi
	if [[ "$(id -u)" -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
		notice "running as root without a postgres user: PostgreSQL tests skipped (set GEQ_TEST_PG)"
		return 0
	fi
	pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/gamequiv-pg.XXXXXX")
	chmod 755 "$pg_dir"
	[[ "$(id -u)" -eq 0 ]] && chown postgres "$pg_dir"
	trap stop_postgres EXIT
	local port
	port=$(free_port)
	if ! pg_as "$pg_bin/initdb" -D "$pg_dir/data" -U postgres -A trust --no-sync >"$pg_dir/initdb.log" 2>&1; then
		cat "$pg_dir/initdb.log" >&2
		notice "initdb failed: PostgreSQL tests skipped"
		return 0
	fi
	if ! pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -t 60 \
		-o "-c listen_addresses=127.0.0.1 -p $port -k $pg_dir -c fsync=off -c max_connections=200" start >/dev/null; then
		cat "$pg_dir/server.log" >&2
		notice "PostgreSQL did not start: PostgreSQL tests skipped"
		return 0
	fi
	if ! pg_as "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres geqtest; then
		notice "createdb failed: PostgreSQL tests skipped"
		return 0
	fi
	export GEQ_TEST_PG="postgres://postgres@127.0.0.1:$port/geqtest?sslmode=disable"
	echo "postgresql: $("$pg_bin/postgres" --version) on 127.0.0.1:$port, GEQ_TEST_PG set"
}
# find_pg_bin prints the directory of initdb and pg_ctl (newest version), or nothing.
find_pg_bin() {
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		if [[ -x "$d/initdb" && -x "$d/pg_ctl" ]]; then
			echo "$d"
			return
		fi
	done
	if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
		dirname "$(readlink -f "$(command -v initdb)")"
	fi
}
# free_port prints a free TCP port on 127.0.0.1.
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 54329
}

# ensure_browser: the browser end-to-end test of the web UI (web/e2e, run by
# TestBrowser in go test ./web) needs node >= 20, npm, Debian's chromium and
# playwright-core as pinned in web/e2e/package-lock.json. Missing Debian
# packages are installed with apt when running as root with CI=true, and
# playwright-core with npm ci (it downloads no browser); otherwise a NOTICE
# says the test is skipped. When everything is there, GAMEQUIV_E2E=1 makes a
# missing piece a test failure rather than a skip.
ensure_browser() {
	local chromium=${CHROMIUM:-/usr/bin/chromium} pkgs=()
	command -v node >/dev/null || pkgs+=(nodejs)
	command -v npm >/dev/null || pkgs+=(npm)
	[[ -x "$chromium" ]] || pkgs+=(chromium)
	if ((${#pkgs[@]} > 0)) && may_install; then
		apt_install "${pkgs[@]}" || echo "warning: apt-get install ${pkgs[*]} failed" >&2
	fi
	if ! command -v node >/dev/null || ! command -v npm >/dev/null || [[ ! -x "$chromium" ]]; then
		notice "node, npm or chromium missing: the browser e2e test of the web UI is skipped (install: apt-get install chromium nodejs npm)"
		return 0
	fi
	local major
	major=$(node -p 'process.versions.node.split(".")[0]')
	if ((major < 20)); then
		notice "node $(node --version) is too old for playwright-core (needs >= 20): the browser e2e test of the web UI is skipped"
		return 0
	fi
	local want have
	want=$(node -p 'require("./web/e2e/package-lock.json").packages["node_modules/playwright-core"].version')
	have=$(node -p 'try { require("./web/e2e/node_modules/playwright-core/package.json").version } catch { "" }')
	local want_axe have_axe
	want_axe=$(node -p 'require("./web/e2e/package-lock.json").packages["node_modules/axe-core"].version')
	have_axe=$(node -p 'try { require("./web/e2e/node_modules/axe-core/package.json").version } catch { "" }')
	if [[ "$have" != "$want" || "$have_axe" != "$want_axe" ]]; then
		echo "npm ci in web/e2e (playwright-core $want, axe-core $want_axe)"
		if ! (cd web/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error); then
			notice "npm ci in web/e2e failed: the browser e2e test of the web UI is skipped"
			return 0
		fi
	fi
	export CHROMIUM=$chromium PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 GAMEQUIV_E2E=1
	echo "browser e2e: node $(node --version), $("$chromium" --version 2>/dev/null | head -1), playwright-core $want"
}

# ensure_python_client: the Python client's tests and the example notebook
# need Debian's Python (/usr/bin/python3: the python3 on PATH may be pyenv,
# which cannot see Debian's packages) with the modules below; they are
# installed with apt when running as root with CI=true, otherwise a NOTICE
# says the step is skipped. Sets python_ok=1 when everything is there.
python_debs=(python3-requests python3-pandas python3-matplotlib python3-nbclient python3-ipykernel
	python3-pytest python3-tqdm jupyter-nbconvert)
python_modules="requests, pandas, matplotlib, nbclient, nbconvert, ipykernel, pytest, tqdm"
python_ok=0
ensure_python_client() {
	local py=/usr/bin/python3
	if [[ -x "$py" ]] && "$py" -c "import $python_modules" 2>/dev/null; then
		python_ok=1
	elif may_install; then
		apt_install "${python_debs[@]}" || echo "warning: apt-get install ${python_debs[*]} failed" >&2
		[[ -x "$py" ]] && "$py" -c "import $python_modules" 2>/dev/null && python_ok=1
	fi
	if ((python_ok)); then
		echo "python client: $("$py" --version), pandas $("$py" -c 'import pandas; print(pandas.__version__)')"
	else
		notice "Debian's python3 or one of its modules ($python_modules) is missing: the Python client tests and the example notebook are skipped (install: apt-get install ${python_debs[*]})"
	fi
}

ENSURE=(ensure_games ensure_nauty ensure_bliss ensure_minisat ensure_cadical ensure_postgres ensure_browser ensure_python_client)

# python_client runs the client's pytest tests (each test starts the real
# server binary on a loopback port with a temporary database), then
# executes examples/gamequiv.ipynb headless (nbconvert, python3 kernel)
# against a server started here. A failing test or cell fails the run; the
# executed notebook, with its plots, is kept in $GAMEQUIV_ARTIFACTS
# (default ./artifacts) as gamequiv.ipynb. Prints the failure and returns
# non-zero on failure.
python_client() {
	local py=/usr/bin/python3 dir rc=0
	dir=$(mktemp -d "${TMPDIR:-/tmp}/gamequiv-py.XXXXXX")
	go build -buildvcs=false -tags gamequiv_e2e -o "$dir/server" ./cmd/server || { rm -rf "$dir"; return 1; }
	GAMEQUIV_SERVER_BIN="$dir/server" PYTHONDONTWRITEBYTECODE=1 \
		"$py" -m pytest -q -p no:cacheprovider clients/python/tests || rc=$?
	if [[ -z "$games_dir" ]]; then
		notice "game corpus not found: the example notebook is not executed"
		rm -rf "$dir"
		return "$rc"
	fi
	local artifacts=${GAMEQUIV_ARTIFACTS:-$PWD/artifacts}
	mkdir -p "$artifacts" "$dir/data"
	# The notebook's server: lower limits keep the notebook within a few
	# minutes on two cores (a game past them shows its limit error).
	"$dir/server" --addr 127.0.0.1:0 --data "$dir/data" --job-timeout 30s --request-timeout 20s \
		--max-candidates 20000 2>"$dir/server.log" &
	local pid=$! addr="" i
	for i in $(seq 1 300); do
		addr=$(sed -n 's/.*"msg":"listening","addr":"\([^"]*\)".*/\1/p' "$dir/server.log" | head -1)
		[[ -n "$addr" ]] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if [[ -z "$addr" ]]; then
		echo "notebook server did not start:" >&2
		cat "$dir/server.log" >&2
		kill "$pid" 2>/dev/null
		rm -rf "$dir"
		return 1
	fi
	echo "executing examples/gamequiv.ipynb against http://$addr"
	local started=$SECONDS
	if GAMEQUIV_URL="http://$addr" GAMEQUIV_GAMES="$games_dir" PYDEVD_DISABLE_FILE_VALIDATION=1 PYTHONDONTWRITEBYTECODE=1 \
		"$py" -m nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 \
		--ExecutePreprocessor.kernel_name=python3 --output-dir "$artifacts" examples/gamequiv.ipynb; then
		echo "notebook executed in $((SECONDS - started))s: $artifacts/gamequiv.ipynb"
	else
		rc=1
		echo "notebook FAILED after $((SECONDS - started))s; the server log ends:" >&2
		tail -20 "$dir/server.log" >&2
	fi
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	cp "$dir/server.log" "$artifacts/gamequiv-server.log"
	rm -rf "$dir"
	return "$rc"
}

# --- steps ---------------------------------------------------------------

step "gofmt"
unformatted=$(find . \( -name .git -o -name testdata -o -name node_modules \) -prune \
	-o -type f -name '*.go' -print0 | xargs -0 -r gofmt -l)
if [[ -n "$unformatted" ]]; then
	echo "these files need gofmt (run: make fmt):" >&2
	echo "$unformatted" >&2
	exit 1
fi
echo "ok"

step "go vet ./..."
go vet ./...
echo "ok"

step "optional external tools"
for ensure in "${ENSURE[@]}"; do
	"$ensure"
done

test_flags=(-count=1 -timeout 25m)
# shellcheck disable=SC2206 # GAMEQUIV_TEST_FLAGS is a list of flags
test_flags+=(${GAMEQUIV_TEST_FLAGS:-})
step "go test ${test_flags[*]} ./..."
status=0
go test "${test_flags[@]}" ./... || status=$?

# A short run of each grounding fuzz target (seeded with the conformance
# games, testdata/bad and the crashers kept in grounding/testdata/fuzz).
# GAMEQUIV_FUZZTIME sets the time of each (default 15s; 0 skips the step).
fuzztime=${GAMEQUIV_FUZZTIME:-15s}
if [[ "$fuzztime" != "0" ]]; then
	for target in FuzzParse FuzzValidate FuzzGround; do
		step "go test ./grounding -run '^\$' -fuzz '^$target\$' -fuzztime $fuzztime"
		go test ./grounding -run '^$' -fuzz "^$target\$" -fuzztime "$fuzztime" || status=$?
	done
fi

if ((python_ok)); then
	step "python client: pytest clients/python/tests, execute examples/gamequiv.ipynb"
	python_client || status=$?
fi

for n in "${notices[@]}"; do
	echo "NOTICE: $n"
done
elapsed=$((SECONDS - started))
if ((status == 0)); then
	echo "test.sh: all checks passed in ${elapsed}s"
else
	echo "test.sh: go test FAILED (exit $status) after ${elapsed}s" >&2
fi
exit "$status"
