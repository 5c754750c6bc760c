#!/usr/bin/env bash
# Usage: client/interop/run.sh TOOLGATE_BINARY
#
# Runs the Python and Node client suites against the real toolgate binary
# (`make interop` builds it and calls this). Starts three replicas on free
# loopback ports, each its own process with its own schema store:
#   A and B  plain replicas; the suites compile on one and call the other,
#            to check that the clients survive a replica without the handle;
#   AUTH     a replica that requires a bearer token.
# Their addresses reach the suites as TOOLGATE_ADDR_A, TOOLGATE_ADDR_B and
# TOOLGATE_ADDR_AUTH (with TOOLGATE_TOKEN). Both suites run even if the
# first fails; the replicas are stopped on every exit. Exit status: 0 when
# both passed.
set -euo pipefail

if (($# != 1)); then
	echo "usage: $0 TOOLGATE_BINARY" >&2
	exit 2
fi
bin=$1
root="$(cd "$(dirname "$0")/../.." && pwd)"
python=${PYTHON:-/usr/bin/python3}
work="$(mktemp -d)"
pids=()

cleanup() {
	local pid
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$work"
}
trap cleanup EXIT

# start_replica NAME [FLAG...] starts a replica and sets TOOLGATE_ADDR_NAME
# to the address it logs once listening (within 10 s).
start_replica() {
	local name=$1 log="$work/$1.log" addr="" i
	shift
	# Created here, not by the background redirection, which may come after
	# the first read below (a failed read would end the script).
	: >"$log"
	"$bin" --addr 127.0.0.1:0 "$@" 2>"$log" &
	pids+=("$!")
	for ((i = 0; i < 100; i++)); do
		addr="$(sed -n 's/.*msg=listening addr=\([^ ]*\).*/\1/p' "$log")"
		[[ -n "$addr" ]] && break
		sleep 0.1
	done
	if [[ -z "$addr" ]]; then
		echo "interop: replica $name did not report its address; its log:" >&2
		cat "$log" >&2
		exit 1
	fi
	export "TOOLGATE_ADDR_$name=$addr"
	echo "interop: replica $name on $addr"
}

export TOOLGATE_TOKEN="interop-$RANDOM$RANDOM"
printf '%s\n' "$TOOLGATE_TOKEN" >"$work/token"
start_replica A
start_replica B
start_replica AUTH --token-file "$work/token"

status=0
echo "interop: Python client ($python)"
(cd "$root/client/python" && "$python" -m unittest discover -s tests -t . -v) || status=1
echo "interop: Node client ($(node --version))"
(cd "$root/client/node" && npm test && npm run --silent typecheck) || status=1
exit "$status"
