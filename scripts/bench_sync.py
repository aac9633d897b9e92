#!/usr/bin/env python3
"""The sync's figures on the wire, measured in one run (scripts/bench-sync.sh starts what it needs).

usage: bench_sync.py DBGEN SYNC_SERVER POSTGRES_URL WORK [ROWS]

Starts shipyard-sync-server over POSTGRES_URL and a counting TCP proxy in front of it on
127.0.0.1: every byte of every request and answer (HTTP headers included) and every request
passes through it. Devices are user databases made from one template (dbgen builds it from a
schema script declaring one synced table), written with Python's sqlite3 (the template's
triggers capture the writes) and synced by `dbgen sync` (SyncClient). Prints:

- bytes on the wire per edit: 100 rows, one column edited in each, one sync of the editing
  device; next to the same 100 changes encoded as cr-sqlite's crsql_changes rows and as
  PowerSync's upload (CrudEntry) and download (OplogEntry) JSON, computed here from their
  documented fields (payload only, no HTTP or framing: a lower bound for them);
- the no-news sync: requests and bytes;
- the initial sync of a ROWS-row space (default 100,000) on a new device, against the same
  rows as compact JSON;
- the latency of a write on device A reaching device B (write, `dbgen sync` of A, `dbgen sync`
  of B, two process launches included), median of 7.
"""
import json
import os
import socket
import sqlite3
import statistics
import struct
import subprocess
import sys
import threading
import time
import uuid

SCHEMA = """PRAGMA user_version = 1;
CREATE TABLE item (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL DEFAULT '', quantity INTEGER NOT NULL DEFAULT 0);
CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
INSERT INTO shipyard_sync VALUES ('item', NULL, 'last-edit-wins');
"""


class CountingProxy:
    """A TCP forwarder on 127.0.0.1 counting the bytes each way and the HTTP requests."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.reset()
        threading.Thread(target=self.accept, daemon=True).start()

    def reset(self):
        with self.lock:
            self.up = 0
            self.down = 0
            self.requests = 0

    def figures(self):
        with self.lock:
            return self.up, self.down, self.requests

    def accept(self):
        while True:
            client, _ = self.listener.accept()
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            threading.Thread(target=self.pipe, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self.pipe, args=(upstream, client, False), daemon=True).start()

    def pipe(self, source, sink, upward):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                with self.lock:
                    if upward:
                        self.up += len(data)
                        self.requests += data.count(b"POST /v1/sync")
                    else:
                        self.down += len(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"bench-sync: {' '.join(args[:2])}: exit {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    dbgen, server, postgres, work = sys.argv[1:5]
    rows = int(sys.argv[5]) if len(sys.argv) == 6 else 100_000
    os.makedirs(work, exist_ok=True)
    schema = os.path.join(work, "user.txt")
    with open(schema, "w") as f:
        f.write(SCHEMA)
    run([dbgen, "keys", "generate", "--out", os.path.join(work, "sync.key")])
    with open(os.path.join(work, "jwks.json"), "w") as f:
        f.write(run([dbgen, "keys", "jwks", os.path.join(work, "sync.key")]))
    template = os.path.join(work, "template.sqlite")
    run([dbgen, schema, "-o", template])
    log = open(os.path.join(work, "server.log"), "w")
    process = subprocess.Popen(
        [server, "--postgres", postgres, "--listen", "127.0.0.1:0", "--schema", schema,
         "--jwks", os.path.join(work, "jwks.json"), "--max-batch-rows", "5000"],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        port = None
        for _ in range(600):
            text = open(os.path.join(work, "server.log")).read()
            if "listening on " in text:
                port = int(text.split("listening on ")[1].split()[0].rsplit(":", 1)[1])
                break
            if process.poll() is not None:
                sys.exit("bench-sync: the server exited: " + text)
            time.sleep(0.1)
        if port is None:
            sys.exit("bench-sync: the server did not start")
        measure(dbgen, work, template, CountingProxy(port), rows)
    finally:
        process.terminate()
        process.wait()


def device(work, template, name):
    path = os.path.join(work, f"device-{name}.sqlite")
    with open(template, "rb") as source, open(path, "wb") as sink:
        sink.write(source.read())
    return path


def measure(dbgen, work, template, proxy, rows):
    url = f"http://127.0.0.1:{proxy.port}"
    space = 0

    def token():
        return run([dbgen, "sync", "token", "--key", os.path.join(work, "sync.key"), "--user",
                    f"bench{space}", "--expires", "3600"]).strip()

    def sync(path, bearer):
        return json.loads(run([dbgen, "sync", path, "--server", url, "--token", bearer, "--json"]))

    # --- 1. One column edited in each of 100 rows, one sync of the editing device.
    bearer = token()
    a, b = device(work, template, "a"), device(work, template, "b")
    ids = [str(uuid.uuid4()) for _ in range(100)]
    with sqlite3.connect(a) as db:
        db.executemany("INSERT INTO item (id, name, quantity) VALUES (?, ?, ?)",
                       [(key, f"Item {i}", i % 7) for i, key in enumerate(ids)])
    sync(a, bearer)
    sync(b, bearer)
    new_names = {key: f"Item {i} (done)" for i, key in enumerate(ids)}
    with sqlite3.connect(a) as db:
        db.executemany("UPDATE item SET name = ? WHERE id = ?", [(v, k) for k, v in new_names.items()])
    proxy.reset()
    report = sync(a, bearer)
    up, down, requests = proxy.figures()
    assert report["sent"] == 100, report
    ours = (up + down) / 100
    proxy.reset()
    sync(b, bearer)
    b_up, b_down, b_requests = proxy.figures()
    with sqlite3.connect(b) as db:
        got = dict(db.execute("SELECT id, name FROM item"))
    assert all(got[k] == v for k, v in new_names.items()), "device B did not get the edits"
    with sqlite3.connect(a) as db:
        quantities = dict(db.execute("SELECT id, quantity FROM item"))
    crsqlite = sum(crsqlite_change_bytes("item", key, "name", value) for key, value in new_names.items()) / 100
    upload = sum(len(powersync_crud_json(i, key, value)) for i, (key, value) in enumerate(new_names.items()))
    download = sum(len(powersync_oplog_json(i, key, value, quantities[key]))
                   for i, (key, value) in enumerate(new_names.items()))
    powersync = (upload + download) / 100
    print(f"bytes per edit (100 rows, one column each, one sync of the editing device, headers included): "
          f"{ours:.1f} B ({requests} request(s), {up} B up, {down} B down; goal <= 40)")
    print(f"  receiving device's sync of them: {(b_up + b_down) / 100:.1f} B per edit ({b_requests} request(s))")
    print(f"  cr-sqlite crsql_changes rows, fields length-prefixed, no transport: {crsqlite:.1f} B per edit; "
          f"ratio Shipyard / cr-sqlite {ours / crsqlite:.2f}")
    print(f"  PowerSync CrudEntry upload + OplogEntry download JSON, no transport: {powersync:.1f} B per edit "
          f"({upload / 100:.1f} + {download / 100:.1f}); ratio Shipyard / PowerSync {ours / powersync:.2f}")

    # --- 2. Nothing new.
    proxy.reset()
    report = sync(b, bearer)
    up, down, requests = proxy.figures()
    print(f"no-news sync: {requests} request(s), {up + down} B ({up} up, {down} down; goal <= 1 request, <= 1,536 B)")

    # --- 3. The initial sync of a ROWS-row space on a new device.
    space = 1
    bearer = token()
    a, c = device(work, template, "big-a"), device(work, template, "big-c")
    data = [(str(uuid.uuid4()), f"Item {i} of the list", i % 100) for i in range(rows)]
    with sqlite3.connect(a) as db:
        db.executemany("INSERT INTO item (id, name, quantity) VALUES (?, ?, ?)", data)
    started = time.monotonic()
    proxy.reset()
    report = sync(a, bearer)
    upload_seconds = time.monotonic() - started
    up_a, down_a, requests_a = proxy.figures()
    proxy.reset()
    started = time.monotonic()
    report = sync(c, bearer)
    download_seconds = time.monotonic() - started
    up, down, requests = proxy.figures()
    with sqlite3.connect(c) as db:
        count = db.execute("SELECT count(*) FROM item").fetchone()[0]
    assert count == rows, f"the new device has {count} rows"
    as_json = len(json.dumps([{"id": k, "name": n, "quantity": q} for k, n, q in data], separators=(",", ":")))
    print(f"initial sync of {rows:,} rows on a new device: {up + down:,} B on the wire in {requests} request(s), "
          f"{download_seconds:.1f} s; the same rows as compact JSON {as_json:,} B; ratio {(up + down) / as_json:.2f} "
          f"(goal <= 0.5)")
    print(f"  the upload of them from the first device: {up_a + down_a:,} B in {requests_a} request(s), "
          f"{upload_seconds:.1f} s ({rows * 3 / upload_seconds:,.0f} cells/s through one device)")

    # --- 4. A write on device A reaching device B.
    space = 2
    bearer = token()
    a, b = device(work, template, "lat-a"), device(work, template, "lat-b")
    sync(a, bearer)
    sync(b, bearer)
    timings = []
    for i in range(7):
        key = str(uuid.uuid4())
        started = time.monotonic()
        with sqlite3.connect(a) as db:
            db.execute("INSERT INTO item (id, name) VALUES (?, ?)", (key, f"latency {i}"))
        sync(a, bearer)
        sync(b, bearer)
        with sqlite3.connect(b) as db:
            assert db.execute("SELECT count(*) FROM item WHERE id = ?", (key,)).fetchone()[0] == 1
        timings.append(time.monotonic() - started)
    print(f"a write on device A reaching device B (write, dbgen sync A, dbgen sync B): median "
          f"{statistics.median(timings) * 1000:.0f} ms (min {min(timings) * 1000:.0f}, max {max(timings) * 1000:.0f})")


def varint_size(n):
    size = 1
    while n >= 0x80:
        n >>= 7
        size += 1
    return size


def crsqlite_change_bytes(table, key, column, value):
    """One crsql_changes row (table, pk, cid, val, col_version, db_version, site_id, cl, seq),
    every field with a varint length or as a varint: the least any transport of it needs.
    pk is cr-sqlite's packed key: a column count, a type byte and the length, then the bytes."""
    key_bytes = key.encode()
    pk = 1 + 1 + varint_size(len(key_bytes)) + len(key_bytes)
    fields = [table.encode(), b"x" * pk, column.encode(), value.encode()]
    size = sum(varint_size(len(f)) + len(f) for f in fields)
    size += 1 + varint_size(2)  # val's type, col_version 2 (the second write of the cell)
    size += varint_size(5)  # db_version
    size += varint_size(16) + 16  # site_id, 16 bytes
    size += varint_size(1) + varint_size(0)  # cl 1 (exists), seq 0
    return size


def powersync_crud_json(index, key, value):
    """The device's upload: a CrudEntry as the SDKs' toJSON gives it (op_id, op, type, id, tx_id, data)."""
    entry = {"op_id": index + 1, "op": "PATCH", "type": "item", "id": key, "tx_id": 1, "data": {"name": value}}
    return json.dumps(entry, separators=(",", ":"))


def powersync_oplog_json(index, key, value, quantity):
    """What the service streams back: an OplogEntry (op_id, op, object_type, object_id, data as a
    JSON string of the whole row, checksum); no subkey, no bucket or checkpoint lines."""
    row = json.dumps({"id": key, "name": value, "quantity": quantity}, separators=(",", ":"))
    entry = {"op_id": str(1000 + index), "op": "PUT", "object_type": "item", "object_id": key, "data": row,
             "checksum": struct.unpack("<I", uuid.UUID(key).bytes[:4])[0]}
    return json.dumps(entry, separators=(",", ":"))


if __name__ == "__main__":
    main()
