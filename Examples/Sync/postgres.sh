#!/usr/bin/env bash
# A PostgreSQL 15 cluster of one's own, for the sync examples and recipes: initdb and pg_ctl
# from Debian's postgresql (scripts/setup.sh installs it) into DIR, listening on 127.0.0.1 only,
# on a free port, trusting local connections of the user `shipyard`. initdb and pg_ctl refuse
# root, so as root they run as Debian's postgres user.
#
# usage: Examples/Sync/postgres.sh start DIR    prints the --postgres URL of its database
#        Examples/Sync/postgres.sh stop DIR     stops it and removes DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 start|stop DIR" >&2; exit 1; }
dir=$2
bin=${SHIPYARD_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
as=()
[ "$(id -u)" -ne 0 ] || as=(runuser -u postgres --)
case $1 in
start)
  [ -x "$bin/initdb" ] || { echo "$bin/initdb: error: PostgreSQL 15 is not installed; run scripts/setup.sh" >&2; exit 1; }
  mkdir -p "$dir"
  [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${as[@]}" "$bin/initdb" -D "$dir/data" -U shipyard --auth=trust -E UTF8 --locale=C --no-sync >/dev/null
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w \
    -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir" start >/dev/null
  echo "postgres://shipyard@127.0.0.1:$port/postgres?sslmode=disable"
  ;;
stop)
  [ ! -d "$dir/data" ] || "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  ;;
*) echo "usage: $0 start|stop DIR" >&2; exit 1 ;;
esac
