#!/usr/bin/env bash
# Benchmark dbgen against the sqlite3 shell at the TPC-H shape: 8 tables, 8.7 million rows at
# scale 1, imported with `.separator |` - clean, and with the trailing `|` TPC-H's generator
# writes (every row then has one field too many: sqlite3 warns once a row, dbgen reports the
# first few and a count) - then the 1M-row food benchmark (scripts/bench-dbgen.sh).
#
# usage: scripts/bench-tpch.sh [SCALE] [WORKDIR]
#   SCALE    TPC-H scale factor (default 1: 8,657,163 rows, about 1 GB of data per variant)
#   WORKDIR  where data and databases go (default: a fresh temporary directory, deleted after).
#            Data already generated there for the same SCALE is reused.
#   RUNS     (environment) timed runs of each tool per variant (default 3)
#   DBGEN    (environment) a dbgen binary to measure instead of this checkout's release build
#   FOOD     (environment) 0 skips the food benchmark
#
# Per variant: one untimed warm-up of each tool (so the data is in the page cache for both),
# then `dbgen --force` and `rm -f out.db; sqlite3 out.db < schema.txt` alternately, RUNS times
# each (their stderr, sqlite3's millions of warning lines included, goes to /dev/null; the shell
# is timed deleting its previous output too, as dbgen's rename over its own frees that file);
# prints each pair, the medians, the ratio of the medians (dbgen / sqlite3) with its range over
# the pairs, the same ratio against the shell's run alone, the CPU seconds (user + system) of
# both and their ratio, dbgen's peak RSS (largest over its runs), and checks that both databases
# hold the same content (the sqlite3 shell's `.sha3sum` of each). The load average before and
# after says how busy the machine was.
set -euo pipefail

SCALE="${1:-1}"
RUNS="${RUNS:-3}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
command -v sqlite3 >/dev/null || { echo "bench-tpch: sqlite3 is not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench-tpch: python3 is not installed" >&2; exit 2; }

WORK="${2:-$(mktemp -d "${TMPDIR:-/tmp}/bench-tpch.XXXXXX")}"
mkdir -p "$WORK"
if [ "$(cat "$WORK/data/.scale" 2>/dev/null)" != "$SCALE" ]; then
    echo "== generating TPC-H-shaped data, scale $SCALE, in $WORK/data"
    rm -rf "$WORK/data"
    python3 "$HERE/gen-tpch.py" "$SCALE" "$WORK/data" --both
    echo "$SCALE" > "$WORK/data/.scale"
fi

if [ -z "${DBGEN:-}" ]; then
    echo "== building dbgen (release)"
    (cd "$REPO" && swift build -c release --product dbgen >/dev/null)
    DBGEN="$(cd "$REPO" && swift build -c release --show-bin-path)/dbgen"
fi

sync  # let the writeback of the build and the generated data finish first (see bench-dbgen.sh)
for VARIANT in clean trailing; do
    echo "== $VARIANT (load before: $(uptime | sed 's/.*load average: //'))"
    (cd "$WORK/data/$VARIANT" && PYTHONPATH="$HERE" PYTHONDONTWRITEBYTECODE=1 python3 - "$DBGEN" "$WORK" "$RUNS" "$VARIANT" <<'PY'
import os, statistics, subprocess, sys
from bench_timing import shell_rebuild, spread, timed

dbgen, work, runs, variant = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
dbgen_out = os.path.join(work, f"dbgen-{variant}.sqlite")
sqlite_out = os.path.join(work, f"sqlite3-{variant}.sqlite")

def run_dbgen():
    return timed([dbgen, "schema.txt", "-o", dbgen_out, "--force"], stderr=subprocess.DEVNULL)

def run_sqlite3():
    return shell_rebuild(sqlite_out, stderr=subprocess.DEVNULL)

run_dbgen(); run_sqlite3()          # warm-up: page cache, first output in place
dbgen_times, sqlite_times, shell_times, rss, dbgen_cpu, sqlite_cpu = [], [], [], [], [], []
for run in range(1, runs + 1):
    ours = run_dbgen()
    d = ours.seconds
    s, shell = run_sqlite3()
    dbgen_times.append(d); sqlite_times.append(s); shell_times.append(shell.seconds); rss.append(ours.rss)
    dbgen_cpu.append(ours.cpu); sqlite_cpu.append(shell.cpu)
    print(f"   run {run}: dbgen {d:.2f} s, sqlite3 {s:.2f} s ({s - shell.seconds:.2f} s of it deleting the previous"
          f" output), ratio {d / s:.2f}, dbgen peak RSS {ours.rss / 1024:.1f} MiB", flush=True)

hashes = [subprocess.run(["sqlite3", path, ".sha3sum"], check=True, capture_output=True, text=True).stdout
          for path in (dbgen_out, sqlite_out)]
rows = subprocess.run(["sqlite3", dbgen_out, "SELECT sum(n) FROM (" + " UNION ALL ".join(
    f"SELECT count(*) AS n FROM {t}" for t in
    ("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem")) + ")"],
    check=True, capture_output=True, text=True).stdout.strip()

ratios = [d / s for d, s in zip(dbgen_times, sqlite_times)]
print(f"   {variant}, {rows} rows, {runs} runs each, alternating")
print(f"   dbgen:          {spread(dbgen_times, 2)}")
shell_ratios = [d / s for d, s in zip(dbgen_times, shell_times)]
print(f"   sqlite3 shell:  {spread(sqlite_times, 2)} (deleting its previous output included)")
print(f"   ratio:          {statistics.median(dbgen_times) / statistics.median(sqlite_times):.3f}"
      f" (median dbgen / median sqlite3; paired runs {min(ratios):.2f}-{max(ratios):.2f})")
print(f"   ratio, shell's run alone: {statistics.median(dbgen_times) / statistics.median(shell_times):.3f}"
      f" (paired runs {min(shell_ratios):.2f}-{max(shell_ratios):.2f})")
print(f"   CPU (user+sys): dbgen median {statistics.median(dbgen_cpu):.2f} s, sqlite3 {statistics.median(sqlite_cpu):.2f} s,"
      f" ratio {statistics.median(dbgen_cpu) / statistics.median(sqlite_cpu):.3f}")
print(f"   dbgen peak RSS: {max(rss) / 1024:.1f} MiB")
print(f"   content:        {'same as sqlite3 (.sha3sum)' if hashes[0] == hashes[1] else 'DIFFERENT from sqlite3'}")
if hashes[0] != hashes[1]:
    sys.exit(1)
PY
    )
    rm -f "$WORK"/dbgen-$VARIANT.sqlite "$WORK"/sqlite3-$VARIANT.sqlite
done
echo "== load after: $(uptime | sed 's/.*load average: //')"
if [ "${FOOD:-1}" != 0 ]; then
    echo "== food, 1,000,000 rows (scripts/bench-dbgen.sh)"
    DBGEN="$DBGEN" "$HERE/bench-dbgen.sh" 1000000 "$WORK/food"
fi
if [ -z "${2:-}" ]; then rm -rf "$WORK"; fi
