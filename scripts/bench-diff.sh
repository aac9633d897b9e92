#!/usr/bin/env bash
# Benchmark `dbgen diff` against sqldiff, and `dbgen update --database` of a large file.
#
# usage: scripts/bench-diff.sh [ROWS | tpch[:SCALE]] [WORKDIR]
#   ROWS        rows of the generated food table (default 1000000)
#   tpch:SCALE  the TPC-H pair instead (SCALE default 1: 8.7 million rows, about 1 GB a file)
#   WORKDIR     where data and databases go (default: a fresh temporary directory, deleted
#               after); a pair already there for the same argument is reused
#   RUNS        (environment) timed runs of each tool (default 5)
#   DBGEN       (environment) a dbgen binary to measure instead of this checkout's release build
#
# Food: OLD is built by dbgen from scripts/gen-food.py's data; NEW is OLD with 1% of the rows
# updated (kcal), 0.1% deleted and 0.1% inserted. TPC-H: OLD is built by dbgen from
# scripts/gen-tpch.py's data; NEW is OLD with 1% of lineitem's rows updated (l_quantity and
# l_comment), 0.1% deleted and 0.1% inserted (copies of others, at the end), the other seven
# tables as they were. After one untimed warm-up of each (page cache), `dbgen diff OLD NEW`
# and `sqldiff OLD NEW` run alternately, RUNS times each, output to /dev/null; prints min /
# median / max wall seconds of both, the ratio of the medians with its range over paired
# runs, and peak RSS of each (wait4). dbgen's patch is then checked: applied to a copy of OLD
# by sqlite3, it leaves nothing to diff against NEW. Last (food only), `dbgen update
# --database` installs NEW (about 100 MB at 1M rows): time and peak RSS.
set -euo pipefail

ROWS="${1:-1000000}"
case "$ROWS" in
    tpch) ROWS=tpch:1 ;;
    tpch:*|[0-9]*) ;;
    *) echo "bench-diff: ROWS is a number of rows or tpch[:SCALE], not $ROWS" >&2; exit 2 ;;
esac
RUNS="${RUNS:-5}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
for tool in sqlite3 sqldiff python3; do
    command -v "$tool" >/dev/null || { echo "bench-diff: $tool is not installed (scripts/setup.sh)" >&2; exit 2; }
done

WORK="${2:-$(mktemp -d "${TMPDIR:-/tmp}/bench-diff.XXXXXX")}"
mkdir -p "$WORK"
if [ -z "${DBGEN:-}" ]; then
    echo "== building dbgen (release)"
    (cd "$REPO" && swift build -c release --product dbgen >/dev/null)
    DBGEN="$(cd "$REPO" && swift build -c release --show-bin-path)/dbgen"
fi
if [ "$(cat "$WORK/.rows" 2>/dev/null)" != "$ROWS" ]; then
    rm -rf "$WORK/data" "$WORK/old.sqlite" "$WORK/new.sqlite"
    if [ "${ROWS#tpch:}" != "$ROWS" ]; then
        echo "== generating TPC-H-shaped data, scale ${ROWS#tpch:}, and the pair in $WORK"
        python3 "$HERE/gen-tpch.py" "${ROWS#tpch:}" "$WORK/data"
        (cd "$WORK/data" && "$DBGEN" schema.txt -o "$WORK/old.sqlite" --quiet --force)
        cp "$WORK/old.sqlite" "$WORK/new.sqlite"
        sqlite3 "$WORK/new.sqlite" <<SQL
BEGIN;
UPDATE lineitem SET l_quantity = l_quantity + 1, l_comment = l_comment || ' changed' WHERE rowid % 100 = 0;
DELETE FROM lineitem WHERE rowid % 1000 = 1;
INSERT INTO lineitem SELECT * FROM lineitem WHERE rowid % 1000 = 2;
PRAGMA user_version = 2;
COMMIT;
SQL
    else
        echo "== generating $ROWS rows and the pair in $WORK"
        python3 "$HERE/gen-food.py" "$ROWS" "$WORK/data"
        (cd "$WORK/data" && "$DBGEN" schema.txt -o "$WORK/old.sqlite" --quiet --force)
        cp "$WORK/old.sqlite" "$WORK/new.sqlite"
        sqlite3 "$WORK/new.sqlite" <<SQL
BEGIN;
UPDATE food SET kcal = kcal + 1.5 WHERE pk % 100 = 0;
DELETE FROM food WHERE pk % 1000 = 1;
INSERT INTO food SELECT pk + $ROWS, "group", name || ' new', desc, kcal FROM food WHERE pk % 1000 = 2;
PRAGMA user_version = 2;
COMMIT;
SQL
    fi
    echo "$ROWS" > "$WORK/.rows"
fi
sync  # let the writeback of the build and the generated data finish first (see bench-dbgen.sh)
echo "== $(du -m "$WORK/new.sqlite" | cut -f1) MB per database; load before: $(uptime | sed 's/.*load average: //')"

PYTHONPATH="$HERE" PYTHONDONTWRITEBYTECODE=1 python3 - "$DBGEN" "$WORK" "$RUNS" "$ROWS" <<'PY'
import os, shutil, statistics, subprocess, sys
from bench_timing import spread, timed

dbgen, work, runs, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
old, new = os.path.join(work, "old.sqlite"), os.path.join(work, "new.sqlite")

timed([dbgen, "diff", old, new]); timed(["sqldiff", old, new])   # warm-up
ours, theirs, our_rss, their_rss = [], [], [], []
for run in range(1, runs + 1):
    d, dr, _ = timed([dbgen, "diff", old, new])
    s, sr, _ = timed(["sqldiff", old, new])
    ours.append(d); theirs.append(s); our_rss.append(dr); their_rss.append(sr)
    print(f"   run {run}: dbgen diff {d:.3f} s, sqldiff {s:.3f} s, ratio {d / s:.2f}, "
          f"RSS {dr / 1024:.1f} / {sr / 1024:.1f} MiB", flush=True)
ratios = [d / s for d, s in zip(ours, theirs)]
what = f"TPC-H scale {rows[5:]}, lineitem" if rows.startswith("tpch:") else f"{rows} rows"
print(f"== diff results ({what}; 1% updated, 0.1% deleted, 0.1% inserted; {runs} runs each, alternating)")
print(f"dbgen diff:     {spread(ours)}, peak RSS {max(our_rss) / 1024:.1f} MiB")
print(f"sqldiff:        {spread(theirs)}, peak RSS {max(their_rss) / 1024:.1f} MiB")
print(f"ratio:          {statistics.median(ours) / statistics.median(theirs):.2f} (median dbgen / median sqldiff;"
      f" paired runs {min(ratios):.2f}-{max(ratios):.2f})")

patch = os.path.join(work, "patch.sql")
with open(patch, "wb") as out:
    timed([dbgen, "diff", old, new], stdout=out)
sqldiff_size = len(subprocess.run(["sqldiff", old, new], check=True, capture_output=True).stdout)
copy = os.path.join(work, "copy.sqlite")
shutil.copyfile(old, copy)
with open(patch, "rb") as script:
    subprocess.run(["sqlite3", "-bail", copy], stdin=script, check=True)
left = subprocess.run([dbgen, "diff", copy, new], check=True, capture_output=True).stdout
print(f"patch:          {os.path.getsize(patch)} bytes (sqldiff's {sqldiff_size}); applied to OLD it leaves "
      f"{'nothing' if not left else len(left)} to diff against NEW")

if rows.startswith("tpch:"):
    sys.exit(0)
updates = os.path.join(work, "updates")
times, rss = [], []
for _ in range(3):
    shutil.rmtree(updates, ignore_errors=True)
    t, r, _ = timed([dbgen, "update", "--bundled", old, "--updates", updates, "--database", new])
    times.append(t); rss.append(r)
print(f"update --database ({os.path.getsize(new) / 1e6:.0f} MB): {spread(times)}, peak RSS {max(rss) / 1024:.1f} MiB")
PY
echo "== load after: $(uptime | sed 's/.*load average: //')"
if [ -z "${2:-}" ]; then rm -rf "$WORK"; fi
