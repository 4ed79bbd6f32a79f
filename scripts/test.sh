#!/usr/bin/env bash
# scripts/test.sh: the one test command of gamequiv (`make test`, .ci/run).
#
#   1. gofmt: every .go file must be formatted (testdata excluded);
#   2. go vet ./...;
#   3. optional external tools (nauty's dreadnaut, bliss): installed with apt
#      when running as root with CI=true, otherwise a visible NOTICE says
#      which tests are skipped;
#   4. go test -count=1 -timeout 25m ./... ($GAMEQUIV_TEST_FLAGS is added,
#      e.g. GAMEQUIV_TEST_FLAGS=-race).
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

# may_install: true when this run may install system packages itself.
may_install() {
	[[ "${CI:-}" == "true" && "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null
}

# apt_install PKG...: install Debian packages, running apt-get update once per run.
apt_install() {
	if ((apt_updated == 0)); then
		echo "apt-get update"
		DEBIAN_FRONTEND=noninteractive apt-get update -qq || echo "warning: apt-get update failed" >&2
		apt_updated=1
	fi
	echo "apt-get install $*"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
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

ensure_nauty() { optional_tool dreadnaut nauty; }
ensure_bliss() { optional_tool bliss bliss; }
ensure_minisat() { optional_tool minisat minisat; }
ensure_cadical() { optional_tool cadical cadical; }

ENSURE=(ensure_nauty ensure_bliss ensure_minisat ensure_cadical)

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
