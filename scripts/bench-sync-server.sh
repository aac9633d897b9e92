#!/usr/bin/env bash
# The sync server's throughput on this machine, with PostgreSQL beside it, and pgbench's TPC-B
# figure measured in the same run for scale.
#
#   scripts/bench-sync-server.sh [SECONDS] [CLIENTS]
#
# Builds Server/ in release, starts a PostgreSQL 15 cluster of its own (initdb/pg_ctl from
# Debian's postgresql, 127.0.0.1 and a free port, as the postgres user when run as root; default
# settings, so commits are fsynced), runs pgbench (scale 10, CLIENTS clients, SECONDS seconds),
# then shipyard-sync-bench: CLIENTS devices, each in a space of its own, sending batches of 100
# edits for SECONDS seconds through shipyard-sync-server; then the same with every device in one
# space. Prints each figure and the ratio of applied changes/s to pgbench's transactions/s.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
clients=${2:-8}
bin=${SHIPYARD_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
[ -x "$bin/initdb" ] || { echo "bench-sync-server: PostgreSQL 15 is not installed; run scripts/setup.sh" >&2; exit 1; }

swift build -c release --package-path Server --product shipyard-sync-server >&2
swift build -c release --package-path Server --product shipyard-sync-bench >&2
release=$(swift build -c release --package-path Server --show-bin-path)

dir=$(mktemp -d /tmp/shipyard-bench-pg-XXXXXX)
as=()
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; as=(runuser -u postgres --); fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() {
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
"${as[@]}" "$bin/initdb" -D "$dir/data" -U shipyard --auth=trust -E UTF8 --locale=C --no-sync >/dev/null
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w \
  -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c max_connections=200" start >/dev/null
url="postgres://shipyard@127.0.0.1:$port/postgres?sslmode=disable"

echo "bench-sync-server: pgbench (TPC-B, scale 10, $clients clients, ${seconds}s)" >&2
"$bin/pgbench" -h 127.0.0.1 -p "$port" -U shipyard -i -s 10 -q postgres >/dev/null 2>&1
tps=$("$bin/pgbench" -h 127.0.0.1 -p "$port" -U shipyard -c "$clients" -j 2 -T "$seconds" postgres 2>/dev/null \
  | awk '/^tps = / { print int($3); exit }')
echo "pgbench: $tps TPC-B transactions/s"

cat > "$dir/user.sql" <<'SQL'
CREATE TABLE list (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '');
CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
INSERT INTO shipyard_sync VALUES ('list', NULL, 'last-edit-wins');
SQL
chmod a+r "$dir/user.sql"
for mode in spaces one-space; do
  flag=()
  [ "$mode" = one-space ] && flag=(--one-space)
  line=$("$release/shipyard-sync-bench" --server "$release/shipyard-sync-server" --postgres "$url" \
    --schema "$dir/user.sql" --clients "$clients" --seconds "$seconds" "${flag[@]}")
  echo "$line"
  rate=$(printf '%s\n' "$line" | sed -E 's/.*: ([0-9]+) applied changes\/s.*/\1/')
  echo "ratio ($mode): $(python3 -c "print(f'{$rate / max($tps, 1):.1f}')") applied changes per pgbench transaction"
done
