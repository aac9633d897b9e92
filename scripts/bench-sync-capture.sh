#!/usr/bin/env bash
# What the sync's capture costs an app's writes: the same writes through a prepared statement on
# a user database built by dbgen from a script with the docs/Sync.md example's tables, once
# without declarations (no capture) and once with them (the triggers dbgen installs), measured in
# the same run. Not a timed test: a benchmark that prints ratios.
#
# usage: scripts/bench-sync-capture.sh [WRITES] [WORKDIR]
#   WRITES   writes per run, each its own transaction (default 2000; 10x that in one transaction)
#   WORKDIR  where the databases go (default: a fresh temporary directory, deleted after)
#   RUNS     (environment) runs of each variant, alternating (default 7)
#   DBGEN    (environment) a dbgen binary instead of this checkout's release build
#
# Each write is one statement prepared once and stepped with new bindings, as an app does (GRDB's
# cached statements): an INSERT of a row, an UPDATE of one column, a counter increment, and an
# UPDATE of every column of the row with one value changed (a record's save). The database is in
# WAL mode; `synchronous` NORMAL (what apps set with WAL) and FULL (SQLite's default). A C program
# (cc, the system's libsqlite3) measures the CPU time (user + system, getrusage) and the wall time
# per write; the ratio is captured / plain, the median of the runs (min–max of paired runs).
#
# Alternatives measured on the captured database (made from dbgen's triggers by python3's
# sqlite3): `one-trigger`, one AFTER UPDATE trigger per table whose body has one INSERT per
# column (instead of one AFTER UPDATE OF trigger per column); `state-write`, the triggers as
# built plus a write of the state row per captured write (hlc_max kept by every write, the
# literal reading of docs/Sync.md, instead of raised when a batch is frozen).
set -euo pipefail

WRITES="${1:-2000}"
RUNS="${RUNS:-7}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
for tool in sqlite3 python3 cc; do
    command -v "$tool" >/dev/null || { echo "bench-sync-capture: $tool is not installed (scripts/setup.sh)" >&2; exit 2; }
done
WORK="${2:-}"
if [ -z "$WORK" ]; then
    WORK="$(mktemp -d "${TMPDIR:-/tmp}/bench-sync-capture.XXXXXX")"
    trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
if [ -z "${DBGEN:-}" ]; then
    echo "== building dbgen (release)"
    (cd "$REPO" && swift build -c release --product dbgen >/dev/null)
    DBGEN="$(cd "$REPO" && swift build -c release --show-bin-path)/dbgen"
fi

cat >"$WORK/tables.sql" <<'SQL'
CREATE TABLE list (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '', owner TEXT);
CREATE TABLE item (id TEXT PRIMARY KEY NOT NULL, list_id TEXT NOT NULL REFERENCES list(id) ON DELETE CASCADE,
                   name TEXT NOT NULL DEFAULT '', done INTEGER NOT NULL DEFAULT 0, quantity INTEGER NOT NULL DEFAULT 0);
CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
INSERT INTO list VALUES ('L1', 'Groceries', NULL);
SQL
cp "$WORK/tables.sql" "$WORK/plain.sql"
{ cat "$WORK/tables.sql"; cat <<'SQL'
INSERT INTO shipyard_sync VALUES ('list', NULL, 'last-edit-wins'), ('list', 'owner', 'keep-server'),
                                 ('item', NULL, 'last-edit-wins'), ('item', 'quantity', 'counter');
SQL
} >"$WORK/captured.sql"
"$DBGEN" "$WORK/plain.sql" -o "$WORK/plain.sqlite" --force --quiet
"$DBGEN" "$WORK/captured.sql" -o "$WORK/captured.sqlite" --force --quiet

python3 - "$WORK" <<'PY'
import re, shutil, sqlite3, sys, os
work = sys.argv[1]
for variant in ("one-trigger", "state-write"):
    path = os.path.join(work, variant + ".sqlite")
    shutil.copy(os.path.join(work, "captured.sqlite"), path)
    db = sqlite3.connect(path, isolation_level=None)
    triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    db.execute("BEGIN")
    if variant == "state-write":
        for name, sql in triggers:
            db.execute(f'DROP TRIGGER "{name}"')
            db.execute(sql[: sql.rindex("END")] + "UPDATE shipyard_sync_state SET hlc_max = hlc_max + 1;\nEND")
    else:
        bodies = {}
        for name, sql in triggers:
            match = re.match(r'CREATE TRIGGER "shipyard_sync_update_(\w+?)_(\w+)" AFTER UPDATE OF ("\w+") ON ("\w+") WHEN (.*?) AND NEW\.("\w+") IS OLD\.\6 BEGIN\n(.*)\nEND$', sql, re.S)
            if not match:
                continue
            table, column, key = match.group(4), match.group(3), match.group(6)
            body = match.group(7).replace("WHERE applying = 0", f"WHERE applying = 0 AND NEW.{column} IS NOT OLD.{column}")
            bodies.setdefault((table, key), []).append(body)
            db.execute(f'DROP TRIGGER "{name}"')
        for (table, key), parts in bodies.items():
            name = "shipyard_sync_update_" + table.strip('"')
            db.execute(f'CREATE TRIGGER "{name}" AFTER UPDATE ON {table} WHEN NEW.{key} IS OLD.{key} BEGIN\n' + "\n".join(parts) + "\nEND")
    db.execute("COMMIT")
PY

cat >"$WORK/writes.c" <<'C'
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
static double wall(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static double cpu(void) {
    struct rusage r; getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
}
static void run(sqlite3 *db, const char *sql) {
    char *error = 0;
    if (sqlite3_exec(db, sql, 0, 0, &error) != SQLITE_OK) { fprintf(stderr, "%s: %s\n", sql, error); exit(1); }
}
/* writes DB KIND N ONE-TRANSACTION SYNCHRONOUS: prints "wall_us cpu_us" per write */
int main(int argc, char **argv) {
    sqlite3 *db;
    if (argc != 6 || sqlite3_open(argv[1], &db) != SQLITE_OK) return 2;
    const char *kind = argv[2];
    int n = atoi(argv[3]), single = atoi(argv[4]);
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA synchronous = %s", argv[5]);
    run(db, "PRAGMA journal_mode = WAL");
    run(db, pragma);
    const char *sql =
        !strcmp(kind, "insert") ? "INSERT INTO item (id, list_id, name, quantity) VALUES (?1, 'L1', ?2, 0)"
        : !strcmp(kind, "update") ? "UPDATE item SET name = ?2 WHERE id = ?1"
        : !strcmp(kind, "counter") ? "UPDATE item SET quantity = quantity + 1 WHERE id = ?1 AND ?2 IS NOT NULL"
        : "UPDATE item SET list_id = 'L1', name = ?2, done = 0, quantity = quantity WHERE id = ?1";
    char id[32], name[32];
    if (strcmp(kind, "insert")) {  /* the rows the updates change, then an empty queue */
        run(db, "BEGIN");
        sqlite3_stmt *fill;
        sqlite3_prepare_v2(db, "INSERT INTO item (id, list_id, name) VALUES (?1, 'L1', 'x')", -1, &fill, 0);
        for (int i = 0; i < n; i++) {
            snprintf(id, sizeof id, "row-%08d", i);
            sqlite3_bind_text(fill, 1, id, -1, SQLITE_TRANSIENT);
            sqlite3_step(fill); sqlite3_reset(fill);
        }
        sqlite3_finalize(fill);
        run(db, "COMMIT");
        if (sqlite3_exec(db, "DELETE FROM shipyard_sync_outbox", 0, 0, 0) != SQLITE_OK) {}
        run(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    }
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, 0) != SQLITE_OK) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 1; }
    double w0 = wall(), c0 = cpu();
    if (single) run(db, "BEGIN");
    for (int i = 0; i < n; i++) {
        snprintf(id, sizeof id, "row-%08d", i);
        snprintf(name, sizeof name, "name %d", i);
        sqlite3_bind_text(statement, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(statement, 2, name, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(statement) != SQLITE_DONE) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); return 1; }
        sqlite3_reset(statement);
    }
    if (single) run(db, "COMMIT");
    printf("%.3f %.3f\n", (wall() - w0) / n * 1e6, (cpu() - c0) / n * 1e6);
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return 0;
}
C
cc -O2 -o "$WORK/writes" "$WORK/writes.c" -lsqlite3

echo "== $(sqlite3 --version | cut -d' ' -f1) (the system's libsqlite3); $RUNS runs of each, alternating; load: $(uptime | sed 's/.*load average: //')"
python3 - "$WORK" "$WRITES" "$RUNS" <<'PY'
import os, shutil, statistics, subprocess, sys
work, writes, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def measure(variant, kind, n, single, synchronous):
    path = os.path.join(work, "run.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix): os.remove(path + suffix)
    shutil.copy(os.path.join(work, variant + ".sqlite"), path)
    out = subprocess.run([os.path.join(work, "writes"), path, kind, str(n), str(single), synchronous],
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])

def compare(kind, single, synchronous, variants=("captured",)):
    n = writes * 10 if single else writes
    results = {v: [] for v in ("plain",) + variants}
    for _ in range(runs):
        for variant in results: results[variant].append(measure(variant, kind, n, single, synchronous))
    plain_cpu = [c for _, c in results["plain"]]
    line = f"{kind:8} {'one transaction' if single else 'each its own':16} {synchronous:6} plain {statistics.median(plain_cpu):7.2f} µs CPU"
    for variant in variants:
        cpu = [c for _, c in results[variant]]
        wall_ratio = statistics.median(w for w, _ in results[variant]) / statistics.median(w for w, _ in results["plain"])
        ratios = sorted(c / p for c, p in zip(cpu, plain_cpu))
        line += (f" | {variant} {statistics.median(cpu):7.2f} µs: {statistics.median(ratios):4.2f}x CPU"
                 f" ({ratios[0]:.2f}-{ratios[-1]:.2f}), {wall_ratio:4.2f}x wall")
    print(line, flush=True)

print("== the capture as dbgen installs it: captured / plain, per write")
for synchronous in ("NORMAL", "FULL"):
    for kind in ("insert", "update", "counter", "record"):
        compare(kind, 0, synchronous)
for kind in ("insert", "update", "counter", "record"):
    compare(kind, 1, "NORMAL")
print("== alternatives (same run): one UPDATE trigger per table; a state-row write per captured write")
for kind in ("update", "record"):
    compare(kind, 0, "NORMAL", ("captured", "one-trigger", "state-write"))
    compare(kind, 1, "NORMAL", ("captured", "one-trigger", "state-write"))
PY
