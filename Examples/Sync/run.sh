#!/usr/bin/env bash
# Two devices and a sync server: a PostgreSQL 15 cluster of the script's own (postgres.sh: initdb
# and pg_ctl from Debian's postgresql in a temporary directory, 127.0.0.1, stopped at the end),
# shipyard-sync-server in front of it, and two user databases made from the template dbgen builds
# of user.dbgen.txt, each synced by `dbgen sync` (SyncClient, the code an app links). Device A writes offline, both
# sync, device B shows A's row; then both edit the same row offline and the rules decide.
#
# usage: Examples/Sync/run.sh DBGEN SYNC_SERVER WORK
#   DBGEN        the dbgen executable (swift build --product dbgen)
#   SYNC_SERVER  shipyard-sync-server (swift build --package-path Server --product shipyard-sync-server)
#   WORK         a directory for the keys, the template and the two devices (emptied first)
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 DBGEN SYNC_SERVER WORK" >&2; exit 1; }
dbgen=$1
server=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$3"
mkdir -p "$3"
work=$(cd "$3" && pwd)
# PostgreSQL: a cluster of the script's own (postgres.sh), stopped and removed at the end.
pg=$(mktemp -d /tmp/shipyard-sync-example-XXXXXX)
server_pid=
cleanup() {
  [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
  "$here/postgres.sh" stop "$pg"
}
trap cleanup EXIT
postgres=$("$here/postgres.sh" start "$pg")

# The key that signs the devices' tokens, and the key set the server verifies them with.
"$dbgen" keys generate --out "$work/sync.key" >/dev/null
"$dbgen" keys jwks "$work/sync.key" >"$work/jwks.json"

# The server reads what syncs from the same schema script the template is built from.
"$server" --postgres "$postgres" \
  --listen 127.0.0.1:0 --schema "$here/user.dbgen.txt" --jwks "$work/jwks.json" >"$work/server.log" 2>&1 &
server_pid=$!
address=
for _ in $(seq 300); do
  address=$(sed -n 's/.*listening on \([0-9.]*:[0-9]*\).*/\1/p' "$work/server.log" | head -n 1)
  [ -n "$address" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$address" ] || { echo "shipyard-sync-server: error: did not start" >&2; cat "$work/server.log" >&2; exit 1; }
url="http://$address"

# Two devices of one user: two user databases made from the template (as LayeredDatabase makes
# one on first launch), each with a token for the user ann.
"$dbgen" "$here/user.dbgen.txt" -o "$work/user-template.sqlite" 2>/dev/null
cp "$work/user-template.sqlite" "$work/device-a.sqlite"
cp "$work/user-template.sqlite" "$work/device-b.sqlite"
"$dbgen" sync token --key "$work/sync.key" --user ann --expires 600 >"$work/token"
sync_device() { # NAME: one sync; prints what it did
  local json
  json=$("$dbgen" sync "$work/device-$1.sqlite" --server "$url" --token "$(cat "$work/token")" --json)
  python3 -c 'import json, sys; r = json.loads(sys.argv[2]); print("Device %s synced: sent %d, received %d, conflicts %d" % (sys.argv[1], r["sent"], r["received"], r["conflicts"]))' "${1^^}" "$json"
}
show() { # NAME: the device's list
  echo "Device ${1^^}: $(sqlite3 "$work/device-$1.sqlite" "SELECT coalesce(group_concat(name || ' x' || quantity, ', '), '(empty)') FROM (SELECT * FROM item ORDER BY name)")"
}

# Device A writes offline, with sqlite3 as any app connection would: the template's triggers queue it.
sqlite3 "$work/device-a.sqlite" "INSERT INTO item (id, name, quantity) VALUES ('9d7a2c1e-53f4-4c39-9f5e-0b6d8e2a4f10', 'Milk', 1)"
echo "Device A, offline: $(sqlite3 "$work/device-a.sqlite" "SELECT name || ' x' || quantity FROM item"), queued for sync: $(sqlite3 "$work/device-a.sqlite" "SELECT count(DISTINCT pk) FROM shipyard_sync_outbox") row"
show b
sync_device a
sync_device b
show b

# Both offline, both edit the row: A renames it and adds 2; a moment later B renames it and adds 1.
sqlite3 "$work/device-a.sqlite" "UPDATE item SET name = 'Oat milk', quantity = quantity + 2"
sleep 0.05
sqlite3 "$work/device-b.sqlite" "UPDATE item SET name = 'Whole milk', quantity = quantity + 1"
echo "Offline: A renames it Oat milk and adds 2, then B renames it Whole milk and adds 1"
sync_device a
sync_device b
sync_device a
echo "Rules: name last-edit-wins (B's later edit), quantity counter (1 + 2 + 1)"
show a
show b
