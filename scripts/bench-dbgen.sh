#!/usr/bin/env bash
# Benchmark dbgen against the sqlite3 shell on generated food data.
#
# usage: scripts/bench-dbgen.sh [ROWS] [WORKDIR]
#   ROWS     rows to generate (default 1000000; 10000000 makes about 1 GB of data)
#   WORKDIR  where data and databases go (default: a fresh temporary directory, deleted after).
#            Data already generated there for the same ROWS is reused.
#   RUNS     (environment) timed runs of each tool (default 5; 2 when ROWS > 1000000)
#   DBGEN    (environment) a dbgen binary to measure instead of this checkout's release build
#            (e.g. an older build, for before/after figures)
#
# After one untimed warm-up of each tool (so the CSV is in the page cache for both), runs
# `dbgen --force` (a real rebuild: it replaces the previous output) and
# `rm -f out.db; sqlite3 out.db < schema.txt` alternately, RUNS times each. Each tool is timed
# doing the whole job: dbgen's rename over its previous output frees that file (ext4 does it
# in the rename, about 20 ms for 100 MB), so the shell is timed deleting its previous output
# too (without that it would fail at CREATE TABLE). Prints min / median / max wall-clock
# seconds of both, the ratio of the medians (dbgen / sqlite3) with the ratio's range over the
# paired runs, the same ratio against the shell's run alone (the deletion left out, as this
# script measured before), the CPU seconds (user + system) of both and their ratio, dbgen's
# peak RSS (largest over its runs), and the no-op rebuild (inputs unchanged) time with its
# share of a build.
set -euo pipefail

ROWS="${1:-1000000}"
if [ "$ROWS" -gt 1000000 ]; then RUNS="${RUNS:-2}"; else RUNS="${RUNS:-5}"; fi
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
GEN="$HERE/gen-food.py"   # deterministic food rows + the schema script importing them
command -v sqlite3 >/dev/null || { echo "bench-dbgen: sqlite3 is not installed" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench-dbgen: python3 is not installed" >&2; exit 2; }

WORK="${2:-$(mktemp -d "${TMPDIR:-/tmp}/bench-dbgen.XXXXXX")}"
mkdir -p "$WORK"
if [ "$(cat "$WORK/data/.rows" 2>/dev/null)" != "$ROWS" ]; then
    echo "== generating $ROWS rows in $WORK/data"
    python3 "$GEN" "$ROWS" "$WORK/data"
    echo "$ROWS" > "$WORK/data/.rows"
fi

if [ -z "${DBGEN:-}" ]; then
    echo "== building dbgen (release)"
    (cd "$REPO" && swift build -c release --product dbgen >/dev/null)
    DBGEN="$(cd "$REPO" && swift build -c release --show-bin-path)/dbgen"
fi

# The build and the data generation leave the kernel writing back hundreds of megabytes; both
# tools fsync their output, and the first to run waits behind that writeback (right after a
# build, dbgen's runs took 0.69 s against 0.59 s after a sync: ratio 0.505 against 0.429).
sync
echo "== load before: $(uptime | sed 's/.*load average: //')"
cd "$WORK/data"
PYTHONPATH="$HERE" PYTHONDONTWRITEBYTECODE=1 python3 - "$DBGEN" "$WORK" "$RUNS" "$ROWS" <<'PY'
import os, statistics, subprocess, sys
from bench_timing import shell_rebuild, spread, timed

dbgen, work, runs, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
dbgen_out = os.path.join(work, "dbgen.sqlite")
sqlite_out = os.path.join(work, "sqlite3.sqlite")

def run_dbgen(*extra):
    return timed([dbgen, "schema.txt", "-o", dbgen_out, "--quiet", *extra])

def run_sqlite3():
    return shell_rebuild(sqlite_out)

run_dbgen("--force"); run_sqlite3()          # warm-up: page cache, first output in place
dbgen_times, sqlite_times, shell_times, rss, dbgen_cpu, sqlite_cpu = [], [], [], [], [], []
for run in range(1, runs + 1):
    ours = run_dbgen("--force")
    d = ours.seconds
    s, shell = run_sqlite3()
    dbgen_times.append(d); sqlite_times.append(s); shell_times.append(shell.seconds); rss.append(ours.rss)
    dbgen_cpu.append(ours.cpu); sqlite_cpu.append(shell.cpu)
    print(f"   run {run}: dbgen {d:.3f} s, sqlite3 {s:.3f} s ({s - shell.seconds:.3f} s of it deleting the previous"
          f" output), ratio {d / s:.2f}, dbgen peak RSS {ours.rss / 1024:.1f} MiB", flush=True)
noop = [run_dbgen().seconds for _ in range(max(runs, 5))]

def check(sql):
    return [subprocess.run(["sqlite3", path, sql], check=True, capture_output=True, text=True).stdout
            for path in (dbgen_out, sqlite_out)]
a, b = check("SELECT count(*), total(kcal), sum(length(name)), sum(length(desc)) FROM food")
if a != b:
    print(f"bench-dbgen: WARNING: databases differ: dbgen {a.strip()}, sqlite3 {b.strip()}", file=sys.stderr)

ratios = [d / s for d, s in zip(dbgen_times, sqlite_times)]
median_dbgen = statistics.median(dbgen_times)
print(f"== results ({rows} rows, {runs} runs each, alternating)")
print(f"dbgen:          {spread(dbgen_times)}")
shell_ratios = [d / s for d, s in zip(dbgen_times, shell_times)]
print(f"sqlite3 shell:  {spread(sqlite_times)} (deleting its previous output included)")
print(f"ratio:          {median_dbgen / statistics.median(sqlite_times):.3f} (median dbgen / median sqlite3;"
      f" paired runs {min(ratios):.2f}-{max(ratios):.2f})")
print(f"ratio, shell's run alone: {median_dbgen / statistics.median(shell_times):.3f}"
      f" (paired runs {min(shell_ratios):.2f}-{max(shell_ratios):.2f})")
print(f"CPU (user+sys): dbgen median {statistics.median(dbgen_cpu):.3f} s, sqlite3 {statistics.median(sqlite_cpu):.3f} s,"
      f" ratio {statistics.median(dbgen_cpu) / statistics.median(sqlite_cpu):.3f} (dbgen parses on a second thread:"
      f" with no second core free, its time tends to this ratio)")
print(f"dbgen peak RSS: {max(rss) / 1024:.1f} MiB")
print(f"no-op rebuild:  {spread(noop)} ({100 * statistics.median(noop) / median_dbgen:.1f}% of a build)")
PY
echo "== load after: $(uptime | sed 's/.*load average: //')"
if [ -z "${2:-}" ]; then rm -rf "$WORK"; fi
