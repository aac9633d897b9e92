#!/usr/bin/env bash
# The sync's figures of issue 35, each measured in this run (docs/Performance.md, "Sync on the
# wire"), and the server's throughput against pgbench's.
#
#   scripts/bench-sync.sh [--debug] [ROWS] [SECONDS] [CLIENTS]
#
# Builds dbgen and Server/'s shipyard-sync-server and shipyard-sync-bench in release (--debug:
# the debug builds, and no throughput figure, which is a release figure), starts a PostgreSQL 15
# cluster of its own (Examples/Sync/postgres.sh: 127.0.0.1, a free port, stopped at the end), then
# scripts/bench_sync.py: bytes on the wire per edit (every request and answer, headers included,
# through a counting proxy) next to cr-sqlite's and PowerSync's change formats for the same 100
# changes, computed by it; the no-news sync; the initial sync of ROWS rows (default 100,000)
# against the same rows as JSON; the latency of a write on one device reaching another. Then
# scripts/bench-sync-server.sh SECONDS CLIENTS (default 20 s, 8 clients): applied changes/s and
# pgbench's TPC-B transactions/s on this machine. DBGEN and SYNC_SERVER in the environment
# name executables to use instead of building them.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=release
if [ "${1:-}" = --debug ]; then configuration=debug; shift; fi
rows=${1:-100000}
seconds=${2:-20}
clients=${3:-8}
if [ -z "${DBGEN:-}" ]; then
  swift build -c "$configuration" --product dbgen >&2
  DBGEN="$(swift build -c "$configuration" --show-bin-path)/dbgen"
fi
if [ -z "${SYNC_SERVER:-}" ]; then
  swift build -c "$configuration" --package-path Server --product shipyard-sync-server >&2
  SYNC_SERVER="$(swift build -c "$configuration" --package-path Server --show-bin-path)/shipyard-sync-server"
fi
work=$(mktemp -d /tmp/shipyard-bench-sync-XXXXXX)
pg=$(mktemp -d /tmp/shipyard-bench-sync-pg-XXXXXX)  # its own: postgres.sh hands it to the postgres user
cleanup() {
  Examples/Sync/postgres.sh stop "$pg"
  rm -rf "$work"
}
trap cleanup EXIT
postgres=$(Examples/Sync/postgres.sh start "$pg")
echo "bench-sync: dbgen $DBGEN, server $SYNC_SERVER"
python3 scripts/bench_sync.py "$DBGEN" "$SYNC_SERVER" "$postgres" "$work/devices" "$rows"
if [ "$configuration" = release ]; then
  scripts/bench-sync-server.sh "$seconds" "$clients"
else
  echo "bench-sync: no throughput figure with --debug (scripts/bench-sync-server.sh builds and measures release)"
fi
